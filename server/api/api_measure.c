/* api_measure.c - the measurement module of the API: asks the tool at start
 * which GPU it sees, checks each /api/measure, /api/measure/tma and
 * /api/ptx/measure body (a client's mistake is a 400 before the tool runs),
 * runs it through the tool
 * (one at a time, killed at a deadline: measure.c; "counters":false skips ncu
 * for a fast cycles-only answer), reports availability in /api/health.  The
 * prediction is access.c's or layout.c's, the measurement the tool's. */
#define _POSIX_C_SOURCE 200809L    /* clock_gettime under -std=c11 */
#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/access.h"
#include "model/atomic_form.h"
#include "model/atomic_warps.h"
#include "api_read.h"
#include "api_read_layout.h"
#include "api_routes.h"
#include "api_write.h"
#include "base/measure.h"
#include "layout/layout.h"
#include "ptx/ptx_op.h"
#include "ptx_compare.h"
#include "ptx_request.h"

#define SZ_VERSION "0.1.0"

/* Set by api_measure_setup before any request; the probe's results
 * (available, device, gpu, reason) may arrive later from another thread, so
 * they are read and written under msr_lock. */
static pthread_mutex_t msr_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t msr_probed = PTHREAD_COND_INITIALIZER;   /* msr.probed became 1 */
static struct {
    char tool[4096];
    int timeout_ms, info_timeout_ms;
    int probed;             /* the tool answered --info (or there is none) */
    int available;
    char *device;           /* the tool's device object, as JSON */
    struct instr_gpu gpu;   /* its shared memory and cc; zeros while unknown */
    char reason[320];       /* why measurement is unavailable */
} msr = {.reason = "no measurement tool configured", .probed = 1};

int api_route_health(const struct api_request *req, struct buf *out,
                        struct sz_error *err)
{
    static const char *const known[] = {NULL};
    if (api_args_check(req, known, err) < 0)
        return -1;
    pthread_mutex_lock(&msr_lock);
    buf_puts(out, "{\"ok\":true,\"version\":\"" SZ_VERSION "\",\"measure\":{\"available\":");
    buf_puts(out, msr.available ? "true" : "false");
    buf_puts(out, ",\"device\":");
    buf_puts(out, msr.device ? msr.device : "null");
    buf_puts(out, ",\"reason\":");
    buf_json_str(out, msr.available ? "" : msr.reason);
    buf_puts(out, "}}");
    pthread_mutex_unlock(&msr_lock);
    return 0;
}


/* ---- measurement ------------------------------------------------------- */

