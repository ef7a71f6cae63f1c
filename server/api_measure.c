/* api_measure.c - the measurement module of the API: asks the tool at start
 * which GPU it sees, runs one instruction through it per /api/measure (one at
 * a time, killed at a deadline: measure.c), and reports availability in
 * /api/health.  It never runs the model on its own: the prediction is
 * access.c's, the measurement the tool's. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "api_read.h"
#include "api_routes.h"
#include "measure.h"

#define SZ_VERSION "0.1.0"

/* Set once by api_configure before any request, read-only afterwards. */
static struct {
    char tool[4096];
    int timeout_ms;
    int available;
    char *device;           /* the tool's device object, as JSON */
    char reason[320];       /* why measurement is unavailable */
} msr = {.reason = "no measurement tool configured"};

int api_route_health(const struct api_request *req, struct buf *out,
                        struct sz_error *err)
{
    static const char *const known[] = {NULL};
    if (api_args_check(req, known, err) < 0)
        return -1;
    buf_puts(out, "{\"ok\":true,\"version\":\"" SZ_VERSION "\",\"measure\":{\"available\":");
    buf_puts(out, msr.available ? "true" : "false");
    buf_puts(out, ",\"device\":");
    buf_puts(out, msr.device ? msr.device : "null");
    buf_puts(out, ",\"reason\":");
    buf_json_str(out, msr.available ? "" : msr.reason);
    buf_puts(out, "}}");
    return 0;
}


/* ---- measurement ------------------------------------------------------- */

/* The tool's --json answer or error object; NULL when stdout is not JSON. */
static cJSON *tool_json(const struct measure_output *mo)
{
    if (mo->len == 0 || !api_utf8_valid((const unsigned char *)mo->out, mo->len))
        return NULL;
    cJSON *j = cJSON_ParseWithLength(mo->out, mo->len);
    if (j && !cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

/* Why a tool run failed, in one sentence: its own error message when it
 * printed one, else how it ended. */
static void tool_failure(const struct measure_output *mo, const cJSON *j, char *msg,
                         size_t cap)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "message");
    if (mo->timed_out)
        snprintf(msg, cap, "the measurement tool did not finish in time and was killed");
    else if (cJSON_IsString(m))
        snprintf(msg, cap, "%.250s", m->valuestring);
    else if (mo->signal)
        snprintf(msg, cap, "the measurement tool crashed (signal %d)%s%.200s", mo->signal,
                 mo->err[0] ? ": " : "", mo->err);
    else if (mo->truncated)
        snprintf(msg, cap, "the measurement tool printed more than %u bytes",
                 MEASURE_MAX_OUTPUT);
    else if (mo->exit_code != 0)
        snprintf(msg, cap, "the measurement tool failed (exit %d)%s%.200s", mo->exit_code,
                 mo->err[0] ? ": " : "", mo->err);
    else
        snprintf(msg, cap, "the measurement tool printed something that is not its JSON "
                 "answer");
}

void api_configure(const struct api_config *cfg)
{
    msr.available = 0;
    free(msr.device);
    msr.device = NULL;
    msr.timeout_ms = cfg->measure_timeout_ms > 0 ? cfg->measure_timeout_ms : 30000;
    if (cfg->measure_tool == NULL) {
        snprintf(msr.reason, sizeof msr.reason, "no measurement tool configured");
        return;
    }
    snprintf(msr.tool, sizeof msr.tool, "%s", cfg->measure_tool);
    char *argv[] = {msr.tool, "--info", NULL};
    struct measure_output mo;
    struct sz_error err;
    if (measure_run(argv, "", 0, cfg->info_timeout_ms > 0 ? cfg->info_timeout_ms : 15000,
                    &mo, &err) < 0) {
        snprintf(msr.reason, sizeof msr.reason, "%s", err.message);
        return;
    }
    cJSON *j = tool_json(&mo);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
    if (mo.exit_code == 0 && !mo.timed_out && cJSON_IsObject(dev) &&
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(dev, "name"))) {
        msr.device = cJSON_PrintUnformatted(dev);
        msr.available = msr.device != NULL;
    } else {
        tool_failure(&mo, j, msr.reason, sizeof msr.reason);
    }
    cJSON_Delete(j);
    free(mo.out);
}

