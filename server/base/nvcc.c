/* nvcc.c - CUDA source to PTX with the user's nvcc (nvcc.h): the include
 * check, a private temporary folder, nvcc through proc.c with a deadline.
 * Knows nothing of PTX beyond reading the file nvcc writes, and runs nothing
 * but nvcc (which, with -ptx, runs its front end and cicc: no host compiler,
 * no linker, nothing of the source is executed). */
#define _GNU_SOURCE 1   /* mkdtemp */
#include "nvcc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"

#define NVCC_FILE "kernel.cu"

static atomic_int running;      /* compiles under way (NVCC_MAX_RUNNING at most) */
static int compile(const struct nvcc_config *cfg, const char *src, size_t len,
                   const char *arch, struct nvcc_result *r, struct sz_error *err);

static const char *const nvcc_fallbacks[] = {"/usr/local/cuda/bin/nvcc", NULL};

int nvcc_find(const char *cfg_path, char *out, size_t cap, struct sz_error *err)
{
    const char *env = getenv("SWZ_NVCC");
    if (!cfg_path && env && !strcmp(env, "none"))
        return sz_fail(err, SZ_COMPILER_UNAVAILABLE, "cuda",
                       "compiling is switched off here (SWZ_NVCC=none): send the kernel's PTX");
    if (!cfg_path && env && *env)
        cfg_path = env;
    if (cfg_path && *cfg_path) {
        if (access(cfg_path, X_OK) == 0 && snprintf(out, cap, "%s", cfg_path) < (int)cap)
            return 0;
        return sz_fail(err, SZ_COMPILER_UNAVAILABLE, "cuda",
                       "the nvcc given (%.80s) cannot be run: install the CUDA toolkit "
                       "(12.0 or later), or send the kernel's PTX", cfg_path);
    }
    if (proc_which("nvcc", nvcc_fallbacks, out, cap) == 0)
        return 0;
    return sz_fail(err, SZ_COMPILER_UNAVAILABLE, "cuda",
                   "no nvcc in PATH or /usr/local/cuda/bin: install the CUDA toolkit "
                   "(12.0 or later) to send CUDA, or send the kernel's PTX");
}

/* ---- the include check ------------------------------------------------------ */

/* The next byte of the logical line at *i: a backslash-newline (also
 * backslash-CR-LF) joins lines in translation phase 2, before directives are
 * seen, so a directive may be spelt across them. */
static int logical(const char *s, size_t len, size_t *i)
{
    while (*i < len && s[*i] == '\\') {
        size_t j = *i + 1;
        if (j < len && s[j] == '\r')
            j++;
        if (j < len && s[j] == '\n')
            *i = j + 1;
        else
            break;
    }
    return *i < len ? (unsigned char)s[*i] : -1;
}

/* Skip blanks and comments of the logical line; the byte there (-1 at the end). */
static int skip_blank(const char *s, size_t len, size_t *i)
{
    for (;;) {
        int c = logical(s, len, i);
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
            (*i)++;
        } else if (c == '/' && *i + 1 < len && s[*i + 1] == '*') {
            const char *end = NULL;
            for (size_t k = *i + 2; k + 1 < len; k++)
                if (s[k] == '*' && s[k + 1] == '/') {
                    end = s + k;
                    break;
                }
            *i = end ? (size_t)(end - s) + 2 : len;
        } else {
            return c;
        }
    }
}

static int name_ok(const char *n, size_t len)
{
    if (len == 0 || n[0] == '/' || strstr(n, "..") != NULL)
        return 0;
    for (size_t k = 0; k < len; k++)
        if (!isalnum((unsigned char)n[k]) && !strchr("_./+-", n[k]))
            return 0;
    return 1;
}

