/* ptx_check.h - the PTX tests' one way to run a text: parse it, analyse one
 * launch (every pointer parameter null, the others given), keep the report
 * and the first buffer.  Header-only; the caller frees with ptx_check_free. */
#ifndef SZ_PTX_CHECK_H
#define SZ_PTX_CHECK_H

#include <string.h>

#include "ptx/ptx_analyze.h"

struct ptx_check {
    struct ptx_module m;
    struct ptx_report r;
    struct ptx_entry *e;
    struct sz_error err;
    uint32_t out[4096];     /* the first pointer's buffer, as 32-bit words */
};

/* Run `text`'s only entry on block (bx, by, 1), grid (gx, 1, 1); every .u64
 * parameter is a null pointer, the others take vals[] in order.  0 or -1
 * (err filled). */
static int ptx_check_run(struct ptx_check *c, const char *text, uint32_t bx, uint32_t by,
                         uint32_t gx, const uint64_t *vals, uint64_t budget)
{
    memset(c, 0, sizeof *c);
    if (ptx_parse(text, strlen(text), &c->m, &c->err) < 0)
        return -1;
    uint64_t params[16] = {0};
    uint8_t nulls[16] = {0};
    struct ptx_entry *e = &c->m.entries[0];
    for (int i = 0, v = 0; i < e->nparams && i < 16; i++) {
        nulls[i] = e->params[i].type == PT_U64;
        if (!nulls[i])
            params[i] = vals ? vals[v++] : 0;
    }
    struct ptx_launch l = {{bx, by, 1}, {gx, 1, 1}, e->nparams, params, nulls, 0, 1 << 16,
                           budget, (uint8_t *)c->out, sizeof c->out};
    return ptx_analyze(&c->m, NULL, &l, &c->r, &c->e, &c->err);
}

static void ptx_check_free(struct ptx_check *c)
{
    ptx_cost_free(&c->r);
    ptx_module_free(&c->m);
}

/* The site of the n-th shared instruction of kind k in program order, or NULL. */
static const struct ptx_site *ptx_check_site(const struct ptx_check *c, enum ptx_kind k, int n)
{
    for (uint32_t i = 0; c->e && c->r.site_of && i < c->e->ninsns; i++) {
        int32_t s = c->r.site_of[i];
        if (s >= 0 && c->r.sites[s].kind == k && n-- == 0)
            return &c->r.sites[s];
    }
    return NULL;
}

/* Whether some note's text holds `needle` (and is unsure when unsure is 1). */
static int ptx_check_note(const struct ptx_check *c, const char *needle, int unsure)
{
    for (int i = 0; i < c->r.nnotes; i++)
        if (strstr(c->r.notes[i].text, needle) && (unsure < 0 || c->r.notes[i].unsure == unsure))
            return 1;
    return 0;
}

#endif