/* The tool's --json answer or error object; NULL when stdout is not JSON. */
static cJSON *tool_json(const struct proc *mo)
{
    if (mo->out_len == 0 || !api_utf8_valid((const unsigned char *)mo->out, mo->out_len))
        return NULL;
    cJSON *j = cJSON_ParseWithLength(mo->out, mo->out_len);
    if (j && !cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

/* The tail of the tool's stderr as text an error body can carry: from the
 * first whole character, anything that is not UTF-8 replaced by '?'. */
static const char *stderr_text(const struct proc *mo, char *buf, size_t cap)
{
    const char *s = mo->err ? mo->err : "";
    while ((*s & 0xC0) == 0x80)
        s++;
    snprintf(buf, cap, "%s", s);
    if (!api_utf8_valid((const unsigned char *)buf, strlen(buf)))
        for (char *c = buf; *c; c++)
            if ((unsigned char)*c >= 0x80)
                *c = '?';
    return buf;
}

/* Why a tool run failed, in one sentence: its own error message when it
 * printed one, else how it ended. */
static void tool_failure(const struct proc *mo, const cJSON *j, char *msg, size_t cap)
{
    char tail[MEASURE_STDERR_TAIL + 1];
    const char *err = stderr_text(mo, tail, sizeof tail);
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "message");
    if (mo->timed_out)
        snprintf(msg, cap, "the measurement tool did not finish in time and was killed");
    else if (cJSON_IsString(m))
        snprintf(msg, cap, "%.*s", sz_utf8_prec(m->valuestring, 250), m->valuestring);
    else if (mo->signal)
        snprintf(msg, cap, "the measurement tool crashed (signal %d)%s%.*s", mo->signal,
                 err[0] ? ": " : "", sz_utf8_prec(err, 200), err);
    else if (mo->out_truncated)
        snprintf(msg, cap, "the measurement tool printed more than %u bytes",
                 MEASURE_MAX_OUTPUT);
    else if (mo->exit_code != 0)
        snprintf(msg, cap, "the measurement tool failed (exit %d)%s%.*s", mo->exit_code,
                 err[0] ? ": " : "", sz_utf8_prec(err, 200), err);
    else
        snprintf(msg, cap, "the measurement tool printed something that is not its JSON "
                 "answer");
}

/* What the tool's --info device object says the GPU can run: "cc":"9.0" and
 * "smem_per_block_optin"; a member missing or odd stays 0 (unknown). */
static void device_limits(const cJSON *dev, struct instr_gpu *gpu)
{
    const cJSON *cc = cJSON_GetObjectItemCaseSensitive(dev, "cc");
    const cJSON *smem = cJSON_GetObjectItemCaseSensitive(dev, "smem_per_block_optin");
    unsigned major, minor;
    char end;
    if (cJSON_IsString(cc) && sscanf(cc->valuestring, "%2u.%1u%c", &major, &minor, &end) == 2)
        gpu->cc = (int)(major * 10 + minor);
    if (cJSON_IsNumber(smem) && smem->valuedouble >= 1024 &&
        smem->valuedouble <= INSTR_SMEM_HARD_LIMIT)
        gpu->smem_bytes = (uint32_t)smem->valuedouble;
}

void api_measure_setup(const struct api_config *cfg)
{
    pthread_mutex_lock(&msr_lock);
    msr.available = 0;
    free(msr.device);
    msr.device = NULL;
    msr.gpu = (struct instr_gpu){0, 0};
    msr.timeout_ms = cfg->measure_timeout_ms > 0 ? cfg->measure_timeout_ms : 30000;
    msr.info_timeout_ms = cfg->info_timeout_ms > 0 ? cfg->info_timeout_ms : 15000;
    msr.probed = cfg->measure_tool == NULL;
    if (cfg->measure_tool == NULL) {
        msr.tool[0] = '\0';
        snprintf(msr.reason, sizeof msr.reason, "no measurement tool configured");
    } else {
        snprintf(msr.tool, sizeof msr.tool, "%s", cfg->measure_tool);
        snprintf(msr.reason, sizeof msr.reason,
                 "the measurement tool is being asked which GPU it sees");
    }
    pthread_mutex_unlock(&msr_lock);
}

void api_measure_probe(void)
{
    pthread_mutex_lock(&msr_lock);
    int skip = msr.probed;
    char tool[sizeof msr.tool];
    snprintf(tool, sizeof tool, "%s", msr.tool);
    int info_ms = msr.info_timeout_ms;
    pthread_mutex_unlock(&msr_lock);
    if (skip)
        return;
    char *argv[] = {tool, "--info", NULL};
    struct proc mo;
    struct sz_error err;
    char reason[sizeof msr.reason] = "";
    char *device = NULL;
    struct instr_gpu gpu = {0, 0};
    if (measure_run(argv, "", 0, info_ms, &mo, &err) < 0) {
        snprintf(reason, sizeof reason, "%s", err.message);
    } else {
        cJSON *j = tool_json(&mo);
        const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
        if (mo.exit_code == 0 && !mo.timed_out && !mo.was_cancelled && cJSON_IsObject(dev) &&
            cJSON_IsString(cJSON_GetObjectItemCaseSensitive(dev, "name"))) {
            device = cJSON_PrintUnformatted(dev);
            device_limits(dev, &gpu);
        } else if (mo.was_cancelled) {
            snprintf(reason, sizeof reason, "the server is stopping");
        } else {
            tool_failure(&mo, j, reason, sizeof reason);
        }
        cJSON_Delete(j);
        proc_free(&mo);
    }
    pthread_mutex_lock(&msr_lock);
    free(msr.device);
    msr.device = device;
    msr.available = device != NULL;
    msr.gpu = gpu;
    if (device == NULL)
        snprintf(msr.reason, sizeof msr.reason, "%s", reason);
    msr.probed = 1;
    pthread_cond_broadcast(&msr_probed);
    pthread_mutex_unlock(&msr_lock);
}

int api_measure_probed(void)
{
    pthread_mutex_lock(&msr_lock);
    int p = msr.probed;
    pthread_mutex_unlock(&msr_lock);
    return p;
}

void api_configure(const struct api_config *cfg)
{
    api_measure_setup(cfg);
    api_measure_probe();
}

void api_measure_status(char *line, size_t cap)
{
    pthread_mutex_lock(&msr_lock);
    if (msr.available) {
        cJSON *d = cJSON_Parse(msr.device);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
        snprintf(line, cap, "live measurement: on %s", cJSON_IsString(name) ? name->valuestring : "a GPU");
        cJSON_Delete(d);
    } else {
        snprintf(line, cap, "live measurement: unavailable: %s", msr.reason);
    }
    pthread_mutex_unlock(&msr_lock);
}

/* The measure body: one instruction (api_read_instr), "counters", true
 * unless the client asks for cycles only with false, and an atomic's "warps"
 * (0: not given; the tool's 16). */
static int measure_body(const struct api_request *req, struct instr *in, int *counters,
                        uint32_t *warps, struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const extra[] = {"counters", "warps", NULL};
    cJSON *root = NULL;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    int rc = api_read_instr(root, extra, in, err);
    if (rc == 0)
        rc = api_read_warps(root, in, warps, err);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "counters");
    if (rc == 0 && c != NULL && !cJSON_IsBool(c))
        rc = sz_fail(err, SZ_INVALID_ARGUMENT, "counters", "must be true (cycles and the "
                     "ncu counters) or false (cycles only, without the profiler)");
    *counters = c == NULL || cJSON_IsTrue(c);
    cJSON_Delete(root);
    return rc;
}

