/* test_main.c - the server binary's command line, run as a child process:
 * every flag the README lists is accepted by the parser and named by --help
 * (its usage line and its option list), and a bad flag exits 2 with the
 * usage.  Starts no server: --help exits before anything is bound. */
#define _GNU_SOURCE 1   /* popen, pclose, WEXITSTATUS under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"

#define MAX_FLAGS 16

struct flag {
    char name[32];      /* "--port" */
    char value[32];     /* a value the parser accepts for its metavariable; "" for none */
};

/* The README's "Server flags:" sentence, `[--flag META]` groups up to the
 * closing backquote; returns how many flags it names. */
static int readme_flags(struct flag *out)
{
    static char text[1 << 16];
    FILE *f = fopen("README.md", "r");
    if (f == NULL)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *p = strstr(text, "Server flags: `");
    const char *end = p ? strchr(p + 15, '`') : NULL;
    int k = 0;
    while (p && end && k < MAX_FLAGS && (p = strchr(p, '[')) != NULL && p < end) {
        char meta[32] = "";
        if (sscanf(p, "[%31[^] ] %31[^]]", out[k].name, meta) < 1)
            break;
        /* One value per metavariable that every flag using it accepts:
         * N is a port (0..65535) and a thread count (2..64). */
        const char *v = !strcmp(meta, "N") ? "2" : !strcmp(meta, "ADDR") ? "127.0.0.1"
                      : !strcmp(meta, "DIR") ? "static" : !strncmp(meta, "PATH", 4) ? "none"
                      : !strcmp(meta, "LIST") ? "http://localhost:8000" : "";
        snprintf(out[k].value, sizeof out[k].value, "%s", v);
        k++;
        p++;
    }
    return k;
}

/* Run the binary with `args` (shell words), stderr joined to stdout; the
 * output goes to `out`, the exit status is returned (-1 if it did not exit). */
static int run(const char *bin, const char *args, char *out, size_t cap)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    if (p == NULL)
        return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
    const char *bin = getenv("SWZ_BIN") ? getenv("SWZ_BIN") : "build/asan/swizzlescope";
    struct flag flags[MAX_FLAGS];
    int n = readme_flags(flags);
    CHECK(n >= 6, "README's \"Server flags:\" names %d flags, expected at least 6", n);

    static char help[1 << 14];
    CHECK(run(bin, "--help", help, sizeof help) == 0, "%s --help: not exit 0: %s", bin, help);
    /* The usage may wrap over lines: it ends at the first blank line. */
    const char *blank = strstr(help, "\n\n");
    size_t usage_len = blank ? (size_t)(blank - help) : strlen(help);
    char args[512] = "";
    for (int i = 0; i < n; i++) {
        char *hit = strstr(help, flags[i].name);
        CHECK(hit && (size_t)(hit - help) < usage_len, "usage line lacks %s: %s",
              flags[i].name, help);
        char item[40];
        snprintf(item, sizeof item, "  %s ", flags[i].name);
        char item_h[40];
        snprintf(item_h, sizeof item_h, ", %s ", flags[i].name);
        CHECK(strstr(help, item) || strstr(help, item_h), "--help does not describe %s: %s",
              flags[i].name, help);
        if (strcmp(flags[i].name, "--help") != 0) {
            size_t len = strlen(args);
            snprintf(args + len, sizeof args - len, "%s %s ", flags[i].name, flags[i].value);
        }
    }
    /* Every flag at once, --help last: the parser must take each (an unknown
     * one exits 2) and stop at --help before it binds anything. */
    static char out[1 << 14];
    strncat(args, "--help", sizeof args - strlen(args) - 1);
    int st = run(bin, args, out, sizeof out);
    CHECK(st == 0 && strstr(out, "usage: swizzlescope"), "%s %s: exit %d: %s", bin, args, st,
          out);

    st = run(bin, "--no-such-flag", out, sizeof out);
    CHECK(st == 2 && strstr(out, "unknown or incomplete option '--no-such-flag'") &&
          strstr(out, "usage: swizzlescope"), "unknown flag: exit %d: %s", st, out);
    /* --embed-origins takes origins only: a wildcard would let any page frame
     * the tool, a ';' would add a CSP directive (issue 27). */
    st = run(bin, "--port 0 --measure-tool none --embed-origins '*'", out, sizeof out);
    CHECK(st == 1 && strstr(out, "'*': up to 8 origins"), "--embed-origins '*': exit %d: %s", st, out);
    st = run(bin, "--port 0 --measure-tool none --embed-origins 'http://a;script-src *'", out, sizeof out);
    CHECK(st == 1 && strstr(out, "scheme://host[:port]"), "--embed-origins with ';': exit %d: %s", st, out);
    st = run(bin, "--threads 1", out, sizeof out);
    CHECK(st == 2 && strstr(out, "--threads needs a number in 2..64"),
          "--threads 1: exit %d: %s", st, out);
    return check_summary("test_main");
}