int nvcc_check_source(const char *src, size_t len, struct sz_error *err)
{
    if (memchr(src, '\0', len) != NULL) {
        size_t off = (size_t)((const char *)memchr(src, '\0', len) - src);
        sz_fail(err, SZ_INVALID_ARGUMENT, "cuda", "a NUL byte is not CUDA source");
        return sz_fail_pos(err, src, len, off);
    }
    int line_start = 1;
    for (size_t i = 0; i < len;) {
        if (!line_start) {
            /* Skip to the next physical line; a // comment or a string cannot
             * start a directive, and a block comment spanning lines is
             * skipped whole (a "#include" inside one is no directive). */
            if (src[i] == '/' && i + 1 < len && src[i + 1] == '*') {
                const char *end = NULL;
                for (size_t k = i + 2; k + 1 < len; k++)
                    if (src[k] == '*' && src[k + 1] == '/') {
                        end = src + k;
                        break;
                    }
                i = end ? (size_t)(end - src) + 2 : len;
                continue;
            }
            if (src[i] == '\\' && logical(src, len, &i) != '\\')
                continue;       /* a continued line is the same logical line */
            line_start = src[i] == '\n';
            i++;
            continue;
        }
        size_t at = i;
        int c = skip_blank(src, len, &i);
        line_start = 0;
        int hash = c == '#' || (c == '%' && i + 1 < len && src[i + 1] == ':');
        if (!hash)
            continue;
        i += c == '#' ? 1 : 2;
        skip_blank(src, len, &i);
        char word[16];
        size_t w = 0;
        for (int d; (d = logical(src, len, &i)) >= 0 && (isalnum(d) || d == '_'); i++)
            if (w + 1 < sizeof word)
                word[w++] = (char)d;
        word[w] = '\0';
        if (strcmp(word, "include") && strcmp(word, "include_next") && strcmp(word, "import"))
            continue;
        c = skip_blank(src, len, &i);
        char name[256];
        size_t n = 0;
        int closed = 0;
        if (c == '<') {
            for (i++; (c = logical(src, len, &i)) >= 0 && c != '\n'; i++) {
                if (c == '>') {
                    closed = 1;
                    i++;
                    break;
                }
                if (n + 1 < sizeof name)
                    name[n++] = (char)c;
            }
        }
        name[n] = '\0';
        if (!closed || !name_ok(name, n)) {
            (void)at;
            sz_fail(err, SZ_INVALID_ARGUMENT, "cuda",
                    "#%s: only a header in angle brackets with a relative name (<cuda_fp16.h>, "
                    "<cute/tensor.hpp>) is compiled here: a quoted, absolute or macro name "
                    "could read any file", word);
            size_t hash_at = at;
            while (hash_at < len && src[hash_at] != '#' && src[hash_at] != '%')
                hash_at++;
            return sz_fail_pos(err, src, len, hash_at);
        }
    }
    return 0;
}

/* ---- compiling ---------------------------------------------------------------- */

static int write_all(const char *path, const char *s, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, s + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    return close(fd);
}

static char *read_all(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(max + 1);
    size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
    fclose(f);
    if (!buf || n > max) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int arch_ok(const char *a)
{
    if (strncmp(a, "sm_", 3) != 0 || !isdigit((unsigned char)a[3]) ||
        !isdigit((unsigned char)a[4]))
        return 0;
    const char *p = a + 5;
    if (isdigit((unsigned char)*p))
        p++;
    return *p == '\0' || (p[0] == 'a' && p[1] == '\0') || (p[0] == 'f' && p[1] == '\0');
}

/* nvcc's first error on kernel.cu: "DIR/kernel.cu(12): error: ..." -> line 12
 * and the text after "error: ", else the first line that says "error". */
static void first_error(const char *log, int *line, const char **msg, int *msg_len)
{
    *line = 0;
    *msg = NULL;
    *msg_len = 0;
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        const char *e = NULL;
        for (const char *q = p; q + 6 <= p + n; q++)
            if (!strncmp(q, "error", 5)) {
                e = q;
                break;
            }
        if (e) {
            const char *f = strstr(p, NVCC_FILE "(");
            if (f && f < p + n)
                *line = atoi(f + sizeof NVCC_FILE);
            const char *m = strstr(e, ": ");
            m = m && m < p + n ? m + 2 : p;
            *msg = m;
            *msg_len = (int)(p + n - m);
            return;
        }
        p = eol ? eol + 1 : p + n;
    }
}

/* The preprocessor failed, so which files it opened is unknown, and its
 * messages may quote any of them: only a message located in kernel.cu (whose
 * text is the user's own) is passed on, with its line. */
static void preprocess_error(const char *log, const char *dir, struct sz_error *err)
{
    size_t dl = strlen(dir);
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        const char *f = p;
        if (n > dl + 1 && !strncmp(f, dir, dl) && f[dl] == '/')
            f += dl + 1;
        size_t fl = sizeof NVCC_FILE - 1;
        if (!strncmp(f, NVCC_FILE, fl) && (f[fl] == ':' || f[fl] == '(')) {
            int line = atoi(f + fl + 1);
            int len = (int)(p + n - f);
            sz_fail(err, SZ_INVALID_ARGUMENT, "cuda", "%.*s", len > 150 ? 150 : len, f);
            if (line > 0)
                sz_set_at(err, line, 1);
            return;
        }
        p = eol ? eol + 1 : p + n;
    }
    sz_fail(err, SZ_INVALID_ARGUMENT, "cuda",
            "nvcc's preprocessor refused the source (its messages name other files, "
            "which are not shown)");
}