static void put_instr(struct buf *b, const struct instr *in)
{
    buf_printf(b, "{\"op\":\"%s\",\"bytes\":%u,\"matrices\":%u,\"trans\":%s,",
               instr_op_name(in->op), in->bytes, in->matrices, in->trans ? "true" : "false");
    if (instr_is_atomic(in->op)) {
        buf_printf(b, "\"func\":\"%s\",\"type\":\"%s\",", instr_func_name(in->func),
                   instr_type_name(in->type));
        /* the operand and the guard pick the tool's kernel (and the SASS) */
        char operand[64];
        buf_printf(b, "%s,", atomic_form_json(in, operand, sizeof operand));
    }
    if (instr_is_copy(in->op)) {
        buf_printf(b, "\"cache\":\"%s\",\"global_offsets\":", in->cg ? "cg" : "ca");
        buf_u32_array(b, in->global_offsets, INSTR_LANES);
        buf_putc(b, ',');
    }
    buf_puts(b, "\"offsets\":[");
    for (int t = 0; t < INSTR_LANES; t++) {
        if (t)
            buf_putc(b, ',');
        if (in->offsets[t] == INSTR_INACTIVE)
            buf_puts(b, "null");
        else
            buf_i64(b, in->offsets[t]);
    }
    buf_puts(b, "]}");
}

/* What a measurement needs from the probe, read under the lock: asked while
 * the tool is still being asked which GPU it sees (the server listens
 * first), it waits for that answer, at most its own timeout (a stop cancels
 * the probe, which ends this wait too).  This runs on a slow request's own
 * thread. */
