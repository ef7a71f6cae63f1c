#!/usr/bin/env python3
# layers.py - the include rule of server/ (README "The tree"; static/js's import
# rule is tests/node/imports.test.mjs): a file includes its own folder's headers
# and lower folders' only, no two modules include each other (directly or round
# a circle), libmicrohttpd only in net/, cJSON only in api/ and the first screen,
# and route files include no other route's header.  Prints each broken include,
# then "N passed, N failed".
import os, re, sys

RANK = {"base": 0, "model": 1, "linear": 2, "triton": 3, "layout": 4, "recommend": 4, "ptx": 4,
        "api": 5, "net": 6, "": 7}                      # "": server/main.c
LIBS = {"microhttpd.h": ("net/",), "cJSON.h": ("api/", "net/firstscreen.c")}
ROUTE_SHARED = {"api.h", "api_routes.h", "api_read.h", "api_read_layout.h", "api_write.h", "instr_json.h", "ptx_json.h",
                "ptx_request.h", "ptx_compare.h"}
root = sys.argv[1] if len(sys.argv) > 1 else "server"
bad, checked, edges = [], 0, {}
for d, _, names in os.walk(root):
    for n in sorted(names):
        if not n.endswith((".c", ".h")):
            continue
        path = os.path.join(d, n)
        rel, folder = os.path.relpath(path, root), os.path.relpath(d, root).replace(".", "")
        if folder not in RANK:
            bad.append(f"{rel}: folder {folder}/ has no rank in layers.py")
            continue
        for line in open(path, encoding="utf-8"):
            m = re.match(r'\s*#\s*include\s*([<"])([^">]+)[">]', line)
            if not m:
                continue
            checked += 1
            inc = m.group(2)
            if m.group(1) == "<":
                lib = os.path.basename(inc)
                if lib in LIBS and not rel.startswith(LIBS[lib]):
                    bad.append(f"{rel}: includes <{inc}>, allowed only in {' '.join(LIBS[lib])}")
                continue
            f, h = os.path.split(inc) if "/" in inc else (folder, inc)
            if not os.path.exists(os.path.join(root, f, h)):
                bad.append(f'{rel}: "{inc}" is no header of server/{f}/')
            elif f != folder and not RANK.get(f, 99) < RANK[folder]:
                bad.append(f'{rel}: "{inc}" runs up or sideways ({folder or "main"} may include only lower floors)')
            elif folder == "api" and n.startswith("api_") and n.endswith(".c") and h not in ROUTE_SHARED \
                    and h != n[:-2] + ".h" and f == "api":
                bad.append(f'{rel}: "{inc}" is another route\'s header (share writers through api_write.h)')
            edges.setdefault((folder, n[:-2]), set()).add((f, h[:-2]))
# A module is x.c with x.h; a header with no .c (declarations only) is seen
# through: including it is including what it includes.  A module that reaches
# itself through other modules is in a circle (access.c <-> atomic.c was one).
has_c = {(os.path.relpath(d, root).replace(".", ""), n[:-2]) for d, _, ns in os.walk(root) for n in ns if n.endswith(".c")}
def deps(mod, seen):
    out = set()
    for m in edges.get(mod, ()):
        if m in has_c:
            out.add(m)
        elif m not in seen:
            seen.add(m)
            out |= deps(m, seen)
    return out
graph = {m: deps(m, {m}) - {m} for m in has_c}
def reach(start):
    seen, todo = set(), list(graph[start])
    while todo:
        m = todo.pop()
        if m == start:
            return True
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return False
for mod in sorted(has_c):
    if reach(mod):
        bad.append(f"{mod[0]}/{mod[1]}: in an include circle (it reaches itself through other modules)")
for b in bad:
    print("layers:", b)
print(f"layers: {checked} includes in {root}/")
print(f"{checked - len(bad)} passed, {len(bad)} failed")
sys.exit(1 if bad else 0)
