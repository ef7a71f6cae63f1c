/* ptxhost.c: the --ptx mode's host side (ptxhost.h). The command line, the entry's
 * parameters as the PTX declares them, and ncu's CSV pages turned into numbers (read by
 * model/ncu_csv, the one reader of ncu's CSV: none of its own here). Every
 * failure is a sentence in the caller's buffer; nothing here exits, prints to a terminal
 * or touches a GPU, so that tests/gpu/test_tool.c can run it all without one. */
#define _GNU_SOURCE 1
#include "ptxhost.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/ncu_csv.h"

const char *const ptxm_kind_names[PTXM_NKINDS] = {"ld", "st", "ldsm", "stsm", "atom", "ldgsts"};

static void say(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

/* ---- the command line ------------------------------------------------------------ */

static int parse_dim3(const char *s, unsigned out[3])
{
    unsigned v[3] = {1, 1, 1};
    int k = 0;
    const char *p = s;
    while (k < 3) {
        char *end;
        errno = 0;
        if (!isdigit((unsigned char)*p))
            return -1;
        unsigned long x = strtoul(p, &end, 10);
        if (errno || x < 1 || x > 65535u * 32768u)
            return -1;
        v[k++] = (unsigned)x;
        if (*end == '\0')
            break;
        if (*end != ',' || k == 3)
            return -1;
        p = end + 1;
    }
    memcpy(out, v, sizeof v);
    return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    if (!s || !*s)
        return -1;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int ptxm_parse_args(int argc, char **argv, struct ptxm_args *a, char *msg, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->grid[0] = a->grid[1] = a->grid[2] = 1;
    a->global_bytes = 65536;
    a->timeout = 10.0;
    a->ncu_timeout = 120.0;
    int have_block = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        if (!strcmp(o, "--json")) {
            a->json = 1;
            continue;
        } else if (!strcmp(o, "--ptx-child")) {
            a->child = 1;
            continue;
        } else if (!strcmp(o, "--no-ncu")) {
            a->no_ncu = 1;
            continue;
        } else if (!strcmp(o, "--require-ncu")) {
            a->require_ncu = 1;
            continue;
        } else if (!strcmp(o, "--quiet")) {
            continue;
        }
        if (!v) {
            say(msg, cap, "%s needs a value (see --help)", o);
            return -1;
        }
        if (!strcmp(o, "--ptx")) {
            a->ptx_path = v;
        } else if (!strcmp(o, "--kernel")) {
            a->kernel = v;
        } else if (!strcmp(o, "--block") || !strcmp(o, "--grid")) {
            int blk = o[2] == 'b';
            if (parse_dim3(v, blk ? a->block : a->grid) < 0) {
                say(msg, cap, "%s needs X[,Y[,Z]] of positive integers, got '%s'", o, v);
                return -1;
            }
            have_block |= blk;
        } else if (!strcmp(o, "--param")) {
            if (a->nparams == PTXM_MAX_PARAMS) {
                say(msg, cap, "at most %d --param", PTXM_MAX_PARAMS);
                return -1;
            }
            a->params[a->nparams].is_null = !strcmp(v, "null");
            a->params[a->nparams++].text = v;
        } else if (!strcmp(o, "--dynamic-shared")) {
            if (parse_long(v, 0, 1L << 20, &x) < 0) {
                say(msg, cap, "--dynamic-shared needs bytes in 0..1048576, got '%s'", v);
                return -1;
            }
            a->dynamic_shared = x;
        } else if (!strcmp(o, "--global-bytes")) {
            if (parse_long(v, 1, 1L << 30, &x) < 0) {
                say(msg, cap, "--global-bytes needs bytes in 1..1073741824, got '%s'", v);
                return -1;
            }
            a->global_bytes = x;
        } else if (!strcmp(o, "--device") || !strcmp(o, "--alarm")) {
            if (parse_long(v, o[2] == 'd' ? 0 : 1, 86400, &x) < 0) {
                say(msg, cap, "%s needs an integer, got '%s'", o, v);
                return -1;
            }
            *(o[2] == 'd' ? &a->device : &a->alarm_s) = (int)x;
        } else if (!strcmp(o, "--ncu")) {
            a->ncu_path = v;
        } else if (!strcmp(o, "--keep")) {
            a->keep_dir = v;
        } else if (!strcmp(o, "--from-csv")) {
            a->from_csv = v;
        } else if (!strcmp(o, "--timeout") || !strcmp(o, "--ncu-timeout")) {
            char *end;
            double d = strtod(v, &end);
            if (*end || !(d > 0 && d <= 86400)) {
                say(msg, cap, "%s needs seconds in (0, 86400], got '%s'", o, v);
                return -1;
            }
            *(o[2] == 't' ? &a->timeout : &a->ncu_timeout) = d;
        } else {
            say(msg, cap, "unknown option '%s' with --ptx (see --help)", o);
            return -1;
        }
        i++;
    }
    if (!a->ptx_path) {
        say(msg, cap, "--ptx needs a file");
        return -1;
    }
    if (!have_block) {
        say(msg, cap, "--ptx needs --block X,Y,Z");
        return -1;
    }
    unsigned long threads = (unsigned long)a->block[0] * a->block[1] * a->block[2];
    if (threads > 1024 || a->block[2] > 64) {
        say(msg, cap, "a block has at most 1024 threads (z at most 64), got %u,%u,%u",
            a->block[0], a->block[1], a->block[2]);
        return -1;
    }
    if (a->grid[1] > 65535 || a->grid[2] > 65535) {
        say(msg, cap, "grid y and z are at most 65535");
        return -1;
    }
    return 0;
}

/* ---- the entry's parameters ------------------------------------------------------- */

static int is_ident(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '.' || c == '%';
}

/* The next ".entry NAME" at or after `from` (a whole word): NAME's start, its
 * length in *n and where to look next in *next; NULL when there is none. */
static const char *next_entry(const char *ptx, const char *from, size_t *n, const char **next)
{
    for (const char *p = from; (p = strstr(p, ".entry")) != NULL; p += 6) {
        if ((p > ptx && is_ident((unsigned char)p[-1])) || is_ident((unsigned char)p[6]))
            continue;
        const char *q = p + 6;
        while (*q == ' ' || *q == '\t')
            q++;
        *n = 0;
        while (is_ident((unsigned char)q[*n]))
            (*n)++;
        *next = p + 6;
        return q;
    }
    return NULL;
}

/* The entries' names, for a "no such kernel" message. */
static void list_entries(const char *ptx, char *out, size_t cap)
{
    size_t len = 0, n;
    out[0] = '\0';
    for (const char *q, *p = ptx; (q = next_entry(ptx, p, &n, &p)) != NULL;)
        if (n && len + n + 3 < cap)
            len += (size_t)snprintf(out + len, cap - len, "%s%.*s", len ? ", " : "", (int)n, q);
}

static int type_size(const char *t)
{
    if (!strcmp(t, "pred"))
        return 1;
    int bits = atoi(t + 1);
    if (strchr("usbf", t[0]) && (bits == 8 || bits == 16 || bits == 32 || bits == 64))
        return bits / 8;
    return -1;
}

/* One ".param .align 8 .u64 .ptr .global name[4]"-like declaration (commas already cut). */
static int parse_param(const char *s, size_t len, struct ptxm_param *p, char *msg, size_t cap)
{
    char buf[512], *tok[16];
    int nt = 0;
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    for (char *q = strtok(buf, " \t\r\n"); q && nt < 16; q = strtok(NULL, " \t\r\n"))
        tok[nt++] = q;
    memset(p, 0, sizeof *p);
    if (nt < 2 || strcmp(tok[0], ".param") != 0) {
        say(msg, cap, "cannot read the parameter declaration '%.*s'", (int)(len > 80 ? 80 : len), s);
        return -1;
    }
    for (int i = 1; i < nt; i++) {
        if (tok[i][0] == '.') {
            if (!strcmp(tok[i], ".align") || !strncmp(tok[i], ".ptr", 4))
                continue;
            int sz = type_size(tok[i] + 1);
            if (sz > 0) {
                snprintf(p->type, sizeof p->type, "%s", tok[i] + 1);
                p->size = sz;
            }
        } else if (i == nt - 1) {
            char *br = strchr(tok[i], '[');
            if (br) {
                *br = '\0';
                p->size *= atoi(br + 1);
            }
            snprintf(p->name, sizeof p->name, "%s", tok[i]);
        }
    }
    if (p->size <= 0 || !p->name[0]) {
        say(msg, cap, "cannot read the parameter declaration '%.*s'", (int)(len > 80 ? 80 : len), s);
        return -1;
    }
    return 0;
}

int ptxm_find_entry(const char *ptx, const char *kernel, char *name, size_t name_cap,
                    struct ptxm_param *ps, int max, int *n, char *msg, size_t cap)
{
    const char *hit = NULL;
    int entries = 0;
    *n = 0;
    size_t k;
    for (const char *q, *p = ptx; (q = next_entry(ptx, p, &k, &p)) != NULL;) {
        entries++;
        if (kernel ? (strlen(kernel) == k && !strncmp(q, kernel, k)) : entries == 1) {
            if (!hit)
                hit = q;
            snprintf(name, name_cap, "%.*s", (int)k, q);
        }
    }
    if (entries == 0) {
        say(msg, cap, "the PTX holds no .entry (is it a PTX module?)");
        return -1;
    }
    if (!kernel && entries > 1) {
        char list[400];
        list_entries(ptx, list, sizeof list);
        say(msg, cap, "the module has %d entries: name one with --kernel (%s)", entries, list);
        return -1;
    }
    if (!hit) {
        char list[400];
        list_entries(ptx, list, sizeof list);
        say(msg, cap, "no entry named '%s' in the PTX (its entries: %s)", kernel, list);
        return -1;
    }
    const char *p = hit;
    while (is_ident((unsigned char)*p))
        p++;
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '(')
        return 0; /* no parameter list */
    const char *end = strchr(p, ')');
    if (!end) {
        say(msg, cap, "the parameter list of %s does not end", name);
        return -1;
    }
    for (const char *s = p + 1; s < end;) {
        while (s < end && isspace((unsigned char)*s))
            s++;
        if (s >= end)
            break;
        const char *c = memchr(s, ',', (size_t)(end - s));
        const char *e = c ? c : end;
        if (*n == max) {
            say(msg, cap, "%s has more than %d parameters", name, max);
            return -1;
        }
        if (parse_param(s, (size_t)(e - s), &ps[*n], msg, cap) < 0)
            return -1;
        (*n)++;
        s = c ? c + 1 : end;
    }
    return 0;
}