struct msr_view {
    struct instr_gpu gpu;
    int available, timeout_ms;
    char reason[sizeof msr.reason], tool[sizeof msr.tool];
};

static void msr_snapshot(struct msr_view *v)
{
    pthread_mutex_lock(&msr_lock);
    if (!msr.probed) {
        struct timespec end;
        clock_gettime(CLOCK_REALTIME, &end);
        end.tv_sec += msr.info_timeout_ms / 1000 + 1;
        while (!msr.probed && pthread_cond_timedwait(&msr_probed, &msr_lock, &end) == 0)
            ;
    }
    v->gpu = msr.gpu;
    v->available = msr.available;
    snprintf(v->reason, sizeof v->reason, "%s", msr.reason);
    snprintf(v->tool, sizeof v->tool, "%s", msr.tool);
    v->timeout_ms = msr.timeout_ms;
    pthread_mutex_unlock(&msr_lock);
}

int api_route_measure(const struct api_request *req, struct buf *out,
                         struct sz_error *err)
{
    struct instr in;
    int counters;
    uint32_t warps;
    /* What no GPU can run, or this one cannot, is the client's to fix:
     * refused after the snapshot, before the availability check and
     * without the tool. */
    struct msr_view v;
    msr_snapshot(&v);
    struct instr_gpu gpu = v.gpu;
    int available = v.available, timeout_ms = v.timeout_ms;
    char *reason = v.reason, *tool = v.tool;
    if (measure_body(req, &in, &counters, &warps, err) < 0 ||
        instr_check_gpu(&in, &gpu, err) < 0)
        return -1;
    if (!available)
        return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "%s", reason);
    if (measure_try_lock(err) < 0)
        return -1;
    struct buf body = {0};
    put_instr(&body, &in);
    /* Without counters the tool times cycles and skips ncu (--no-ncu): about
     * a sixth of the round trip; the answer has the same shape, its
     * wavefronts null and ncu.used false with the tool's reason. */
    /* the warps the client asked for run the tool's block (--warps), so the
     * measured side is the launch A14 predicts */
    char nwarps[16];
    snprintf(nwarps, sizeof nwarps, "%u", warps);
    char *argv[6] = {tool, "--json"}, **ap = argv + 2;
    if (!counters)
        *ap++ = "--no-ncu";
    if (warps)
        *ap++ = "--warps", *ap++ = nwarps;
    *ap = NULL;
    struct proc mo;
    int rc = measure_run(argv, body.p ? body.p : "", body.len, timeout_ms, &mo, err);
    measure_unlock();
    buf_free(&body);
    if (rc < 0)
        return -1;
    cJSON *j = tool_json(&mo);
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(j, "results");
    const cJSON *res = cJSON_GetArrayItem(results, 0);
    const cJSON *cyc = cJSON_GetObjectItemCaseSensitive(res, "cycles_per_instr");
    if (mo.was_cancelled) {
        cJSON_Delete(j);
        proc_free(&mo);
        return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL,
                       "the server is stopping: the measurement was stopped");
    }
    if (mo.exit_code != 0 || mo.timed_out || !cJSON_IsObject(res) || !cJSON_IsNumber(cyc)) {
        char msg[300];
        tool_failure(&mo, j, msg, sizeof msg);
        /* The tool refused the input on a field (exit 2): the two checks
         * drifted apart, but it is still the client's body that is wrong. */
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(j, "error"), "field");
        int refused = !mo.timed_out && mo.exit_code == 2 && cJSON_IsString(field) &&
                      field->valuestring[0];
        if (refused)
            sz_fail(err, SZ_INVALID_ARGUMENT, field->valuestring, "%s", msg);
        else
            sz_fail(err, SZ_MEASURE_FAILED, NULL, "%s", msg);
        cJSON_Delete(j);
        proc_free(&mo);
        return -1;
    }
    struct acc_result r;
    acc_cost(&in, &r);
    if (warps)
        atomic_warps_apply(&in, warps, &r);
    /* The tool reads two ncu numbers: the Source-page metric, which
     * source_wavefronts predicts, and for loads the hardware counter, which
     * wavefronts predicts (for stores that counter over-counts: access.c). */
    const cJSON *wf = cJSON_GetObjectItemCaseSensitive(res, "wavefronts_per_instr");
    const cJSON *hw = cJSON_GetObjectItemCaseSensitive(res, "wavefronts_hw_per_instr");
    int load = instr_is_load(in.op);
    int wf_ok = cJSON_IsNumber(wf) && fabs(wf->valuedouble - r.source_wavefronts) < 0.01 &&
                (!load || !cJSON_IsNumber(hw) || fabs(hw->valuedouble - r.wavefronts) < 0.01);
    double mc = cyc->valuedouble, pc = acc_clock_cycles(&r);
    /* Cycles agree within 2% (clock64 timing noise); wavefronts are counts.
     * A non-native atomic has no prediction to agree with (null). */
    int predicted = !r.atomic.is_atomic || r.atomic.native;
    int cyc_ok = fabs(mc - pc) <= 0.02 * pc;
    buf_puts(out, "{\"predicted\":");
    api_put_cost(out, &in, &r);
    char *measured = cJSON_PrintUnformatted(res);
    char *device = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "device"));
    char *ncu = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "ncu"));
    char *verify = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "verify"));
    buf_puts(out, ",\"measured\":");
    buf_puts(out, measured ? measured : "null");
    buf_puts(out, ",\"device\":");
    buf_puts(out, device ? device : "null");
    buf_puts(out, ",\"ncu\":");
    buf_puts(out, ncu ? ncu : "null");
    buf_puts(out, ",\"verify\":");
    buf_puts(out, verify ? verify : "null");
    buf_printf(out, ",\"agree\":{\"cycles\":%s,\"wavefronts\":%s}}",
               !predicted ? "null" : cyc_ok ? "true" : "false",
               cJSON_IsNumber(wf) && predicted ? (wf_ok ? "true" : "false") : "null");
    free(measured);
    free(device);
    free(ncu);
    free(verify);
    cJSON_Delete(j);
    proc_free(&mo);
    return 0;
}

