/* ptx_json.c - the PTX analysis's answer as JSON (ptx_json.h): totals per
 * kind with both execution counts, lines, instructions with their worst warp
 * access, exact, unsure points and assumptions.  Writes with buf.c only (no
 * cJSON: the command links it without the JSON library); reads no request. */
#include "ptx_json.h"

#include <stdio.h>
#include <string.h>

#include "model/access.h"
#include "ptx/ptx_demangle.h"

static void put_count(struct buf *out, const struct ptx_count *c, int source_only)
{
    if (source_only)
        buf_printf(out, "\"executions\":%llu,", (unsigned long long)c->source_executions);
    else
        buf_printf(out, "\"executions\":%llu,\"source_executions\":%llu,",
                   (unsigned long long)c->executions, (unsigned long long)c->source_executions);
    buf_printf(out, "\"wavefronts\":%llu,\"ideal\":%llu,\"excess\":%llu",
               (unsigned long long)c->wavefronts, (unsigned long long)c->ideal,
               (unsigned long long)(c->wavefronts - c->ideal));
}

static void put_file(struct buf *out, const struct ptx_module *m, int file)
{
    char name[256];
    const char *f = ptx_parse_file(m, file);
    size_t n = sz_utf8_cut(f, strlen(f) < sizeof name - 1 ? strlen(f) : sizeof name - 1);
    memcpy(name, f, n);
    name[n] = '\0';
    buf_json_str(out, name);
}

/* One site's worst warp access: its lanes' offsets and banks. */
static void put_worst(struct buf *out, const struct ptx_site *s)
{
    if (!s->has_worst) {
        buf_puts(out, "null");
        return;
    }
    struct acc_result r;
    acc_cost(&s->worst, &r);
    buf_printf(out, "{\"op\":\"%s\",\"bytes\":%u,\"wavefronts\":%u,\"ideal\":%u,\"offsets\":[",
               instr_op_name(s->worst.op), instr_lane_bytes(&s->worst), s->worst_wavefronts,
               s->worst_ideal);
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        if (t)
            buf_putc(out, ',');
        if (s->worst.offsets[t] == INSTR_INACTIVE)
            buf_puts(out, "null");
        else
            buf_printf(out, "%u", s->worst.offsets[t]);
    }
    buf_puts(out, "],\"banks\":[");
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        if (t)
            buf_putc(out, ',');
        if (r.lane_phase[t] < 0)
            buf_puts(out, "null");
        else
            buf_printf(out, "%u", r.lane_bank[t]);
    }
    buf_puts(out, "]}");
}

