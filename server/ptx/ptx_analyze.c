/* ptx_analyze.c - entry, rules, run, lines, in that order (ptx_analyze.h);
 * records the placement assumptions every answer relies on.  Must not
 * print or cost anything itself. */
#include "ptx_analyze.h"

#include <string.h>

#include "ptx_rules.h"

int ptx_analyze(struct ptx_module *m, const char *kernel, const struct ptx_launch *l,
                struct ptx_report *r, struct ptx_entry **entry, struct sz_error *err)
{
    struct ptx_entry *e;
    memset(r, 0, sizeof *r);
    if (ptx_parse_entry(m, kernel, &e, err) < 0)
        return -1;
    if (entry)
        *entry = e;
    if (ptx_exec_check(e, l, err) < 0 || ptx_rules_apply(e, l->dynamic_shared, err) < 0 ||
        ptx_cost_init(r, e, err) < 0)
        return -1;
    int statics = 0, dynamic = 0;
    for (int i = 0; i < e->nvars; i++)
        if (e->vars[i].space == PSP_SHARED) {
            statics += !e->vars[i].is_extern;
            dynamic |= e->vars[i].is_extern;
        }
    /* the placement matters only where there is something to place */
    if (statics > 1)
        ptx_cost_note(r, PTX_RULE_PLACE, 0, 0, ptx_rules_text(PTX_RULE_PLACE));
    if (dynamic && statics)
        ptx_cost_note(r, PTX_RULE_DYNAMIC, 0, 0, ptx_rules_text(PTX_RULE_DYNAMIC));
    if (ptx_exec_run(e, l, r, err) < 0)
        return -1;
    /* the inlined-lines rule matters where a shared instruction is inlined code */
    for (uint32_t i = 0; i < r->nsites; i++) {
        int loc = e->insns[r->sites[i].insn].loc;
        if (loc >= 0 && e->locs[loc].at_file) {
            ptx_cost_note(r, PTX_RULE_INLINED, 0, 0, ptx_rules_text(PTX_RULE_INLINED));
            break;
        }
    }
    return ptx_cost_lines(r, e, err);
}