/* Run the tool with `args` (its options: "--tma"; at most TOOL_MAX_ARGS) and
 * `input` on stdin, one measurement at a time: 0 and *answer (a cJSON object
 * with "ok": true; cJSON_Delete it), or -1: SZ_GPU_UNAVAILABLE (no tool or
 * GPU, or the server is stopping), SZ_BUSY, SZ_INVALID_ARGUMENT on the field
 * the tool names, SZ_MEASURE_FAILED. */
#define TOOL_MAX_ARGS 160
static int tool_run_json(char *const args[], const char *input, cJSON **answer,
                         struct sz_error *err)
{
    *answer = NULL;
    struct msr_view v;
    msr_snapshot(&v);
    if (!v.available)
        return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "%s", v.reason);
    char *argv[TOOL_MAX_ARGS + 2] = {v.tool};
    for (int i = 0; args[i] && i < TOOL_MAX_ARGS; i++)
        argv[i + 1] = args[i];
    if (measure_try_lock(err) < 0)
        return -1;
    struct proc mo;
    int rc = measure_run(argv, input, strlen(input), v.timeout_ms, &mo, err);
    measure_unlock();
    if (rc < 0)
        return -1;
    cJSON *j = tool_json(&mo);
    if (mo.was_cancelled) {
        rc = sz_fail(err, SZ_GPU_UNAVAILABLE, NULL,
                     "the server is stopping: the measurement was stopped");
    } else if (mo.exit_code != 0 || mo.timed_out || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "ok"))) {
        char msg[300];
        tool_failure(&mo, j, msg, sizeof msg);
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(j, "error"), "field");
        /* the tool refused the input on a field (exit 2): the client's body */
        if (!mo.timed_out && mo.exit_code == 2 && cJSON_IsString(field) && field->valuestring[0])
            rc = sz_fail(err, SZ_INVALID_ARGUMENT, field->valuestring, "%s", msg);
        else if (!mo.timed_out && mo.exit_code == 3)
            rc = sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "%s", msg);
        else
            rc = sz_fail(err, SZ_MEASURE_FAILED, NULL, "%s", msg);
    }
    if (rc < 0)
        cJSON_Delete(j);
    else
        *answer = j;
    proc_free(&mo);
    return rc;
}

