/* instr_json.c - the instruction-kind table as JSON (instr_json.h), built
 * with cJSON from instr_kinds[] alone: a new row appears here, in
 * GET /api/ops and in the tool's --info without an edit. */
#include "instr_json.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/instr.h"

/* [n for each bit n of set]: the allowed widths or .xN. */
static cJSON *set_array(uint32_t set)
{
    cJSON *a = cJSON_CreateArray();
    for (int n = 0; a && n < 32; n++)
        if (set >> n & 1)
            cJSON_AddItemToArray(a, cJSON_CreateNumber(n));
    return a;
}

static void add_name(cJSON *obj, const char *key, const char *s)
{
    cJSON_AddItemToObject(obj, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

static cJSON *kind_json(const struct instr_kind *k)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_name(o, "name", k->name);
    add_name(o, "ptx", k->ptx);
    add_name(o, "label", k->label);
    add_name(o, "short_name", k->short_name);
    add_name(o, "sass", k->sass);
    cJSON_AddBoolToObject(o, "load", (k->flags & INSTR_F_LOAD) != 0);
    cJSON_AddBoolToObject(o, "store", (k->flags & INSTR_F_STORE) != 0);
    cJSON_AddBoolToObject(o, "matrix", (k->flags & INSTR_F_MATRIX) != 0);
    cJSON_AddBoolToObject(o, "atomic", (k->flags & INSTR_F_ATOMIC) != 0);
    cJSON_AddBoolToObject(o, "async", (k->flags & INSTR_F_ASYNC) != 0);
    cJSON *ops = cJSON_AddArrayToObject(o, "operands");
    for (int i = 0; ops && i < INSTR_NOPERANDS; i++)
        if (k->operands >> i & 1)
            cJSON_AddItemToArray(ops, cJSON_CreateString(instr_operand_name(1u << i)));
    cJSON_AddItemToObject(o, "widths", set_array(k->widths));
    cJSON_AddNumberToObject(o, "default_bytes", k->default_bytes);
    cJSON_AddItemToObject(o, "matrices", set_array(k->matrices));
    cJSON_AddNumberToObject(o, "default_matrices", k->default_matrices);
    if (k->min_cc) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", k->min_cc / 10, k->min_cc % 10);
        cJSON_AddStringToObject(o, "min_cc", cc);
    } else {
        cJSON_AddNullToObject(o, "min_cc");
    }
    cJSON_AddNumberToObject(o, "smem_spare", k->smem_spare);
    cJSON *n = cJSON_AddObjectToObject(o, "ncu");
    if (n) {
        add_name(n, "source", k->ncu.source);
        add_name(n, "wavefronts", k->ncu.wavefronts);
        add_name(n, "conflicts", k->ncu.conflicts);
        add_name(n, "executed", k->ncu.executed);
        add_name(n, "sass_executed", k->ncu.sass_executed);
    }
    return o;
}

int instr_json_kinds(char **out, struct sz_error *err)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *ops = cJSON_AddArrayToObject(root, "ops");
    cJSON *funcs = cJSON_AddArrayToObject(root, "funcs");
    cJSON *types = cJSON_AddArrayToObject(root, "types");
    for (int k = 0; ops && k < INSTR_NOPS; k++)
        cJSON_AddItemToArray(ops, kind_json(&instr_kinds[k]));
    for (int f = 0; funcs && f < INSTR_NFUNCS; f++)
        cJSON_AddItemToArray(funcs, cJSON_CreateString(instr_func_name((enum instr_func)f)));
    for (int t = 0; types && t < INSTR_NTYPES; t++)
        cJSON_AddItemToArray(types, cJSON_CreateString(instr_type_name((enum instr_type)t)));
    *out = root ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!*out)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory writing the instruction kinds");
    return 0;
}
