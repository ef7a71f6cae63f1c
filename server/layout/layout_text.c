/* layout_text.c - the text of a layout, as users paste it: the form table
 * (one row per form: CuTe's print, Triton's #ttg.swizzled_shared and
 * #ttg.nvmma_shared, TMA's tma:CU_TENSOR_MAP_SWIZZLE_*), lay_parse, which
 * picks the row by the text's opener and runs its parse and build on the
 * cursor of cute_text.h (layout_text.h).  The forms' own
 * grammars live in layout_cute.c, layout_triton.c and layout_tma.c; layout.c
 * evaluates what they built. */
#include "base/bits.h"
#include "layout_text.h"

#include <stdio.h>
#include <string.h>

/* ---- the form table ------------------------------------------------------- */

/* Tried in order; the first whose opener the text starts with wins, the row
 * without an opener (CuTe) when none does.  A bare CU_TENSOR_MAP_SWIZZLE_*
 * (as cuTensorMapEncodeTiled's argument is written) is the TMA row's too. */
static const struct lay_form *const forms[] = {
    &lay_form_triton_swizzled,
    &lay_form_triton_nvmma,
    &lay_form_triton_linear,
    &lay_form_triton_padded,
    &lay_form_triton_rotating,
    &lay_form_triton_shared,
    &lay_form_triton_memdesc,
    &lay_form_tma,
    &lay_form_cute,
};

const struct lay_form *const *lay_forms(int *n)
{
    *n = (int)(sizeof forms / sizeof forms[0]);
    return forms;
}

/* ---- lay_parse -------------------------------------------------------------- */

/* The row whose opener the text at the cursor starts with (consumed), the
 * default row when none does; NULL, with the cursor after the dialect, for
 * a Triton encoding no row reads. */
static const struct lay_form *pick(struct cute_cur *c)
{
    cute_ws(c);
    size_t at = c->i;
    const struct lay_form *dflt = NULL;
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        const char *o = forms[k]->opener;
        c->i = at;
        if (o == NULL)
            dflt = forms[k];
        else if (cute_word(c, o) ||
                 (strncmp(o, "#ttg.", 5) == 0 && cute_word(c, "#triton_gpu.") && cute_word(c, o + 5)) ||
                 (strncmp(o, "!ttg.", 5) == 0 && cute_word(c, "!triton_gpu.") && cute_word(c, o + 5)) ||
                 (strncmp(o, "!ttg.", 5) == 0 && cute_word(c, "!tt.") && cute_word(c, o + 5)))
            return forms[k];
    }
    c->i = at;
    if (strncmp(c->s + at, "CU_TENSOR_MAP_SWIZZLE_", 22) == 0)
        return &lay_form_tma;       /* the mode without "tma:": read from its first byte */
    if (cute_word(c, "#ttg.") || cute_word(c, "#triton_gpu."))
        return NULL;
    return dflt;
}

/* "expected swizzled_shared or nvmma_shared": the Triton rows, at the cursor. */
static int unknown_triton(struct cute_cur *c)
{
    char names[200] = "";
    int n = 0, count = 0;
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++)
        count += forms[k]->opener && strncmp(forms[k]->opener, "#ttg.", 5) == 0;
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        const char *o = forms[k]->opener;
        if (o == NULL || strncmp(o, "#ttg.", 5) != 0)
            continue;
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s",
                 n == 0 ? "" : n == count - 1 ? " or " : ", ", o + 5);
        n++;
    }
    return cute_fail(c, c->i, "expected %s", names);
}

/* An error of the text's reading, said of the form that was tried (issue 39
 * item 7: a Triton memdesc read as CuTe got CuTe's "expected an integer"
 * with no word of why CuTe): "read as <label>: <message>", its `at` kept. */
static int tried(struct sz_error *err, const struct lay_form *form)
{
    if (err == NULL || strcmp(err->field, "layout") != 0)
        return -1;
    char msg[sizeof err->message];
    int line = err->line, column = err->column;
    memcpy(msg, err->message, sizeof msg);
    sz_fail(err, err->code, "layout", "read as %s%s: %.*s", form->label,
            form->opener ? "" : " (no tma:, #ttg. or !ttg.memdesc opener)",
            sz_utf8_prec(msg, sizeof msg - 1), msg);
    return line ? sz_set_at(err, line, column) : -1;
}

int lay_parse(const char *text, int element_bits, const uint32_t *shape, int rank,
              struct lay *l, struct sz_error *err)
{
    memset(l, 0, sizeof *l);
    struct cute_cur c = {text, 0, err, "layout", 0};
    if (strlen(text) > LAY_MAX_TEXT)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "longer than %d bytes",
                       LAY_MAX_TEXT);
    if (element_bits && element_bits != 8 && element_bits != 16 && element_bits != 32 &&
        element_bits != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "element_bits", "must be 8, 16, 32 or 64");
    /* 0 until the text has spoken: the row's parse may set it (smem_ptr[Nb],
     * elementBitWidth), or refuse a request that says otherwise */
    l->element_bits = element_bits;
    cute_ws(&c);
    if (c.s[c.i] == '#') {              /* `#shared = #ttg...` names an alias: skip it */
        size_t save = c.i;
        while (c.s[c.i] && c.s[c.i] != '=' && c.s[c.i] != '<')
            c.i++;
        if (c.s[c.i] != '=')
            c.i = save;
        else
            c.i++;
    }
    if ((l->form = pick(&c)) == NULL)
        return unknown_triton(&c);
    if (!l->form->shaped) {
        if (rank)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                           "%s text carries its own shape: leave shape out",
                           l->form->label);
        const struct lay_form *form = l->form;
        return form->parse(&c, l) < 0 ? tried(err, form) : 0;
    }
    if (rank < 1 || rank > LAY_MAX_SHAPED_RANK)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "is required for Triton and TMA layouts: 1 to 3 extents");
    uint64_t size = 1;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 1 || shape[d] > LAY_MAX_SIZE)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "extents must be 1..2^20");
        size *= shape[d];
        l->shape[d] = shape[d];
    }
    if (size > LAY_MAX_SIZE)
        return sz_fail(err, SZ_TOO_LARGE, "shape", "has %llu elements, more than 2^20",
                       (unsigned long long)size);
    l->rank = rank;
    l->size = (uint32_t)size;
    if (l->form->parse(&c, l) < 0)
        return tried(err, l->form);
    if (!l->element_bits)
        l->element_bits = 16;
    if (l->form->build && l->form->build(l, err) < 0)
        return -1;
    if ((uint64_t)l->size * (uint32_t)(l->element_bits / 8) > SZ_OFFSET_LIMIT)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "reaches bytes at or above 2^31");
    return 0;
}