/* ---- POST /api/measure/tma ------------------------------------------------ */

/* The probe's limits (cuda/tma.h: a 512-byte-row tensor of 4 planes, half a
 * 160 KiB window for the box): refused here, before the tool runs. */
enum { TMA_MAX_INNER = 256, TMA_MAX_PLANES = 4, TMA_MAX_BOX_BYTES = 80 * 1024 };
#define TMA_MAX_SHOWN 8

int api_route_measure_tma(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const fields[] = {"layout", "element_bits", "shape", NULL};
    cJSON *root, *j = NULL;
    struct api_tensor t;
    if (api_tensor_body(req, fields, &root, &t, err) < 0)
        return -1;
    int rc = -1;
    const struct lay *l = &t.l;
    if (l->form != &lay_form_tma) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "the copy engine places tma: boxes "
                "(tma:CU_TENSOR_MAP_SWIZZLE_NONE|32B|64B|128B with a shape)");
        goto done;
    }
    uint32_t eb = (uint32_t)l->element_bits / 8, inner = l->shape[0] * eb;
    uint32_t rows = l->rank > 1 ? l->shape[1] : 1, planes = l->rank > 2 ? l->shape[2] : 1;
    int span = l->a.tma.swizzle_bytes;
    uint32_t padded = span && inner < (uint32_t)span ? (uint32_t)span : inner;
    if (inner % 16 || inner > TMA_MAX_INNER || rows > 256 || planes > TMA_MAX_PLANES ||
        (uint64_t)padded * rows * planes > TMA_MAX_BOX_BYTES) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "the probe copies boxes whose inner extent "
                "is a multiple of 16 bytes up to %d, of up to 256 rows and %d planes, in %d "
                "bytes of shared memory (got %u bytes x %u x %u)", TMA_MAX_INNER,
                TMA_MAX_PLANES, TMA_MAX_BOX_BYTES, inner, rows, planes);
        goto done;
    }
    char input[160];
    snprintf(input, sizeof input, "{\"swizzle_bytes\":%d,\"elem_bytes\":%u,\"box\":[%u,%u%s",
             span, eb, l->shape[0], rows, planes > 1 ? "," : "");
    if (planes > 1)
        snprintf(input + strlen(input), sizeof input - strlen(input), "%u", planes);
    snprintf(input + strlen(input), sizeof input - strlen(input), "]}");
    char *tma_args[] = {"--tma", NULL};
    if (tool_run_json(tma_args, input, &j, err) < 0)
        goto done;
    const cJSON *enc = cJSON_GetObjectItemCaseSensitive(j, "encode");
    const cJSON *slots = cJSON_GetObjectItemCaseSensitive(j, "slots");
    uint32_t cpr = inner / 16, n = cpr * rows * planes;
    if (!cJSON_IsNumber(enc) || (enc->valueint == 0 && (uint32_t)cJSON_GetArraySize(slots) != n)) {
        sz_fail(err, SZ_MEASURE_FAILED, NULL, "the measurement tool's --tma answer is not "
                "one slot per chunk of the box");
        goto done;
    }
    /* predicted: chunk (x, y, z)'s first element's offset / 16; the whole
     * chunk moves together (TMA swizzles 16-byte chunks) */
    buf_printf(out, "{\"form\":\"tma\",\"swizzle_bytes\":%d,\"element_bytes\":%u,\"shape\":", span,
               eb);
    buf_u32_array(out, l->shape, (size_t)l->rank);
    buf_printf(out, ",\"chunks\":%u,\"units\":{\"slots\":\"16-byte chunks from the 1024-byte "
               "aligned base, box order: plane, row, chunk\"},\"predicted\":[", n);
    for (uint32_t c = 0; c < n; c++) {
        uint32_t x = c % cpr, y = c / cpr % rows, z = c / cpr / rows;
        buf_printf(out, "%s%u", c ? "," : "", t.off[x * 16 / eb + l->shape[0] * (y + rows * z)] / 16);
    }
    buf_printf(out, "],\"measured\":{\"encode\":%d,\"encode_name\":", enc->valueint);
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(j, "encode_name");
    buf_json_str(out, cJSON_IsString(en) ? en->valuestring : "?");
    const cJSON *wr = cJSON_GetObjectItemCaseSensitive(j, "written");
    buf_printf(out, ",\"written\":%d,\"slots\":", cJSON_IsNumber(wr) ? wr->valueint : -1);
    char *sl = cJSON_PrintUnformatted(slots);
    buf_puts(out, sl ? sl : "null");
    free(sl);
    buf_putc(out, '}');
    uint32_t wrong = 0;
    buf_puts(out, ",\"mismatches\":[");
    for (uint32_t c = 0; enc->valueint == 0 && c < n; c++) {
        uint32_t x = c % cpr, y = c / cpr % rows, z = c / cpr / rows;
        uint32_t i = x * 16 / eb + l->shape[0] * (y + rows * z), p = t.off[i] / 16;
        int m = cJSON_GetArrayItem(slots, (int)c)->valueint;
        if (m >= 0 && (uint32_t)m == p)
            continue;
        if (wrong++ < TMA_MAX_SHOWN) {
            buf_printf(out, "%s{\"chunk\":%u,\"coords\":", wrong > 1 ? "," : "", c);
            api_put_coords(out, l, i);
            buf_printf(out, ",\"predicted\":%u,\"measured\":%d}", p, m);
        }
    }
    buf_printf(out, "],\"wrong\":%u,\"agree\":%s,\"device\":", wrong,
               enc->valueint != 0 ? "null" : wrong ? "false" : "true");
    char *dev = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "device"));
    buf_puts(out, dev ? dev : "null");
    free(dev);
    buf_puts(out, ",\"note\":");
    buf_json_str(out, enc->valueint != 0
                          ? "the driver refused this tensor map (cuTensorMapEncodeTiled): no "
                            "copy ran, so there is no placement to compare"
                          : "measured: where cp.async.bulk.tensor put each 16-byte chunk of the "
                            "box (tagged in global memory, found in shared memory)");
    buf_putc(out, '}');
    rc = 0;
