/* ptx_main.c - swizzlescope-ptx: a kernel's PTX and its launch on the command
 * line, every shared-memory instruction costed per source line as Nsight
 * Compute counts it, no GPU needed; exits 1 when the excess wavefronts pass
 * --max-excess (a bank-conflict check for CI), 2 on bad input.  The only
 * file of the command that reads a file or prints; the analysis is ptx/. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/ptx_json.h"
#include "base/buf.h"
#include "ptx/ptx_analyze.h"
#include "ptx/ptx_rules.h"

#define MAX_PARAMS 256

static void usage(FILE *f)
{
    fputs("usage: swizzlescope-ptx FILE.ptx [--kernel NAME] --block X[,Y[,Z]] [--grid X[,Y[,Z]]]\n"
          "                        [--param V|null ...] [--dynamic-shared N] [--global-bytes N]\n"
          "                        [--budget N] [--max-excess N] [--json]\n"
          "\n"
          "Runs one kernel of a PTX module (nvcc -O3 -lineinfo -ptx) over its launch and prints\n"
          "every source line's shared-memory executions, wavefronts, ideal wavefronts and\n"
          "excess (bank conflicts), as Nsight Compute's Source page counts them, and the totals.\n"
          "  --kernel NAME      the entry (mangled); optional when the module has one\n"
          "  --param V|null     one per parameter, in order: a number (decimal, 0x hex, or a\n"
          "                     float for an .f32/.f64 parameter), or null: a pointer given its\n"
          "                     own zero-filled global buffer.  None at all: every .u64/.b64\n"
          "                     parameter null, the others 0\n"
          "  --global-bytes N   each null pointer's buffer (default 1 MiB)\n"
          "  --budget N         lane-instructions before the run stops, marked partial\n"
          "  --max-excess N     exit 1 when the launch's excess wavefronts pass N\n"
          "  --json             POST /api/ptx's answer instead of the table\n"
          "Exit status: 0 done, 1 over --max-excess, 2 bad input or a kernel fault.\n", f);
}

static int read_file(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "swizzlescope-ptx: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fprintf(stderr, "swizzlescope-ptx: out of memory\n");
            return -1;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (cap > PTX_MAX_TEXT) {
            fclose(f);
            free(buf);
            fprintf(stderr, "swizzlescope-ptx: %s is over %u bytes\n", path, PTX_MAX_TEXT);
            return -1;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    *out = buf;
    *len = n;
    return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *v = x;
    return 0;
}

static int parse_dims(const char *s, uint32_t d[3])
{
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || end == s || v == 0 || v > 0x7fffffffu || s[0] == '-')
            return -1;
        d[k] = (uint32_t)v;
        if (*end == '\0')
            return 0;
        if (*end != ',' || k == 2)
            return -1;
        s = end + 1;
    }
    return 0;
}

/* A --param value for parameter p: an integer, or a float for .f32/.f64. */
static int param_value(const char *s, const struct ptx_var *p, uint64_t *v)
{
    char *end;
    errno = 0;
    if (p->type == PT_F32 || p->type == PT_F64) {
        double d = strtod(s, &end);
        if (errno || end == s || *end)
            return -1;
        if (p->type == PT_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *v = u;
        } else {
            memcpy(v, &d, 8);
        }
        return 0;
    }
    long long x = strtoll(s, &end, 0);
    if (errno == ERANGE && s[0] != '-') {
        errno = 0;
        *v = strtoull(s, &end, 0);
    } else {
        *v = (uint64_t)x;
    }
    return errno || end == s || *end ? -1 : 0;
}

static const char *file_name(const struct ptx_module *m, int file)
{
    const char *f = ptx_parse_file(m, file), *slash = strrchr(f, '/');
    return slash ? slash + 1 : f;
}

