/* ptx_cost.c - a launch's shared-memory accesses costed and summed: every
 * warp-level access goes through acc_cost, the one model (nothing here counts
 * a bank or a phase itself), and is added to its site, its kind's total and,
 * at the end, its source line.  Must not execute PTX or print. */
#include "ptx_cost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/access.h"

static const char *const kind_names[PK_NKINDS] = {"ld", "st", "ldsm", "stsm", "atom", "ldgsts"};

const char *ptx_cost_kind_name(enum ptx_kind k)
{
    return k < PK_NKINDS ? kind_names[k] : "?";
}

int ptx_cost_init(struct ptx_report *r, const struct ptx_entry *e, struct sz_error *err)
{
    memset(r, 0, sizeof *r);
    r->ninsns = e->ninsns;
    r->site_of = malloc(((size_t)e->ninsns + 1) * sizeof *r->site_of);
    if (!r->site_of)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    for (uint32_t i = 0; i < e->ninsns; i++)
        r->site_of[i] = -1;
    return 0;
}

void ptx_cost_free(struct ptx_report *r)
{
    free(r->sites);
    free(r->site_of);
    free(r->lines);
    memset(r, 0, sizeof *r);
}

static struct ptx_site *site(struct ptx_report *r, uint32_t insn, enum ptx_kind kind)
{
    if (insn >= r->ninsns)
        return NULL;
    if (r->site_of[insn] >= 0 && r->sites[r->site_of[insn]].kind == kind)
        return &r->sites[r->site_of[insn]];
    /* a second kind at one instruction (a CAS loop's load): found by a scan */
    for (uint32_t i = 0; r->site_of[insn] >= 0 && i < r->nsites; i++)
        if (r->sites[i].insn == insn && r->sites[i].kind == kind)
            return &r->sites[i];
    /* sites grow one at a time, in the order first executed; few per kernel */
    struct ptx_site *ns = realloc(r->sites, ((size_t)r->nsites + 1) * sizeof *ns);
    if (!ns)
        return NULL;
    r->sites = ns;
    struct ptx_site *s = &r->sites[r->nsites];
    memset(s, 0, sizeof *s);
    s->insn = insn;
    s->kind = (uint8_t)kind;
    if (r->site_of[insn] < 0)
        r->site_of[insn] = (int32_t)r->nsites;
    r->nsites++;
    return s;
}

int ptx_cost_add(struct ptx_report *r, uint32_t insn, enum ptx_kind kind, const struct instr *in,
                 struct sz_error *err)
{
    struct ptx_site *s = site(r, insn, kind);
    if (!s)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory costing the accesses");
    s->count.source_executions++;
    r->totals[kind].source_executions++;
    int any = 0;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        any |= in->offsets[t] != INSTR_INACTIVE;
    if (!any)
        return 0;
    s->count.executions++;
    r->totals[kind].executions++;
    if (instr_check(in, err) < 0)
        return -1;
    struct acc_result res;
    acc_cost(in, &res);
    /* Nsight Compute's Source page and its sass metrics count source wavefronts */
    s->count.wavefronts += res.source_wavefronts;
    s->count.ideal += res.ideal_wavefronts;
    r->totals[kind].wavefronts += res.source_wavefronts;
    r->totals[kind].ideal += res.ideal_wavefronts;
    uint32_t excess = res.source_wavefronts > res.ideal_wavefronts
                          ? res.source_wavefronts - res.ideal_wavefronts : 0;
    if (!s->has_worst || excess > s->worst_wavefronts - s->worst_ideal) {
        s->has_worst = 1;
        s->worst = *in;
        s->worst_wavefronts = res.source_wavefronts;
        s->worst_ideal = res.ideal_wavefronts;
    }
    return 0;
}