/* Line `line` (1-based) of src's text as a JSON string, "" past its end. */
static void put_source_line(struct buf *out, const char *text, int line)
{
    const char *p = text;
    for (int k = 1; k < line && p; k++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    char s[512];
    size_t n = 0;
    if (p) {
        const char *eol = strchr(p, '\n');
        n = eol ? (size_t)(eol - p) : strlen(p);
        if (n && p[n - 1] == '\r')
            n--;
        n = sz_utf8_cut(p, n < sizeof s - 1 ? n : sizeof s - 1);
        memcpy(s, p, n);
    }
    s[n] = '\0';
    buf_json_str(out, s);
}

/* "function": the entry's own name, and "params": each .param's name, PTX
 * type and bytes, with its C++ type from the mangled name (null where the
 * name says none: extern "C", or a form the demangler lacks), so that a page
 * builds a launch field per parameter whether it was given PTX or CUDA. */
static void put_params(struct buf *out, const struct ptx_entry *e)
{
    char types[64][PTX_DEMANGLE_TYPE];
    char plain[PTX_DEMANGLE_TYPE];
    int n = 0;
    int typed = ptx_demangle_params(e->name, types, 64, &n) == 0 && n == e->nparams;
    buf_puts(out, "\"function\":");
    buf_json_str(out, ptx_demangle_name(e->name, plain, sizeof plain) == 0 ? plain : e->name);
    buf_puts(out, ",\"params\":[");
    for (int i = 0; i < e->nparams; i++) {
        buf_puts(out, i ? ",{\"name\":" : "{\"name\":");
        buf_json_str(out, e->params[i].name);
        buf_printf(out, ",\"type\":\"%s\",\"bytes\":%llu,\"c_type\":",
                   ptx_op_type_name(e->params[i].type), (unsigned long long)e->params[i].size);
        if (typed)
            buf_json_str(out, types[i]);
        else
            buf_puts(out, "null");
        buf_putc(out, '}');
    }
    buf_putc(out, ']');
}

void ptx_json_answer(struct buf *out, const struct ptx_module *m, const struct ptx_entry *e,
                     const struct ptx_launch *l, const struct ptx_report *r,
                     const struct ptx_json_source *src, const char *more)
{
    buf_puts(out, "{\"kernel\":");
    buf_json_str(out, e->name);
    buf_printf(out, ",\"block\":[%u,%u,%u],\"grid\":[%u,%u,%u],\"dynamic_shared\":%llu,",
               l->block[0], l->block[1], l->block[2], l->grid[0], l->grid[1], l->grid[2],
               (unsigned long long)l->dynamic_shared);
    put_params(out, e);
    buf_puts(out, ",\"totals\":{");
    for (int k = 0, n = 0; k < PK_NKINDS; k++) {
        if (!r->totals[k].source_executions)
            continue;
        buf_printf(out, "%s\"%s\":{", n++ ? "," : "", ptx_cost_kind_name(k));
        put_count(out, &r->totals[k], 0);
        buf_putc(out, '}');
    }
    buf_puts(out, "},\"lines\":[");
    for (uint32_t i = 0; i < r->nlines; i++) {
        const struct ptx_line *ln = &r->lines[i];
        buf_puts(out, i ? ",{\"file\":" : "{\"file\":");
        put_file(out, m, ln->file);
        buf_printf(out, ",\"line\":%d,\"kind\":\"%s\",", ln->line, ptx_cost_kind_name(ln->kind));
        put_count(out, &ln->count, 1);
        if (src && !strcmp(ptx_parse_file(m, ln->file), src->name)) {
            buf_puts(out, ",\"source\":");
            put_source_line(out, src->text, ln->line);
        }
        if (ln->at_file) {
            buf_puts(out, ",\"inlined_at\":{\"file\":");
            put_file(out, m, ln->at_file);
            buf_printf(out, ",\"line\":%d}", ln->at_line);
        }
        buf_putc(out, '}');
    }
    buf_puts(out, "],\"instructions\":[");
    for (uint32_t i = 0; i < r->nsites; i++) {
        const struct ptx_site *s = &r->sites[i];
        const struct ptx_insn *in = &e->insns[s->insn];
        char op[64];
        int n = in->oc.name_len > 60 ? 60 : in->oc.name_len;
        snprintf(op, sizeof op, "%.*s", n, e->text + in->oc.name_off);
        buf_printf(out, "%s{\"ptx_line\":%d,\"opcode\":", i ? "," : "", in->text_line);
        buf_json_str(out, op);
        /* its source line, as "lines" files it: a client opens a line's instructions */
        int loc = in->loc;
        buf_puts(out, ",\"file\":");
        put_file(out, m, loc >= 0 ? e->locs[loc].file : 0);
        buf_printf(out, ",\"line\":%d", loc >= 0 ? e->locs[loc].line : 0);
        buf_printf(out, ",\"kind\":\"%s\",", ptx_cost_kind_name(s->kind));
        put_count(out, &s->count, 0);
        buf_puts(out, ",\"worst\":");
        put_worst(out, s);
        buf_putc(out, '}');
    }
    buf_printf(out, "],\"exact\":%s,\"partial\":%s,\"stopped\":",
               ptx_cost_exact(r) ? "true" : "false", r->partial ? "true" : "false");
    if (r->partial)
        buf_json_str(out, r->stopped);
    else
        buf_puts(out, "null");
    for (int pass = 0; pass < 2; pass++) {
        buf_puts(out, pass ? "],\"assumptions\":[" : ",\"unsure\":[");
        for (int i = 0, n = 0; i < r->nnotes; i++) {
            const struct ptx_note *note = &r->notes[i];
            if (note->unsure != !pass)
                continue;
            buf_printf(out, "%s{\"ptx_line\":", n++ ? "," : "");
            if (note->text_line)
                buf_printf(out, "%d", note->text_line);
            else
                buf_puts(out, "null");
            buf_puts(out, ",\"text\":");
            buf_json_str(out, note->text);
            buf_putc(out, '}');
        }
    }
    buf_printf(out, "],\"notes_left_out\":%d,\"blocks_run\":%llu,\"lane_instructions\":%llu",
               r->notes_dropped, (unsigned long long)r->blocks_run,
               (unsigned long long)r->lane_insns);
    if (src) {
        buf_puts(out, ",\"compiled\":{\"file\":");
        buf_json_str(out, src->name);
        buf_puts(out, ",\"nvcc\":");
        buf_json_str(out, src->nvcc);
        buf_puts(out, ",\"arch\":");
        buf_json_str(out, src->arch);
        buf_puts(out, ",\"flags\":\"-O3 -lineinfo -ptx\",\"log\":");
        buf_json_str(out, src->log);
        buf_putc(out, '}');
    }
    if (more)
        buf_puts(out, more);
    buf_putc(out, '}');
}