static void print_report(const struct ptx_module *m, const struct ptx_entry *e,
                         const struct ptx_launch *l, const struct ptx_report *r)
{
    printf("kernel %s  block %ux%ux%u  grid %ux%ux%u  dynamic shared %llu B\n", e->name,
           l->block[0], l->block[1], l->block[2], l->grid[0], l->grid[1], l->grid[2],
           (unsigned long long)l->dynamic_shared);
    printf("%llu blocks run, %llu lane-instructions, %llu warp-instructions\n\n",
           (unsigned long long)r->blocks_run, (unsigned long long)r->lane_insns,
           (unsigned long long)r->warp_insns);
    /* the Source page's columns: executions count a warp whose lanes were all
     * predicated off */
    printf("%-32s %-6s %12s %12s %12s %12s\n", "file:line", "kind", "executions", "wavefronts",
           "ideal", "excess");
    for (uint32_t i = 0; i < r->nlines; i++) {
        const struct ptx_line *ln = &r->lines[i];
        char where[160];
        if (ln->line)
            snprintf(where, sizeof where, "%s:%d", file_name(m, ln->file), ln->line);
        else
            snprintf(where, sizeof where, "(no .loc)");
        printf("%-32s %-6s %12llu %12llu %12llu %12llu", where, ptx_cost_kind_name(ln->kind),
               (unsigned long long)ln->count.source_executions,
               (unsigned long long)ln->count.wavefronts,
               (unsigned long long)ln->count.ideal, (unsigned long long)ln->excess);
        if (ln->at_file)
            printf("  (inlined at %s:%d)", file_name(m, ln->at_file), ln->at_line);
        putchar('\n');
    }
    printf("\ntotals (executions: warps with a lane on, as smsp__sass_inst_executed_op_*)\n");
    for (int k = 0; k < PK_NKINDS; k++) {
        const struct ptx_count *c = &r->totals[k];
        if (!c->source_executions)
            continue;
        printf("  %-6s executions %llu (Source page %llu)  wavefronts %llu  ideal %llu  "
               "excess %llu\n", ptx_cost_kind_name(k), (unsigned long long)c->executions,
               (unsigned long long)c->source_executions,
               (unsigned long long)c->wavefronts, (unsigned long long)c->ideal,
               (unsigned long long)(c->wavefronts - c->ideal));
    }
    printf("\nexact: %s\n", ptx_cost_exact(r) ? "yes" : "no");
    if (r->partial)
        printf("partial: %s\n", r->stopped);
    for (int pass = 0; pass < 2; pass++) {
        int any = 0;
        for (int i = 0; i < r->nnotes; i++) {
            const struct ptx_note *n = &r->notes[i];
            if (n->unsure != (pass == 0))
                continue;
            if (!any++)
                printf("%s\n", pass == 0 ? "unsure:" : "assumptions:");
            if (n->text_line)
                printf("  PTX line %d: %s\n", n->text_line, n->text);
            else
                printf("  %s\n", n->text);
        }
    }
    if (r->notes_dropped)
        printf("  (%d more notes left out)\n", r->notes_dropped);
}

