#!/usr/bin/env python3
"""triton_ll_transcribe.py - writes tests/data/triton_ll_cases.json from Triton's
unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp: every
EXPECT_EQ(toLinearLayout(shape, ENCODING), LinearLayout(...)) of a single-CTA
blocked, nvidia_mma, dot_op, slice or amd_mfma encoding, the encoding rendered
as the TTGIR text Triton prints for it, the expected bases copied as written.
It reads the C++ test as text and evaluates nothing of Triton's: the numbers
in the JSON are the test's own literals.  Multi-CTA, WMMA, shared and tensor
memory cases are left out (listed in the JSON's "skipped").

usage: triton_ll_transcribe.py TEST.cpp REPO COMMIT > tests/data/triton_ll_cases.json
"""
import json
import re
import sys

FAMILIES = ("SimpleBlocked", "ShapeLargerThanLayout", "ShapeSmallerThanLayout",
            "ReversedOrder", "ReplicateInRegisterDim", "Skinny", "Blocked4D",
            "BlockedDot", "MMAv2", "MMAv3", "DotMMA", "SliceDot", "MFMA",
            "SliceOf", "SliceWithShape1", "Slice4D", "CTADuplication", "CTABroadcast",
            "OneDimTooLargeAnotherTooSmall", "RepeatInCTGDimFirst", "SmallerThanCGALayout",
            "BlockedOrder", "SharedSwizzled", "LeadingOffset", "SharedSimple", "Shared1D",
            "AMDRotatingShared")


def strip_comments(s):
    s = re.sub(r"/\*.*?\*/", "", s, flags=re.S)
    return re.sub(r"//[^\n]*", "", s)


def blocks(src):
    """(name, body) of every TEST_F."""
    for m in re.finditer(r"TEST_F\(\s*LinearLayoutConversionsTest,\s*(\w+)\s*\)\s*\{", src):
        i, depth = m.end(), 1
        while depth:
            depth += {"{": 1, "}": -1}.get(src[i], 0)
            i += 1
        yield m.group(1), src[m.end():i - 1]


def statements(body):
    """Top-level statements; a `for (...) { ... }` is one statement."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(body):
        c = body[i]
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
            if depth == 0 and c == "}" and body[start:i].lstrip().startswith("for"):
                out.append(body[start:i + 1].strip())
                start = i + 1
        elif c == ";" and depth == 0:
            out.append(body[start:i].strip())
            start = i + 1
        i += 1
    return [s for s in out if s]


class Enc:
    def __init__(self, kind, **kw):
        self.kind, self.kw = kind, kw

    def single_cta(self):
        if self.kind in ("blocked", "swizzled", "rotating", "nvmma") or (self.kind == "mma" and self.kw.get("cpg")):
            return all(x == 1 for x in self.kw.get("cpg") or [1])
        if "parent" in self.kw:
            return self.kw["parent"].single_cta()
        return True


def arr(v):
    return "[" + ", ".join(str(x) for x in v) + "]"


def ttgir(e, aliases):
    """The text Triton prints for e; parents become aliases #p0, #p1, ..."""
    k = e.kw
    if e.kind == "blocked":
        return ("#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, warpsPerCTA = %s, "
                "order = %s}>" % (arr(k["spt"]), arr(k["tpw"]), arr(k["wpc"]), arr(k["order"])))
    if e.kind == "mma":
        return ("#ttg.nvidia_mma<{versionMajor = %d, versionMinor = %d, warpsPerCTA = %s, "
                "instrShape = %s}>" % (k["major"], k["minor"], arr(k["wpc"]), arr(k["instr"])))
    if e.kind == "swizzled":
        return ("#ttg.swizzled_shared<{vec = %d, perPhase = %d, maxPhase = %d, order = %s}>"
                % (k["vec"], k["pp"], k["mp"], arr(k["order"])))
    if e.kind == "rotating":
        return ("#ttg.amd_rotating_shared<{vec = %d, perPhase = %d, maxPhase = %d, order = %s}>"
                % (k["vec"], k["pp"], k["mp"], arr(k["order"])))
    if e.kind == "nvmma":
        t = ("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d"
             % (k["swz"], "true" if k["tr"] else "false", k["ebw"]))
        return t + (", rank = %d}>" % k["rank"] if k["rank"] != 2 else "}>")
    if e.kind == "mfma":
        t = ("#ttg.amd_mfma<{version = %d, warpsPerCTA = %s, instrShape = %s, isTransposed = %s"
             % (k["version"], arr(k["wpc"]), arr(k["instr"]), "true" if k["trans"] else "false"))
        if k["tpw"] and any(x != 1 for x in k["tpw"]):
            t += ", tilesPerWarp = %s" % arr(k["tpw"])
        if k["ebw"] not in (0, 32):
            t += ", elementBitWidth = %d" % k["ebw"]
        return t + "}>"
    name = "#p%d" % len(aliases)
    aliases.append(None)
    parent = ttgir(k["parent"], aliases)
    aliases[int(name[2:])] = "%s = %s" % (name, parent)
    if e.kind == "dot":
        return "#ttg.dot_op<{opIdx = %d, parent = %s, kWidth = %d}>" % (k["op"], name, k["kw"])
    return "#ttg.slice<{dim = %d, parent = %s}>" % (k["dim"], name)


def inline(text, aliases):
    for a in aliases:
        n, v = a.split(" = ", 1)
        text = text.replace(n + "}", v + "}").replace(n + ",", v + ",")
    return text


# The test fixture's helpers, by their C++ signatures.
def blocked(spt, tpw, wpc, cpg, split, order, cord):
    return Enc("blocked", spt=spt, tpw=tpw, wpc=wpc, cpg=cpg, order=order)