void api_measure_status(char *line, size_t cap)
{
    if (msr.available) {
        cJSON *d = cJSON_Parse(msr.device);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
        snprintf(line, cap, "live measurement: on %s", cJSON_IsString(name) ? name->valuestring : "a GPU");
        cJSON_Delete(d);
    } else {
        snprintf(line, cap, "live measurement: unavailable: %s", msr.reason);
    }
}

static void put_instr(struct buf *b, const struct instr *in)
{
    buf_printf(b, "{\"op\":\"%s\",\"bytes\":%u,\"matrices\":%u,\"trans\":%s,"
               "\"offsets\":[", instr_op_name(in->op), in->bytes, in->matrices,
               in->trans ? "true" : "false");
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

int api_route_measure(const struct api_request *req, struct buf *out,
                         struct sz_error *err)
{
    struct instr in;
    if (api_instr_body(req, &in, err) < 0)
        return -1;
    if (in.bank_bytes != 4 || in.banks != 32)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "banks",
                       "the GPU has 32 banks of 4 bytes: measure with bank_bytes 4, banks 32");
    if (!msr.available)
        return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "%s", msr.reason);
    if (measure_try_lock(err) < 0)
        return -1;
    struct buf body = {0};
    put_instr(&body, &in);
    char *argv[] = {msr.tool, "--json", NULL};
    struct measure_output mo;
    int rc = measure_run(argv, body.p ? body.p : "", body.len, msr.timeout_ms, &mo, err);
    measure_unlock();
    buf_free(&body);
    if (rc < 0)
        return -1;
    cJSON *j = tool_json(&mo);
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(j, "results");
    const cJSON *res = cJSON_GetArrayItem(results, 0);
    const cJSON *cyc = cJSON_GetObjectItemCaseSensitive(res, "cycles_per_instr");
    if (mo.exit_code != 0 || mo.timed_out || !cJSON_IsObject(res) || !cJSON_IsNumber(cyc)) {
        char msg[300];
        tool_failure(&mo, j, msg, sizeof msg);
        cJSON_Delete(j);
        free(mo.out);
        return sz_fail(err, SZ_MEASURE_FAILED, NULL, "%s", msg);
    }
    struct acc_result r;
    acc_cost(&in, &r);
    /* The tool reads two ncu numbers: the Source-page metric, which
     * source_wavefronts predicts, and for loads the hardware counter, which
     * wavefronts predicts (for stores that counter over-counts: access.c). */
    const cJSON *wf = cJSON_GetObjectItemCaseSensitive(res, "wavefronts_per_instr");
    const cJSON *hw = cJSON_GetObjectItemCaseSensitive(res, "wavefronts_hw_per_instr");
    int load = in.op == INSTR_LD || in.op == INSTR_LDMATRIX;
    int wf_ok = cJSON_IsNumber(wf) && fabs(wf->valuedouble - r.source_wavefronts) < 0.01 &&
                (!load || !cJSON_IsNumber(hw) || fabs(hw->valuedouble - r.wavefronts) < 0.01);
    double mc = cyc->valuedouble;
    /* Cycles agree within 2% (clock64 timing noise); wavefronts are counts. */
    int cyc_ok = fabs(mc - r.cycles) <= 0.02 * r.cycles;
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
               cyc_ok ? "true" : "false",
               cJSON_IsNumber(wf) ? (wf_ok ? "true" : "false") : "null");
    free(measured);
    free(device);
    free(ncu);
    free(verify);
    cJSON_Delete(j);
    free(mo.out);
    return 0;
}