done:
    cJSON_Delete(j);
    cJSON_Delete(root);
    api_tensor_free(&t);
    return rc;
}

/* ---- POST /api/ptx/measure ------------------------------------------------ */

/* Parameter i as the tool's --param reads it: "null" (its own zero-filled
 * buffer), or the very bytes the analysis ran with: a float's value to the
 * last digit, a signed integer's sign, anything else in hex. */
static void param_text(const struct ptx_request *q, int i, char *s, size_t cap)
{
    const struct ptx_var *p = &q->e->params[i];
    uint64_t v = q->vals[i];
    unsigned bits = p->size >= 8 ? 64 : (unsigned)p->size * 8;
    if (bits < 64)
        v &= (1ull << bits) - 1;
    if (q->nulls[i]) {
        snprintf(s, cap, "null");
    } else if (p->type == PT_F32 || p->type == PT_F64) {
        float f;
        double d;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, 4);
        memcpy(&d, &v, 8);
        snprintf(s, cap, "%.17g", p->type == PT_F32 ? (double)f : d);
    } else if (ptx_op_signed(p->type) && bits && (v >> (bits - 1)) & 1) {
        snprintf(s, cap, "%lld", (long long)(v | (bits < 64 ? ~0ull << bits : 0)));
    } else {
        snprintf(s, cap, "0x%llx", (unsigned long long)v);
    }
}