void ptx_cost_note(struct ptx_report *r, int rule, int text_line, int unsure, const char *text)
{
    for (int i = 0; i < r->nnotes; i++)
        if (r->notes[i].rule == rule && r->notes[i].text_line == text_line &&
            strncmp(r->notes[i].text, text, sizeof r->notes[i].text - 1) == 0)
            return;
    if (r->nnotes >= PTX_MAX_NOTES) {
        r->notes_dropped++;
        /* an unsure point must not vanish: the last slot says so */
        if (unsure)
            r->notes[PTX_MAX_NOTES - 1].unsure = 1;
        return;
    }
    struct ptx_note *n = &r->notes[r->nnotes++];
    n->rule = rule;
    n->text_line = text_line;
    n->unsure = unsure;
    snprintf(n->text, sizeof n->text, "%s", text);
}

int ptx_cost_exact(const struct ptx_report *r)
{
    if (r->partial)
        return 0;
    for (int i = 0; i < r->nnotes; i++)
        if (r->notes[i].unsure)
            return 0;
    return 1;
}

static int by_excess(const void *a, const void *b)
{
    const struct ptx_line *x = a, *y = b;
    if (x->excess != y->excess)
        return x->excess < y->excess ? 1 : -1;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (int)x->kind - (int)y->kind;
}

/* The row of (file, line, kind) in r->lines, added when new. */
static struct ptx_line *line_row(struct ptx_report *r, int file, int line, uint8_t kind)
{
    uint32_t k = 0;
    while (k < r->nlines && !(r->lines[k].file == file && r->lines[k].line == line &&
                              r->lines[k].kind == kind))
        k++;
    struct ptx_line *ln = &r->lines[k];
    if (k == r->nlines) {
        r->nlines++;
        ln->file = file;
        ln->line = line;
        ln->kind = kind;
    }
    return ln;
}

static void line_add(struct ptx_line *ln, const struct ptx_count *c)
{
    ln->count.executions += c->executions;
    ln->count.source_executions += c->source_executions;
    ln->count.wavefronts += c->wavefronts;
    ln->count.ideal += c->ideal;
}

/* Whether instruction i lies inside a loop: a backward branch spans it. */
static int in_loop(const struct ptx_entry *e, uint32_t i)
{
    for (uint32_t j = i; j < e->ninsns; j++) {
        const struct ptx_insn *b = &e->insns[j];
        if (b->oc.op == OP_BRA && b->nops == 1 && e->opnds[b->ops].kind == PO_LABEL &&
            e->opnds[b->ops].reg >= 0 && (uint32_t)e->opnds[b->ops].reg <= i)
            return 1;
    }
    return 0;
}

int ptx_cost_lines(struct ptx_report *r, const struct ptx_entry *e, struct sz_error *err)
{
    free(r->lines);
    r->lines = calloc(2 * (size_t)r->nsites + 1, sizeof *r->lines);
    r->nlines = 0;
    if (!r->lines)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    for (uint32_t i = 0; i < r->nsites; i++) {
        const struct ptx_site *s = &r->sites[i];
        int l = e->insns[s->insn].loc;
        struct ptx_loc loc = l >= 0 ? e->locs[l] : (struct ptx_loc){0, 0, 0, 0};
        struct ptx_line *ln = line_row(r, loc.file, loc.line, s->kind);
        ln->at_file = loc.at_file;
        ln->at_line = loc.at_line;
        line_add(ln, &s->count);
        /* inlined: the caller's line too, where the Source page files it
         * (PTX_RULE_INLINED: inside a loop, the CAS loop ptxas makes included) */
        if (loc.at_file && (in_loop(e, s->insn) || (e->insns[s->insn].rule & PTX_R_CAS)))
            line_add(line_row(r, loc.at_file, loc.at_line, s->kind), &s->count);
    }
    for (uint32_t k = 0; k < r->nlines; k++)
        r->lines[k].excess = r->lines[k].count.wavefronts - r->lines[k].count.ideal;
    qsort(r->lines, r->nlines, sizeof *r->lines, by_excess);
    return 0;
}