/* The include check's ground truth: nvcc -M lists every file the
 * preprocessor opened (after it, not a textual guess: a macro include or a
 * directive hidden by a string the check above misreads is in this list).
 * Each must lie in the toolkit (`root`, resolved) or the system's and the
 * host compiler's include folders.  The run's messages are dropped unread:
 * a preprocessed foreign file could be quoted in them. */
static int deps_ok(const char *out, const char *root, const char *cu, char *bad, size_t cap)
{
    static const char *const system_dirs[] = {"/usr/include/", "/usr/lib/gcc/", NULL};
    const char *p = strchr(out, ':');
    if (!p)
        return 0;
    for (p++;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
               (*p == '\\' && (p[1] == '\n' || p[1] == '\r')))
            p++;
        if (!*p)
            return 1;
        char path[1024];
        size_t n = 0;
        for (; *p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r'; p++) {
            if (*p == '\\' && p[1] == ' ')
                p++;                        /* make's escaped blank */
            else if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
                break;
            if (n + 1 < sizeof path)
                path[n++] = *p;
        }
        path[n] = '\0';
        char real[PATH_MAX];
        if (!strcmp(path, cu) || !strcmp(path, NVCC_FILE))
            continue;
        int ok = realpath(path, real) != NULL;
        if (ok) {
            size_t rl = strlen(root);
            ok = rl > 1 && !strncmp(real, root, rl) && real[rl] == '/';
            for (int k = 0; !ok && system_dirs[k]; k++)
                ok = !strncmp(real, system_dirs[k], strlen(system_dirs[k]));
        }
        if (!ok) {
            snprintf(bad, cap, "%.200s", path);
            return 0;
        }
    }
}

int nvcc_compile(const struct nvcc_config *cfg, const char *src, size_t len,
                 struct nvcc_result *r, struct sz_error *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->file, sizeof r->file, "%s", NVCC_FILE);
    const char *arch = cfg && cfg->arch ? cfg->arch : "sm_90a";
    if (!arch_ok(arch))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "arch",
                       "must be sm_NN, sm_NNa or sm_NNf (sm_90a, sm_80), got \"%.20s\"", arch);
    if (len > NVCC_MAX_SOURCE)
        return sz_fail(err, SZ_TOO_LARGE, "cuda", "%zu bytes: at most %u bytes of source", len,
                       NVCC_MAX_SOURCE);
    if (nvcc_check_source(src, len, err) < 0)
        return -1;
    if (nvcc_find(cfg ? cfg->nvcc : NULL, r->path, sizeof r->path, err) < 0)
        return -1;
    /* nvcc takes a CPU and up to a GiB for a CuTe kernel: a few at once. */
    if (atomic_fetch_add(&running, 1) >= NVCC_MAX_RUNNING) {
        atomic_fetch_sub(&running, 1);
        return sz_fail(err, SZ_OVERLOADED, "cuda", "%d compiles are running: retry in a few "
                       "seconds", NVCC_MAX_RUNNING);
    }
    int rc = compile(cfg, src, len, arch, r, err);
    atomic_fetch_sub(&running, 1);
    return rc;
}

/* Every "DIR/" out of s[0..*len) (NUL-terminated), *len following: nvcc names
 * the private folder in its messages and .file lines, and nothing of this
 * machine but the user's own kernel.cu belongs in an answer. */
static void strip_dir(char *s, size_t *len, const char *dir)
{
    size_t dl = strlen(dir);
    for (char *q = s; (q = strstr(q, dir)) != NULL;) {
        if (q[dl] != '/') {
            q += dl;
            continue;
        }
        memmove(q, q + dl + 1, *len - (size_t)(q - s) - dl);
        *len -= dl + 1;
    }
}