int ptxm_encode_param(const struct ptxm_param *p, int is_null, const char *text,
                      unsigned char *out, char *msg, size_t cap)
{
    if (is_null) {
        if (p->size != 8) {
            say(msg, cap, "%s is a %d-byte .%s: null (a zero-filled buffer) is for 8-byte "
                "pointer parameters", p->name, p->size, p->type);
            return -1;
        }
        return 0; /* the caller writes the buffer's address */
    }
    if (p->size > 8 || p->type[0] == 'p') {
        say(msg, cap, "%s is a %d-byte .%s: only scalars (and null pointers) can be given",
            p->name, p->size, p->type);
        return -1;
    }
    char *end;
    errno = 0;
    if (p->type[0] == 'f') {
        double d = strtod(text, &end);
        if (*end || !*text) {
            say(msg, cap, "%s is .%s: '%s' is not a number", p->name, p->type, text);
            return -1;
        }
        if (p->size == 4) {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else if (p->size == 8) {
            memcpy(out, &d, 8);
        } else {
            say(msg, cap, "%s is .%s: a half-precision value cannot be given", p->name, p->type);
            return -1;
        }
        return 0;
    }
    int neg = text[0] == '-';
    unsigned long long u;
    long long s;
    if (neg) {
        s = strtoll(text, &end, 0);
        u = (unsigned long long)s;
    } else {
        u = strtoull(text, &end, 0);
        s = (long long)u;
    }
    if (!*text || *end || errno) {
        say(msg, cap, "%s is .%s: '%s' is not an integer", p->name, p->type, text);
        return -1;
    }
    int bits = p->size * 8;
    if (bits < 64) {
        long long lo = p->type[0] == 's' ? -(1LL << (bits - 1)) : 0;
        unsigned long long hi = p->type[0] == 's' ? (1ULL << (bits - 1)) - 1 : (1ULL << bits) - 1;
        /* .b types take either reading */
        if (p->type[0] == 'b')
            lo = -(1LL << (bits - 1));
        if ((neg && s < lo) || (!neg && u > hi)) {
            say(msg, cap, "%s is .%s: %s is out of range", p->name, p->type, text);
            return -1;
        }
    } else if (neg && p->type[0] == 'u') {
        say(msg, cap, "%s is .%s: %s is negative", p->name, p->type, text);
        return -1;
    }
    for (int i = 0; i < p->size; i++) /* little-endian, as the GPU reads it */
        out[i] = (unsigned char)(u >> (8 * i));
    return 0;
}

/* ---- ncu's CSV --------------------------------------------------------------------- */

const char *ptxm_metric_list(void)
{
    return "smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,"
           "smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_inst_executed_op_shared_stsm.sum,"
           "smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_ldgsts.sum,"
           "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,"
           "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,"
           "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,"
           "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum,"
           "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,"
           "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";
}

/* Per kind, the executed and the wavefront metric (names as ncu --query-metrics lists them
 * on an H200 with ncu 2025.3: the executed count of stmatrix is ..._op_shared_stsm, of
 * ldmatrix and LDGSTS ..._op_ldsm and ..._op_ldgsts, without "shared"). */
static const char *const exec_metric[PTXM_NKINDS] = {
    "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_ldsm.sum", "smsp__sass_inst_executed_op_shared_stsm.sum",
    "smsp__sass_inst_executed_op_shared_atom.sum", "smsp__sass_inst_executed_op_ldgsts.sum"};
static const char *const wave_metric[PTXM_NKINDS] = {
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"};

int ptxm_sass_kind(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '@') /* a predicate guard */
        while (*s && *s != ' ' && *s != '\t')
            s++;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strcspn(s, ". \t");
#define IS(op) (n == strlen(op) && !strncmp(s, op, n))
    if (IS("LDS"))
        return PTXM_LD;
    if (IS("STS"))
        return PTXM_ST;
    if (IS("LDSM"))
        return PTXM_LDSM;
    if (IS("STSM"))
        return PTXM_STSM;
    if (IS("ATOMS"))
        return PTXM_ATOM;
    if (IS("LDGSTS"))
        return PTXM_LDGSTS;
#undef IS
    return -1;
}

/* A number as ncu prints it ("1,792", "0", "8.5"); -1 for "-", "n/a" and the like (and so
 * null in the answer). */
static double num(const struct ncu_field *f)
{
    double v;
    return ncu_number(f->s, f->len, &v) ? v : -1;
}

/* The raw page: the first launch's metrics, picked by name; a later launch is not read. */
static int raw_launch(void *ctx, const struct ncu_launch *l)
{
    struct ptxm_result *r = ctx;
    if (l->index > 0)
        return 1;
    for (int k = 0; k < PTXM_NKINDS; k++)
        r->totals[k].executions = r->totals[k].wavefronts = -1;
    r->wavefronts_all = r->ideal_all = -1;
    r->has_raw = 1;
    return 0;
}

static int raw_metric(void *ctx, const struct ncu_launch *l, const struct ncu_cell *m)
{
    struct ptxm_result *r = ctx;
    (void)l;
    for (int k = 0; k < PTXM_NKINDS; k++) {
        if (ncu_field_is(&m->name, exec_metric[k]))
            r->totals[k].executions = num(&m->value);
        else if (ncu_field_is(&m->name, wave_metric[k]))
            r->totals[k].wavefronts = num(&m->value);
    }
    if (ncu_field_is(&m->name, "memory_l1_wavefronts_shared"))
        r->wavefronts_all = num(&m->value);
    else if (ncu_field_is(&m->name, "memory_l1_wavefronts_shared_ideal"))
        r->ideal_all = num(&m->value);
    return 0;
}

int ptxm_parse_raw(const char *csv, struct ptxm_result *r)
{
    struct ncu_csv_sink sink = {r, raw_launch, raw_metric};
    r->has_raw = 0;
    if (ncu_csv_read(csv ? csv : "", &sink, NULL, NULL) != 0)
        r->has_raw = 0; /* no header, or a malformed row: no launch read whole */
    return r->has_raw ? 0 : -1;
}

/* The columns of a Source-page view, found by name in its header row; SASS is the "Source"
 * after "Address" (in cuda,sass the first "Source" is the CUDA line's). */
enum { S_LINE, S_ADDR, S_SASS, S_EXEC, S_THREADS, S_WAVE, S_IDEAL, S_N };
struct src_cols {
    int at[S_N], n;
};

static int read_cols(const struct ncu_row *h, struct src_cols *c)
{
    c->at[S_LINE] = ncu_row_column(h, "Line No");
    c->at[S_ADDR] = ncu_row_column(h, "Address");
    c->at[S_SASS] = c->at[S_ADDR] + 1;
    c->at[S_EXEC] = ncu_row_column(h, "Instructions Executed");
    c->at[S_THREADS] = ncu_row_column(h, "Predicated-On Thread Instructions Executed");
    c->at[S_WAVE] = ncu_row_column(h, "L1 Wavefronts Shared");
    c->at[S_IDEAL] = ncu_row_column(h, "L1 Wavefronts Shared Ideal");
    c->n = h->fields;
    return c->at[S_ADDR] >= 0 && c->at[S_EXEC] >= 0 && c->at[S_WAVE] >= 0 && c->at[S_IDEAL] >= 0
               ? 0
               : -1;
}

/* An instruction row of the table `c` heads: its fields in f, its address in *a; 0, or -1
 * for any other row (another count: a name/value line; an address that is no "0x...": the
 * header again, or ncu's "..." between functions). */
static int instr_row(const struct ncu_row *row, const struct src_cols *c, struct ncu_field *f,
                     unsigned long *a)
{
    char addr[32];
    if (row->fields != c->n)
        return -1;
    ncu_row_pick(row, c->at, S_N, f);
    ncu_field_copy(&f[S_ADDR], addr, sizeof addr);
    if (strncmp(addr, "0x", 2) != 0)
        return -1;
    *a = strtoul(addr, NULL, 16);
    return 0;
}

struct sass_ctx {
    struct src_cols c;
    int have;
    unsigned long base;
    struct ptxm_result *r;
};

static int grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int nc = *cap ? *cap * 2 : 64;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int sass_row(void *vctx, const struct ncu_row *row)
{
    struct sass_ctx *x = vctx;
    struct ncu_field f[S_N];
    unsigned long a;
    if (!x->have) {
        if (ncu_row_column(row, "Address") >= 0 && read_cols(row, &x->c) == 0)
            x->have = 1;
        return 0;
    }
    if (instr_row(row, &x->c, f, &a) < 0)
        return 0;
    if (!x->base) /* the view starts at the function's first instruction */
        x->base = a;
    char text[256];
    ncu_field_copy(&f[S_SASS], text, sizeof text);
    int k = ptxm_sass_kind(text);
    if (k < 0)
        return 0;
    struct ptxm_result *r = x->r;
    if (grow((void **)&r->instrs, &r->instrs_cap, r->ninstrs + 1, sizeof *r->instrs) < 0)
        return -1;
    struct ptxm_instr *in = &r->instrs[r->ninstrs++];
    memset(in, 0, sizeof *in);
    in->pc = a - x->base;
    struct ncu_field sass = f[S_SASS]; /* ncu indents it */
    while (sass.len && *sass.s == ' ')
        sass.s++, sass.at++, sass.len--;
    ncu_field_copy(&sass, in->sass, sizeof in->sass);
    in->kind = k;
    in->executions = num(&f[S_EXEC]);
    in->threads = x->c.at[S_THREADS] >= 0 ? num(&f[S_THREADS]) : -1;
    in->wavefronts = num(&f[S_WAVE]);
    in->ideal = num(&f[S_IDEAL]);
    struct ptxm_counts *t = &r->source_totals[k];
    t->executions += in->executions > 0 ? in->executions : 0;
    t->wavefronts += in->wavefronts > 0 ? in->wavefronts : 0;
    t->ideal += in->ideal > 0 ? in->ideal : 0;
    return 0;
}

/* A header of the CUDA toolkit (device_atomic_functions.hpp and the like). */
static int toolkit_header(const char *path)
{
    return strstr(path, "/targets/") || (strstr(path, "cuda") && strstr(path, "/include/"));
}

struct cs_ctx {
    struct src_cols c;
    int have;
    char file[256];
    int line;
    unsigned long base;
    struct ptxm_result *r;
};

static int cuda_sass_row(void *vctx, const struct ncu_row *row)
{
    struct cs_ctx *x = vctx;
    struct ptxm_result *r = x->r;
    struct ncu_field f[S_N];
    static const int first_two[2] = {0, 1};
    unsigned long a;
    ncu_row_pick(row, first_two, 2, f);
    if (row->fields >= 2 && ncu_field_is(&f[0], "File Path")) {
        ncu_field_copy(&f[1], x->file, sizeof x->file);
        x->have = 0; /* each file's table has its own header */
        return 0;
    }
    if (!x->have) {
        if (ncu_row_column(row, "Line No") >= 0 && read_cols(row, &x->c) == 0)
            x->have = 1;
        return 0;
    }
    /* A line's row is read by its first field alone, whatever its count: a source line
     * with a ',' right after one of its quotes still splits there. */
    if (x->c.at[S_LINE] == 0 && f[0].len && isdigit((unsigned char)f[0].s[0])) {
        char n[16];
        ncu_field_copy(&f[0], n, sizeof n);
        x->line = atoi(n);
        return 0;
    }
    if (instr_row(row, &x->c, f, &a) < 0)
        return 0;
    unsigned long pc = a - x->base;
    for (int i = 0; i < r->ninstrs; i++) {
        struct ptxm_instr *in = &r->instrs[i];
        if (in->pc != pc)
            continue;
        if (in->nat < 4) {
            snprintf(in->at[in->nat].file, sizeof in->at[0].file, "%s", x->file);
            in->at[in->nat++].line = x->line;
        }
        /* inlined code is filed under the header's line and the caller's: prefer the caller */
        if (!in->file[0] || (toolkit_header(in->file) && !toolkit_header(x->file))) {
            snprintf(in->file, sizeof in->file, "%s", x->file);
            in->line = x->line;
        }
        int j;
        for (j = 0; j < r->nlines; j++)
            if (r->lines[j].line == x->line && r->lines[j].kind == in->kind &&
                !strcmp(r->lines[j].file, x->file))
                break;
        if (j == r->nlines) {
            if (grow((void **)&r->lines, &r->lines_cap, r->nlines + 1, sizeof *r->lines) < 0)
                return -1;
            memset(&r->lines[j], 0, sizeof r->lines[j]);
            snprintf(r->lines[j].file, sizeof r->lines[j].file, "%s", x->file);
            r->lines[j].line = x->line;
            r->lines[j].kind = in->kind;
            r->nlines++;
        }
        r->lines[j].c.executions += in->executions > 0 ? in->executions : 0;
        r->lines[j].c.wavefronts += in->wavefronts > 0 ? in->wavefronts : 0;
        r->lines[j].c.ideal += in->ideal > 0 ? in->ideal : 0;
        break;
    }
    return 0;
}

int ptxm_parse_source(const char *sass_csv, const char *cuda_sass_csv, struct ptxm_result *r)
{
    struct sass_ctx sx;
    memset(&sx, 0, sizeof sx);
    sx.r = r;
    memset(r->source_totals, 0, sizeof r->source_totals);
    struct ncu_table_sink ss = {&sx, 1, sass_row};
    if (ncu_table_read(sass_csv ? sass_csv : "", &ss, NULL) < 0 || !sx.have || !sx.base)
        return -1;
    for (int k = 0; k < PTXM_NKINDS; k++)
        r->totals[k].ideal = r->source_totals[k].ideal;
    r->has_source = 1;
    if (cuda_sass_csv) {
        struct cs_ctx *cx = calloc(1, sizeof *cx);
        if (!cx)
            return -1;
        cx->r = r;
        cx->base = sx.base;
        struct ncu_table_sink cs = {cx, 1, cuda_sass_row};
        int rc = ncu_table_read(cuda_sass_csv, &cs, NULL);
        free(cx);
        if (rc < 0)
            return -1;
    }
    return 0;
}

void ptxm_result_free(struct ptxm_result *r)
{
    free(r->lines);
    free(r->instrs);
    r->lines = NULL;
    r->instrs = NULL;
    r->nlines = r->ninstrs = r->lines_cap = r->instrs_cap = 0;
}

/* ---- JSON -------------------------------------------------------------------------- */

void ptxm_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* -1 (ncu gave none) is null in the answer. */
static void jnum(FILE *f, double v)
{
    if (v < 0)
        fputs("null", f);
    else
        fprintf(f, "%.15g", v);
}

static void counts(FILE *f, const struct ptxm_counts *c)
{
    fputs("{\"executions\":", f);
    jnum(f, c->executions);
    fputs(",\"wavefronts\":", f);
    jnum(f, c->wavefronts);
    fputs(",\"ideal\":", f);
    jnum(f, c->ideal);
    fputc('}', f);
}

void ptxm_print_result_json(FILE *f, const struct ptxm_result *r)
{
    const struct ptxm_counts *sets[2] = {r->totals, r->source_totals};
    const char *names[2] = {"totals", "source_totals"};
    for (int s = 0; s < 2; s++) {
        fprintf(f, ",\"%s\":{", names[s]);
        for (int k = 0; k < PTXM_NKINDS; k++) {
            fprintf(f, "%s\"%s\":", k ? "," : "", ptxm_kind_names[k]);
            counts(f, &sets[s][k]);
        }
        fputc('}', f);
    }
    fputs(",\"wavefronts_all\":", f);
    jnum(f, r->wavefronts_all);
    fputs(",\"ideal_all\":", f);
    jnum(f, r->ideal_all);
    fputs(",\"lines\":[", f);
    for (int i = 0; i < r->nlines; i++) {
        const struct ptxm_line *l = &r->lines[i];
        fputs(i ? ",{\"file\":" : "{\"file\":", f);
        ptxm_json_str(f, l->file);
        fprintf(f, ",\"line\":%d,\"kind\":\"%s\",\"executions\":", l->line,
                ptxm_kind_names[l->kind]);
        jnum(f, l->c.executions);
        fputs(",\"wavefronts\":", f);
        jnum(f, l->c.wavefronts);
        fputs(",\"ideal\":", f);
        jnum(f, l->c.ideal);
        fputc('}', f);
    }
    fputs("],\"instructions\":[", f);
    for (int i = 0; i < r->ninstrs; i++) {
        const struct ptxm_instr *in = &r->instrs[i];
        fprintf(f, "%s{\"pc\":%lu,\"sass\":", i ? "," : "", in->pc);
        ptxm_json_str(f, in->sass);
        fprintf(f, ",\"kind\":\"%s\",\"file\":", ptxm_kind_names[in->kind]);
        if (in->file[0])
            ptxm_json_str(f, in->file);
        else
            fputs("null", f);
        fprintf(f, ",\"line\":%d,\"at\":[", in->line);
        for (int j = 0; j < in->nat; j++) {
            fputs(j ? ",[" : "[", f);
            ptxm_json_str(f, in->at[j].file);
            fprintf(f, ",%d]", in->at[j].line);
        }
        fputs("],\"executions\":", f);
        jnum(f, in->executions);
        fputs(",\"threads\":", f);
        jnum(f, in->threads);
        fputs(",\"wavefronts\":", f);
        jnum(f, in->wavefronts);
        fputs(",\"ideal\":", f);
        jnum(f, in->ideal);
        fputc('}', f);
    }
    fputc(']', f);
}