/* The bytes each pointer's buffer gets on the GPU: what the analysis saw the
 * kernel touch, rounded up to 256 (cuMemAlloc's granule; never 0), or, when
 * the analysis stopped early and saw only part, the buffers it had. */
static uint64_t gpu_buffer_bytes(const struct ptx_request *q)
{
    if (q->r.partial)
        return q->l.global_bytes ? q->l.global_bytes : PTX_DEFAULT_GLOBAL;
    uint64_t t = q->r.global_touched ? q->r.global_touched : 1;
    return (t + 255) / 256 * 256;
}

int api_route_ptx_measure(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    /* Everything the tool would refuse is refused first, without it: the
     * body, the PTX, the launch, a kernel fault, all as /api/ptx says them. */
    struct ptx_request q;
    cJSON *j = NULL;
    char dir[600] = "", path[700] = "";
    int rc = ptx_request_run(req, NULL, &q, err);
    if (rc < 0)
        goto done;
    struct msr_view v;
    msr_snapshot(&v);
    if (!v.available) {
        rc = sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "no GPU measurement here: %s", v.reason);
        goto done;
    }
    rc = -1;
    if (measure_file("kernel.ptx", q.ptx, strlen(q.ptx), dir, sizeof dir, path, sizeof path,
                     err) < 0) {
        dir[0] = '\0';
        goto done;
    }
    /* the tool's own deadlines inside the server's, so that it answers
     * (with the reason) before it is killed */
    int budget_s = v.timeout_ms / 1000;
    char block[40], grid[40], dyn[24], gbytes[24], ncu_s[16], vals[PTX_REQUEST_PARAMS][48];
    const struct ptx_launch *l = &q.l;
    snprintf(block, sizeof block, "%u,%u,%u", l->block[0], l->block[1], l->block[2]);
    snprintf(grid, sizeof grid, "%u,%u,%u", l->grid[0], l->grid[1], l->grid[2]);
    snprintf(dyn, sizeof dyn, "%llu", (unsigned long long)l->dynamic_shared);
    snprintf(gbytes, sizeof gbytes, "%llu", (unsigned long long)gpu_buffer_bytes(&q));
    snprintf(ncu_s, sizeof ncu_s, "%d", budget_s > 8 ? budget_s - 3 : 5);
    char *args[TOOL_MAX_ARGS + 1];
    int n = 0;
    char *head[] = {"--ptx", path, "--kernel", q.e->name, "--block", block, "--grid", grid,
                    "--dynamic-shared", dyn, "--global-bytes", gbytes, "--ncu-timeout", ncu_s,
                    "--json"};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        args[n++] = head[i];
    for (int i = 0; i < q.e->nparams; i++) {
        param_text(&q, i, vals[i], sizeof vals[i]);
        args[n++] = "--param";
        args[n++] = vals[i];
    }
    args[n] = NULL;
    if (tool_run_json(args, "", &j, err) < 0)
        goto done;
    buf_puts(out, "{\"predicted\":");
    ptx_request_answer(out, &q);
    /* the tool's answer as it came, less its own "ptx" (a temporary path) */
    cJSON_DeleteItemFromObjectCaseSensitive(j, "ptx");
    cJSON_DeleteItemFromObjectCaseSensitive(j, "ok");
    char *meas = cJSON_PrintUnformatted(j);
    if (!meas) {
        rc = sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        goto done;
    }
    buf_puts(out, ",\"measured\":");
    buf_puts(out, meas);
    free(meas);
    buf_puts(out, ",\"compare\":{\"buffer_bytes\":");
    buf_printf(out, "%s", gbytes);
    ptx_compare_json(out, &q, j);
    buf_puts(out, "}}");
    rc = 0;
done:
    if (dir[0])
        measure_file_remove(dir, path);
    cJSON_Delete(j);
    ptx_request_free(&q);
    return rc;
}