static int compile(const struct nvcc_config *cfg, const char *src, size_t len,
                   const char *arch, struct nvcc_result *r, struct sz_error *err)
{
    const char *tmp = getenv("TMPDIR");
    char dir[256], cu[300], ptx[300], archflag[32];
    snprintf(dir, sizeof dir, "%s/swizzlescope-nvcc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))      /* mode 0700: no other user sees the source */
        return sz_fail(err, SZ_INTERNAL, NULL, "no temporary folder for nvcc: %s",
                       strerror(errno));
    snprintf(cu, sizeof cu, "%s/" NVCC_FILE, dir);
    snprintf(ptx, sizeof ptx, "%s/kernel.ptx", dir);
    snprintf(archflag, sizeof archflag, "-arch=%s", arch);
    int rc = -1;
    if (write_all(cu, src, len) < 0) {
        sz_fail(err, SZ_INTERNAL, NULL, "cannot write the source for nvcc: %s", strerror(errno));
        goto out;
    }
    /* Which files the source opens, as the preprocessor sees it. */
    char root[PATH_MAX], bad[256] = "";
    {
        char tk[600];
        snprintf(tk, sizeof tk, "%s", r->path);    /* .../bin/nvcc -> the toolkit */
        char *slash = strrchr(tk, '/');
        if (slash)
            snprintf(slash, sizeof tk - (size_t)(slash - tk), "/..");
        if (!slash || !realpath(tk, root))
            root[0] = '\0';
        char *margv[] = {r->path, "-M", archflag, cu, NULL};
        struct proc_spec ms = {.argv = margv, .out_cap = 1u << 20, .err_cap = 4096,
                               .own_group = 1};
        struct proc mp;
        double mt = cfg && cfg->timeout_s > 0 ? cfg->timeout_s : 60.0;
        int started = proc_run(&ms, mt, &mp, err) == 0;
        int fine = started && !mp.timed_out && mp.exit_code == 0 && !mp.out_truncated &&
                   deps_ok(mp.out, root, cu, bad, sizeof bad);
        if (!fine) {
            if (bad[0])
                sz_fail(err, SZ_INVALID_ARGUMENT, "cuda",
                        "the source includes %.100s, outside the CUDA toolkit and the "
                        "system's headers", bad);
            else if (!started)
                sz_fail(err, SZ_COMPILER_UNAVAILABLE, "cuda", "%.120s could not be started",
                        r->path);
            else if (mp.timed_out)
                sz_fail(err, SZ_TOO_LARGE, "cuda", "nvcc's preprocessor ran past %.0f s", mt);
            else
                preprocess_error(mp.err ? mp.err : "", dir, err);
            proc_free(&mp);
            goto out;
        }
        proc_free(&mp);
    }
    /* -ptx: device code only.  --dont-use-profile and no -I: the toolkit's own
     * include folders and the system's are all nvcc searches; -Xcompiler is
     * never passed, nothing of the request reaches the command line. */
    char *argv[] = {r->path, "-O3", "-lineinfo", archflag, "-ptx", "-o", ptx, cu, NULL};
    struct proc_spec spec = {.argv = argv, .out_cap = NVCC_MAX_LOG, .err_cap = NVCC_MAX_LOG,
                             .err_tail = 0, .own_group = 1};
    struct proc p;
    double timeout = cfg && cfg->timeout_s > 0 ? cfg->timeout_s : 60.0;
    if (proc_run(&spec, timeout, &p, err) < 0) {
        proc_free(&p);
        sz_fail(err, SZ_COMPILER_UNAVAILABLE, "cuda", "%.120s could not be started",
                r->path);
        goto out;
    }
    snprintf(r->log, sizeof r->log, "%s%s", p.err ? p.err : "", p.out ? p.out : "");
    /* nvcc names the temporary folder in every message: the user's file is
     * kernel.cu, nothing else of this machine belongs in the answer. */
    size_t log_len = strlen(r->log);
    strip_dir(r->log, &log_len, dir);
    if (p.timed_out) {
        sz_fail(err, SZ_TOO_LARGE, "cuda", "nvcc ran past %.0f s and was stopped", timeout);
    } else if (p.exit_code != 0) {
        int line;
        const char *m;
        int mlen;
        first_error(r->log, &line, &m, &mlen);
        if (m)
            sz_fail(err, SZ_INVALID_ARGUMENT, "cuda", "nvcc: %.*s", mlen > 140 ? 140 : mlen, m);
        else
            sz_fail(err, SZ_INVALID_ARGUMENT, "cuda", "nvcc failed (exit %d)%s", p.exit_code,
                    p.signal ? " on a signal" : "");
        if (line > 0)
            sz_set_at(err, line, 1);
    } else if (!(r->ptx = read_all(ptx, NVCC_MAX_PTX, &r->ptx_len))) {
        sz_fail(err, SZ_TOO_LARGE, "cuda", "nvcc wrote no PTX, or more than %u bytes",
                NVCC_MAX_PTX);
    } else {
        /* The .file lines name DIR/kernel.cu: the answer's lines say kernel.cu. */
        strip_dir(r->ptx, &r->ptx_len, dir);
        rc = 0;
    }
    proc_free(&p);
out:
    unlink(ptx);
    unlink(cu);
    rmdir(dir);
    return rc;
}

void nvcc_free(struct nvcc_result *r)
{
    free(r->ptx);
    r->ptx = NULL;
}