int main(int argc, char **argv)
{
    const char *path = NULL, *kernel = NULL, *pvals[MAX_PARAMS];
    int npv = 0, json = 0;
    long long max_excess = -1;
    struct ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    int have_block = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (a[0] == '-' && a[1] == '-' && !v) {
            fprintf(stderr, "swizzlescope-ptx: %s needs a value\n", a);
            return 2;
        } else if (!strcmp(a, "--kernel")) {
            kernel = argv[++i];
        } else if (!strcmp(a, "--block")) {
            bad = parse_dims(argv[++i], l.block);
            have_block = 1;
        } else if (!strcmp(a, "--grid")) {
            bad = parse_dims(argv[++i], l.grid);
        } else if (!strcmp(a, "--param")) {
            if (npv == MAX_PARAMS) {
                fprintf(stderr, "swizzlescope-ptx: at most %d --param\n", MAX_PARAMS);
                return 2;
            }
            pvals[npv++] = argv[++i];
        } else if (!strcmp(a, "--dynamic-shared")) {
            bad = parse_u64(argv[++i], &l.dynamic_shared);
        } else if (!strcmp(a, "--global-bytes")) {
            bad = parse_u64(argv[++i], &l.global_bytes);
        } else if (!strcmp(a, "--budget")) {
            bad = parse_u64(argv[++i], &l.budget);
        } else if (!strcmp(a, "--max-excess")) {
            uint64_t x;
            bad = parse_u64(argv[++i], &x) || x > (1ull << 62);
            max_excess = (long long)x;
        } else if (a[0] == '-') {
            fprintf(stderr, "swizzlescope-ptx: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "swizzlescope-ptx: one PTX file, got %s and %s\n", path, a);
            return 2;
        }
        if (bad) {
            fprintf(stderr, "swizzlescope-ptx: bad value for %s: %s\n", a, argv[i]);
            return 2;
        }
    }
    if (!path || !have_block) {
        usage(stderr);
        return 2;
    }
    char *text;
    size_t len;
    if (read_file(path, &text, &len) < 0)
        return 2;
    struct ptx_module m;
    struct sz_error err;
    memset(&err, 0, sizeof err);
    int rc = 2;
    uint64_t params[MAX_PARAMS];
    uint8_t nulls[MAX_PARAMS];
    struct ptx_report r;
    memset(&r, 0, sizeof r);
    struct ptx_entry *e = NULL;
    if (ptx_parse(text, len, &m, &err) < 0)
        goto fail;
    if (ptx_parse_entry(&m, kernel, &e, &err) < 0)
        goto fail;
    if (e->nparams > MAX_PARAMS) {
        fprintf(stderr, "swizzlescope-ptx: the entry has over %d parameters\n", MAX_PARAMS);
        goto out;
    }
    if (npv == 0) {
        for (int i = 0; i < e->nparams; i++) {
            params[i] = 0;
            nulls[i] = e->params[i].type == PT_U64 || e->params[i].type == PT_B64 ||
                       e->params[i].type == PT_S64;
        }
    } else if (npv != e->nparams) {
        fprintf(stderr, "swizzlescope-ptx: %s takes %d parameters, got %d --param\n", e->name,
                e->nparams, npv);
        goto out;
    } else {
        for (int i = 0; i < npv; i++) {
            nulls[i] = !strcmp(pvals[i], "null");
            params[i] = 0;
            if (!nulls[i] && param_value(pvals[i], &e->params[i], &params[i]) < 0) {
                fprintf(stderr, "swizzlescope-ptx: --param %d (%s): not a number or null: %s\n",
                        i + 1, e->params[i].name, pvals[i]);
                goto out;
            }
        }
    }
    l.nparams = e->nparams;
    l.params = params;
    l.param_null = nulls;
    if (ptx_analyze(&m, e->name, &l, &r, &e, &err) < 0)
        goto fail;
    if (json) {     /* POST /api/ptx's answer, written by the same code */
        struct buf out = {0};
        ptx_json_answer(&out, &m, e, &l, &r, NULL, NULL);
        if (out.oom) {
            fprintf(stderr, "swizzlescope-ptx: out of memory\n");
            buf_free(&out);
            goto out;
        }
        fwrite(out.p, 1, out.len, stdout);
        putchar('\n');
        buf_free(&out);
    } else {
        print_report(&m, e, &l, &r);
    }
    rc = 0;
    if (max_excess >= 0) {
        uint64_t excess = 0;
        for (int k = 0; k < PK_NKINDS; k++)
            excess += r.totals[k].wavefronts - r.totals[k].ideal;
        if (excess > (uint64_t)max_excess) {
            fprintf(json ? stderr : stdout, "\nexcess wavefronts %llu > --max-excess %lld\n",
                    (unsigned long long)excess, max_excess);
            rc = 1;
        }
    }
    goto out;
fail:
    if (err.line)
        fprintf(stderr, "%s:%d:%d: %s: %s\n", path, err.line, err.column, sz_code_name(err.code),
                err.message);
    else
        fprintf(stderr, "%s: %s (%s): %s\n", path, sz_code_name(err.code),
                err.field[0] ? err.field : "-", err.message);
out:
    ptx_cost_free(&r);
    ptx_module_free(&m);
    free(text);
    return rc;
}