def mma(major, minor, instr, wpc, cpg=None, split=None, cord=None):
    return Enc("mma", major=major, minor=minor, instr=instr, wpc=wpc, cpg=cpg)


def dot(parent, op, kw):
    return Enc("dot", parent=parent, op=op, kw=kw)


def mfma(version, wpc, instr, trans, tpw=(), ebw=0):
    return Enc("mfma", version=version, wpc=wpc, instr=instr, trans=trans, tpw=list(tpw), ebw=ebw)


def slice_(parent, dim):
    return Enc("slice", parent=parent, dim=dim)


def shared(vec, per_phase, max_phase, cpg, split, order, cord):
    return Enc("swizzled", vec=vec, pp=per_phase, mp=max_phase, cpg=cpg, order=order)


def AMDRotatingShared(vec, per_phase, max_phase, cpg, split, order, cord):
    return Enc("rotating", vec=vec, pp=per_phase, mp=max_phase, cpg=cpg, order=order)


def nvmmaShared(swz, transposed, ebw, cpg, split, order, cord, fp4=False):
    return Enc("nvmma", swz=swz, tr=transposed, ebw=ebw, cpg=cpg, rank=len(order))


def S(x):
    return x


def LinearLayout(bases, dims, surjective=True):
    return {"bases": {name: b for name, b in bases}, "rank": len(dims)}


class _Identity1D:
    """LinearLayout::identity1D(...) products: not transcribed (no literal bases)."""

    def __init__(self, *a):
        pass

    def __mul__(self, other):
        return self

    def transposeOuts(self, dims):
        return self


LinearLayout.identity1D = _Identity1D


def toLinearLayout(shape, enc):
    return ("call", shape, enc)


def pyexpr(cxx):
    e = cxx.replace("{", "[").replace("}", "]")
    e = re.sub(r"\btrue\b", "True", e)
    e = re.sub(r"\bfalse\b", "False", e)
    e = re.sub(r"\bslice\(", "slice_(", e)
    e = e.replace("mfmaDotOp(", "dot(")
    e = e.replace("LinearLayout::identity1D", "LinearLayout.identity1D")
    e = re.sub(r"\)\s*\.transposeOuts", ").transposeOuts", e)
    return e


def main():
    path, repo, commit = sys.argv[1:4]
    src = strip_comments(open(path).read())
    cases, skipped = [], []
    for name, body in blocks(src):
        if not name.startswith(FAMILIES):
            continue
        env = dict(blocked=blocked, mma=mma, dot=dot, mfma=mfma, slice_=slice_, S=S,
                   shared=shared, nvmmaShared=nvmmaShared, AMDRotatingShared=AMDRotatingShared,
                   LinearLayout=LinearLayout, toLinearLayout=toLinearLayout)
        n_in_test = 0

        def run(stmt):
            nonlocal n_in_test
            m = re.match(r"(?:auto|SmallVector<[^=]*>)\s+(\w+)\s*=\s*(.*)$", stmt, re.S)
            if m:
                env[m.group(1)] = eval(pyexpr(m.group(2)), env)
                return
            m = re.match(r"for\s*\(\s*auto\s+(\w+)\s*:\s*(\w+)\s*\)\s*\{(.*)\}$", stmt, re.S)
            if m:
                for v in env[m.group(2)]:
                    env[m.group(1)] = v
                    for s in statements(m.group(3)):
                        run(s)
                return
            if stmt.startswith("SCOPED_TRACE"):
                return
            m = re.match(r"EXPECT_(?:EQ|THAT)\((.*)\)$", stmt, re.S)
            if not m:
                raise SystemExit("%s: cannot read %r" % (name, stmt[:60]))
            got, want = eval("(" + pyexpr(m.group(1)) + ")", env)
            _, shape, enc = got
            same = None
            if isinstance(want, _Identity1D):
                skipped.append({"test": "%s#%d" % (name, n_in_test + 1),
                                "reason": "expected written as identity1D products, no literal bases"})
                n_in_test += 1
                return
            if isinstance(want, tuple):       # toLinearLayout(...) == toLinearLayout(...)
                same = want
                want = next(({"bases": c["expected"]} for c in cases
                             if c["_enc"] is want[2] and c["shape"] == want[1]), None)
            n_in_test += 1
            label = "%s#%d" % (name, n_in_test)
            if not enc.single_cta():
                skipped.append({"test": label, "reason": "multi-CTA (CGA) layout"})
                return
            aliases = []
            text = ttgir(enc, aliases)
            case = {"test": label, "layout": text, "aliases": "\n".join(aliases),
                    "layout_inline": inline(text, aliases), "shape": shape, "_enc": enc}
            if want is not None and enc.kind in ("swizzled", "rotating", "nvmma"):
                case["expected_shared"] = {k: want["bases"].get(k, []) for k in ("offset", "block")}
            elif want is not None:
                case["expected"] = {k: want["bases"].get(k, []) for k in
                                    ("register", "lane", "warp", "block")}
            if same is not None:
                # Triton asserts two layouts equal; where the other one has a
                # literal above, expected holds it too
                other = []
                case["equals"] = {"layout": ttgir(same[2], other),
                                  "aliases": "\n".join(other), "shape": same[1]}
            cases.append(case)
        for stmt in statements(body):
            run(stmt)
    for c in cases:
        del c["_enc"]
    out = {"provenance": {"repo": repo, "commit": commit,
                          "file": "unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp",
                          "how": "tests/data/triton_ll_transcribe.py: the expected bases are "
                                 "the test's literals; the layout text renders the fixture's "
                                 "encoding as Triton prints it (TTGIR)"},
           "cases": cases, "skipped": skipped}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
