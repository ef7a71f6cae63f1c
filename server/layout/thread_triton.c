/* thread_triton.c - the thread-form row for Triton's distributed encodings
 * (#ttg.blocked, #ttg.slice, #ttg.nvidia_mma, #ttg.dot_op, #ttg.amd_mfma,
 * #ttg.linear, a printed LinearLayout): triton_dist.c reads the text and
 * gives its bases; this file only recognizes the text and copies the bases
 * into a thread layout, beside the other rows (thread.c, thread_cute.c). */
#include <stdio.h>
#include <string.h>

#include "thread.h"
#include "triton/triton_dist.h"

/* Text that opens with a distributed encoding's name (aliases have no lines
 * to resolve here: the encoding is written inline). */
static int triton_match(const char *text)
{
    static const char *const names[] = {"blocked<", "slice<", "nvidia_mma<", "dot_op<",
                                        "amd_mfma<", "linear<"};
    static const char *const prefixes[] = {"#ttg.", "#triton_gpu."};
    while (*text == ' ' || *text == '\t' || *text == '\n')
        text++;
    if (strncmp(text, "DistributedLinearLayout(", 24) == 0 || strstr(text, "where out dims are:"))
        return 1;
    for (int i = 0; i < 2; i++) {
        size_t k = strlen(prefixes[i]);
        if (strncmp(text, prefixes[i], k) == 0)
            for (int j = 0; j < 6; j++)
                if (strncmp(text + k, names[j], strlen(names[j])) == 0)
                    return 1;
    }
    return 0;
}

#define TD_ROW_NODES 384        /* one encoding, parents inline */

static int triton_parse(const char *text, const struct thr_ctx *ctx, struct thr *t,
                        struct sz_error *err)
{
    struct ta_node nodes[TD_ROW_NODES];
    struct ta_parser p;
    struct td_layout l;
    int64_t shape[TLL_MAX_RANK];
    for (int i = 0; i < ctx->rank; i++)
        shape[i] = ctx->shape[i];
    ta_use(&p, nodes, TD_ROW_NODES, NULL, 0);
    if (triton_dist_layout(&p, text, NULL, shape, ctx->rank, &l, err) < 0) {
        if (strcmp(err->field, "layout") == 0)
            snprintf(err->field, sizeof err->field, "%s", ctx->field);
        return -1;
    }
    for (int in = 0; in < TLL_NIN; in++)
        if (l.n[in] > THR_MAX_BASES)
            return sz_fail(err, SZ_INVALID_ARGUMENT, ctx->field,
                           "%d %s bases: at most %d", l.n[in], in == TLL_REGISTER ? "register"
                           : in == TLL_LANE ? "lane" : in == TLL_WARP ? "warp" : "block",
                           THR_MAX_BASES);
    t->kind = THR_BASES;
    t->rank = l.rank;
    t->lanes = l.lanes;
    for (int in = 0; in < TLL_NIN; in++) {
        t->n[in] = l.n[in];
        for (int i = 0; i < l.n[in]; i++)
            for (int d = 0; d < l.rank; d++)
                t->basis[in][i][d] = (uint32_t)l.b[in][i][d];
    }
    t->name = l.encoding;
    return 0;
}

const struct thr_form thr_form_triton = {
    .name = "triton",
    .match = triton_match,
    .parse = triton_parse,
};
