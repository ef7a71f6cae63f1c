/* probe.cu: swizzlescope-measure, the live measurement tool. Reads warp access
 * patterns (the POST /api/conflicts body as JSON, or input.h's line format)
 * on stdin, checks them with the server's instruction schema before it looks
 * for a GPU (server/model/instr.c: what the API accepts, the tool accepts), runs
 * each on its kernel (kernels.cu) and reports, per pattern, the SM cycles one warp instruction costs
 * when the shared-memory pipe is saturated, the wavefronts Nsight Compute
 * counts for it (by re-running itself under ncu, see ncu.c) and a swizzle
 * round trip on the GPU (verify.cu). It must stay standalone (CUDA runtime
 * only), touch nothing but its own GPU buffers, never hang (every kernel is
 * waited for with a deadline) and answer every failure with an exit code and
 * a message (JSON on stdout with --json/--info, always on stderr).
 *
 * Method: one block of W warps (default 16) on one SM; every lane of every
 * warp runs the same pattern. Each loop iteration issues 8 independent copies
 * of the instruction (separate volatile PTX, separate registers); inactive
 * lanes are predicated off inside the asm, so the warp never diverges.
 * ldmatrix/stmatrix have no volatile form: access k of an iteration adds
 * k*128 bytes to every lane's address (same banks, same address equalities)
 * so that the compiler can neither merge nor hoist them.
 *   cycles/instr = (max_w end_w - min_w start_w) / (W * iters * 8)
 * with start after a __syncthreads() and end before one, read with clock64().
 * The launch's fixed cost (barriers, clock reads) is ~2% of a 1-cycle
 * instruction at 512 iterations and ~0.5% at the default 2048.
 * Under ncu (--ncu-iters N) each pattern is exactly one launch, in input order,
 * so the profiler's rows map to the input lines by position. */
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <signal.h>
#include <sys/prctl.h>

#include "model/atomic_form.h"
#include "base/proc.h"
#include "gpu.h"
#include "input.h"
#include "kernels.h"
#include "api/instr_json.h"
#include "ncu.h"
#include "ptxrun.h"
#include "tma.h"
#include "verify.h"
#include <cjson/cJSON.h>


enum { MAX_PATTERNS = 4096 };

/* ---- modes, options, errors -------------------------------------------------- */

enum Mode { MODE_TABLE, MODE_JSON, MODE_CSV, MODE_INFO, MODE_TMA };

struct Options {
    Mode mode = MODE_TABLE;
    int iters = 2048;
    int reps = 5;
    int warps = 16;
    int ncu = 0;          /* --ncu-iters: one launch per pattern, no warm-up (profiled) */
    int baseline = 0;     /* add a row for the loop without accesses */
    int device = 0;
    int no_ncu = 0;
    const char *no_ncu_why = NULL;
    int require_ncu = 0;
    const char *ncu_path = NULL;
    double ncu_timeout = 20.0;  /* the whole counter pass; the server allows 30 s in all */
    int ncu_profile_iters = 4;
    double timeout = 10.0;      /* per kernel */
    int alarm_s = 0;
    int quiet = 0;
    int ops_only = 0;     /* --info --ops: the instruction-kind table alone, no device */
};

static Mode g_mode = MODE_TABLE;

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* The one way out on failure: the message on stderr, and as JSON on stdout
 * in the JSON modes, with the input field it is about (or null). _exit: after
 * a hung kernel, the runtime's exit handlers could wait for it forever. */
__attribute__((noreturn, format(printf, 4, 5)))
static void die_at(const char *code, int status, const char *field, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (g_mode == MODE_JSON || g_mode == MODE_INFO || g_mode == MODE_TMA) {
        fputs(g_mode == MODE_INFO ? "{\"ok\":false,\"error\":{\"code\":" : "{\"error\":{\"code\":",
              stdout);
        json_str(stdout, code);
        fputs(",\"field\":", stdout);
        if (field && *field)
            json_str(stdout, field);
        else
            fputs("null", stdout);
        fputs(",\"message\":", stdout);
        json_str(stdout, msg);
        fputs("}}\n", stdout);
    }
    fprintf(stderr, "swizzlescope-measure: %s\n", msg);
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

#define die(code, status, ...) die_at(code, status, NULL, __VA_ARGS__)

enum { EXIT_USAGE = 2, EXIT_NO_DEVICE = 3, EXIT_CUDA = 4, EXIT_VERIFY = 5, EXIT_NCU = 6 };

__attribute__((noreturn))
static void cuda_fail(cudaError_t e, const char *call, int line, double timeout)
{
    if (e == cudaErrorLaunchTimeout)
        die("cuda", EXIT_CUDA, "%s: a kernel did not finish within %g s: the GPU may be busy or "
            "hung (probe.cu:%d)", call, timeout, line);
    die("cuda", EXIT_CUDA, "%s: %s (%s, probe.cu:%d)", call, cudaGetErrorString(e),
        cudaGetErrorName(e), line);
}

#define CHECK(call)                                              \
    do {                                                         \
        cudaError_t err_ = (call);                               \
        if (err_ != cudaSuccess)                                 \
            cuda_fail(err_, #call, __LINE__, 0);                 \
    } while (0)

static void usage(FILE *f)
{
    char ops[256];
    fprintf(f,
"usage: swizzlescope-measure [--json | --csv | --info] [options] < patterns\n"
"\n"
"Measures how many SM cycles (clock64) and shared-memory wavefronts (Nsight\n"
"Compute) one warp instruction costs on this machine's GPU, and checks that the\n"
"preset swizzles lose no element in shared memory.\n"
"\n"
"Input (stdin): JSON, one pattern or an array of them, as POST /api/conflicts:\n"
"  {\"name\":\"x\",\"op\":%s,\n"
"   \"bytes\":1|2|4|8|16,\"matrices\":1|2|4,\"trans\":false,\"func\":\"add\",\"type\":\"u32\",\n"
"   \"offsets\":[32 byte offsets, null = inactive lane]}  (func and type: atom/red only;\n"
"   they also take \"value\":\"lane\"|\"uniform\"|1|2|-1 (add.u32/s32, inc/dec.u32) and\n"
"   \"guard\":\"each\"|\"none\" (none: no branch per atomic, all 32 lanes on);\n"
"   cp.async also \"cache\":\"ca\"|\"cg\" and \"global_offsets\":[32 source offsets])\n"
"  or lines 'name op bytes matrices trans o0 ... o31' ('-' for an inactive lane;\n"
"  an atomic's op is its PTX form, e.g. atom.add.u32 4 1 0 ..., and may end in its\n"
"  value and guard: ... 1 none).\n"
"  For ldmatrix/stmatrix lane t gives the row address of row t%%8 of matrix t/8.\n"
"  Every pattern is checked with the server's instruction schema (what POST\n"
"  /api/measure accepts) before a GPU is looked for; then against the device.\n"
"\n"
"Modes:\n"
"  (default)        a table: name, op, cycles/instr, wavefronts (ncu), verify\n"
"  --json           JSON in, JSON out: {device, results[], ncu, verify} (the server's)\n"
"  --csv            the raw probe: CSV name,cycles_per_instr,raw_cycles,instructions\n"
"                   (no counters, no verify; tests/calib/run_calib.sh reads it)\n"
"  --info           the device and the instruction kinds as JSON ({ok, device,\n"
"                   kinds: GET /api/ops's answer}), nothing measured\n"
"  --info --ops     the instruction kinds alone (no device needed)\n"
"  --tma            TMA placement (cc 9.0+): stdin {\"swizzle_bytes\":0|32|64|128,\n"
"                   \"elem_bytes\":1|2|4|8,\"box\":[inner elements, rows(, planes)]};\n"
"                   the box is copied by cp.async.bulk.tensor into 1024-byte aligned\n"
"                   shared memory; out {ok, device, encode, encode_name, chunks,\n"
"                   written, slots: each 16-byte chunk's shared offset / 16, -1 lost}\n"
"  --ncu-iters N    profiler target: N iterations, exactly one launch per pattern,\n"
"                   CSV out (what the counter pass runs under ncu)\n"
"  --ptx FILE --kernel NAME --block X,Y,Z [--grid X,Y,Z] [--param V|null ...]\n"
"      [--dynamic-shared N] [--global-bytes N] [--json] [--keep DIR]\n"
"                   a kernel as compiled (issue 38): loads the PTX with the driver\n"
"                   (line info on), launches the entry once (each null param: its own\n"
"                   zero-filled buffer of --global-bytes, default 65536; scalars as the\n"
"                   entry's .param types read them), then under ncu (SourceCounters)\n"
"                   reports per kind ld/st/ldsm/stsm/atom/ldgsts the executed warp\n"
"                   instructions, Source-page wavefronts and ideal, per source line and\n"
"                   per SASS instruction (--keep DIR: ncu's CSV pages are left there;\n"
"                   --ncu-timeout there defaults to 120 s)\n"
"Options:\n"
"  --iters N        loop iterations (8 accesses each) per warp, default 2048\n"
"  --reps N         timed launches per pattern (an atomic: per starting phase, 19\n"
"                   phases), the fastest is kept, default 5\n"
"  --warps N        warps in the one block, 1..32, default 16\n"
"  --baseline       also time the loop with register moves instead of accesses\n"
"  --device N       CUDA device ordinal, default 0\n"
"  --no-ncu         cycles only (also when the environment sets SWZ_NO_NCU=1)\n"
"  --require-ncu    fail (exit 6) when the counters cannot be read\n"
"  --ncu PATH       the ncu to use (default: PATH, then /usr/local/cuda/bin/ncu)\n"
"  --ncu-timeout S  seconds for the whole counter pass, default 20\n"
"  --timeout S      seconds any one kernel may take, default 10\n"
"  --help           this text\n"
"\n"
"Counters: the kind's metrics (--info --ops, \"ncu\"): ncu's Source-page metric\n"
"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_* per executed instruction\n"
"(wavefronts_per_instr), the hardware l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*\n"
"and l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_* per instruction (null where\n"
"the kind names none).\n"
"Without ncu, or where profiling is not permitted, they are null with the reason.\n"
"\n"
"Exit codes: 0 ok; 2 bad input or usage; 3 no usable CUDA device or driver;\n"
"4 CUDA error (a kernel past --timeout included); 5 the swizzle round trip lost\n"
"elements; 6 --require-ncu and no counters. With --json/--info the error is\n"
"{\"error\":{\"code\":\"bad_input\"|\"no_device\"|\"cuda\"|\"verify_failed\"|\"ncu\",\n"
"\"field\":\"offsets[3]\"|...|null,\"message\":...}} on stdout (--info: {\"ok\":false,\n"
"\"error\":...}), and always on stderr. \"field\" names the input field as the API\n"
"would (\"body\" for the JSON or the input as a whole), null when not about input.\n",
            instr_kind_names(0, 0, 1, "|", ops, sizeof ops));
}

static int parse_int_arg(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static void parse_options(int argc, char **argv, Options *o)
{
    /* The mode first, so that a usage error is answered in its language. */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            o->mode = MODE_JSON;
        else if (!strcmp(argv[i], "--info"))
            o->mode = MODE_INFO;
        else if (!strcmp(argv[i], "--tma"))
            o->mode = MODE_TMA;
    }
    g_mode = o->mode;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int *dst = NULL, lo = 1, hi = 1 << 20;
        double *dsec = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--json") || !strcmp(a, "--info") || !strcmp(a, "--tma")) {
            continue;
        } else if (!strcmp(a, "--csv")) {
            if (o->mode == MODE_JSON || o->mode == MODE_INFO)
                die("bad_input", EXIT_USAGE, "--csv cannot be combined with --json or --info");
            o->mode = MODE_CSV;
            continue;
        } else if (!strcmp(a, "--baseline")) {
            o->baseline = 1;
            continue;
        } else if (!strcmp(a, "--no-ncu")) {
            o->no_ncu = 1;
            o->no_ncu_why = "--no-ncu was given: cycles only";
            continue;
        } else if (!strcmp(a, "--require-ncu")) {
            o->require_ncu = 1;
            continue;
        } else if (!strcmp(a, "--ops")) {
            if (o->mode != MODE_INFO)
                die("bad_input", EXIT_USAGE, "--ops goes with --info");
            o->ops_only = 1;
            continue;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
            continue;
        } else if (!strcmp(a, "--ncu")) {
            if (!v)
                die("bad_input", EXIT_USAGE, "--ncu needs a path");
            o->ncu_path = v;
            i++;
            continue;
        } else if (!strcmp(a, "--iters")) {
            dst = &o->iters;
        } else if (!strcmp(a, "--reps")) {
            dst = &o->reps, hi = 1000;
        } else if (!strcmp(a, "--warps")) {
            dst = &o->warps, hi = MAX_WARPS;
        } else if (!strcmp(a, "--ncu-iters")) {
            dst = &o->iters, o->ncu = 1;
            if (o->mode == MODE_TABLE)
                o->mode = MODE_CSV;
        } else if (!strcmp(a, "--device")) {
            dst = &o->device, lo = 0, hi = 1024;
        } else if (!strcmp(a, "--alarm")) {
            dst = &o->alarm_s, lo = 1, hi = 86400;
        } else if (!strcmp(a, "--ncu-timeout")) {
            dsec = &o->ncu_timeout;
        } else if (!strcmp(a, "--timeout")) {
            dsec = &o->timeout;
        } else {
            usage(stderr);
            die("bad_input", EXIT_USAGE, "unknown option '%s' (see --help)", a);
        }
        if (dsec) {
            char *end;
            double d = v ? strtod(v, &end) : 0;
            if (!v || *end != '\0' || !(d > 0 && d <= 86400))
                die("bad_input", EXIT_USAGE, "%s needs a number of seconds in (0, 86400]", a);
            *dsec = d;
        } else if (!v || parse_int_arg(v, lo, hi, dst)) {
            die("bad_input", EXIT_USAGE, "%s needs an integer in %d..%d", a, lo, hi);
        }
        i++;
    }
    if (o->ncu)
        o->reps = 1;
    const char *env = getenv("SWZ_NO_NCU");
    if (!o->no_ncu && env && *env && strcmp(env, "0") != 0) {
        o->no_ncu = 1;
        o->no_ncu_why = "SWZ_NO_NCU is set in the environment: cycles only";
    }
    g_mode = o->mode;
}

/* ---- input ------------------------------------------------------------------- */

enum { INPUT_LIMIT = 16 << 20 };

static char *read_all(FILE *in, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = (char *)malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, in);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            if (cap >= INPUT_LIMIT)
                die("bad_input", EXIT_USAGE, "input larger than %d bytes", INPUT_LIMIT);
            cap *= 2;
            char *nb = (char *)realloc(buf, cap + 1);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    if (!buf)
        die("bad_input", EXIT_USAGE, "out of memory reading the input");
    if (ferror(in))
        die("bad_input", EXIT_USAGE, "reading stdin failed");
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Every pattern is read and checked before the GPU is touched, so that a
 * bad one costs no launch, and a machine without a GPU still answers it. */
static int read_patterns(const Options *o, struct input_pattern *pats, int max)
{
    size_t len;
    struct sz_error err;
    char where[INPUT_WHERE_MAX];
    char *text = read_all(stdin, &len);
    int n = input_parse(text, len, o->mode == MODE_JSON, pats, max, &err, where);
    free(text);
    if (n < 0)
        die_at("bad_input", EXIT_USAGE, err.field, "%s%s%s", where, where[0] ? ": " : "",
               err.message);
    return n;
}

/* ---- the device ----------------------------------------------------------------- */

struct DeviceInfo {
    cudaDeviceProp prop;
    int clock_khz, driver, runtime;
};

static void device_open(int dev, DeviceInfo *d)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorInsufficientDriver) {
        /* The runtime says "insufficient" also when there is no driver at all. */
        void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!lib)
            die("no_device", EXIT_NO_DEVICE, "No GPU on this machine: no NVIDIA driver "
                "(libcuda.so.1 cannot be loaded: %s)", dlerror());
        dlclose(lib);
    }
    if (e != cudaSuccess)
        die("no_device", EXIT_NO_DEVICE, "cudaGetDeviceCount: %s (%s)", cudaGetErrorString(e),
            cudaGetErrorName(e));
    if (n == 0)
        die("no_device", EXIT_NO_DEVICE, "No GPU on this machine (cudaGetDeviceCount: no CUDA "
            "device is present)");
    if (dev >= n)
        die("no_device", EXIT_NO_DEVICE, "no CUDA device %d (%d present)", dev, n);
    e = cudaGetDeviceProperties(&d->prop, dev);
    if (e == cudaErrorDevicesUnavailable)
        die("no_device", EXIT_NO_DEVICE, "CUDA device %d: %s", dev, cudaGetErrorString(e));
    CHECK(e);
    CHECK(cudaDeviceGetAttribute(&d->clock_khz, cudaDevAttrClockRate, dev));
    CHECK(cudaDriverGetVersion(&d->driver));
    CHECK(cudaRuntimeGetVersion(&d->runtime));
    if (d->prop.major < 8)
        die("no_device", EXIT_NO_DEVICE, "%s has compute capability %d.%d; this build of the "
            "tool needs 8.0 or newer", d->prop.name, d->prop.major, d->prop.minor);
}

static void print_device(const DeviceInfo *d)
{
    fputs("{\"name\":", stdout);
    json_str(stdout, d->prop.name);
    printf(",\"cc\":\"%d.%d\",\"sms\":%d,\"sm_clock_khz\":%d,\"driver_version\":%d,"
           "\"runtime_version\":%d,\"smem_per_block_optin\":%zu}",
           d->prop.major, d->prop.minor, d->prop.multiProcessorCount, d->clock_khz, d->driver,
           d->runtime, (size_t)d->prop.sharedMemPerBlockOptin);
}

/* Checks what only the device can tell, with the schema's own rule
 * (instr_check_gpu): its shared memory and its ops. */
static void validate_for_device(const struct input_pattern *pats, int n, const DeviceInfo *d)
{
    struct instr_gpu gpu = {(uint32_t)d->prop.sharedMemPerBlockOptin,
                            d->prop.major * 10 + d->prop.minor};
    struct sz_error err;
    for (int i = 0; i < n; i++) {
        if (instr_check_gpu(&pats[i].in, &gpu, &err) < 0)
            die_at("bad_input", EXIT_USAGE, err.field, "%s: %s (on %s)", pats[i].name,
                   err.message, d->prop.name);
        if (kernel_for(&pats[i].in) == NULL)
            die_at("bad_input", EXIT_USAGE,
                   pats[i].in.value_kind != INSTR_VALUE_LANE ? "value" : "type",
                   "%s: this build has no kernel for %s", pats[i].name,
                   instr_op_name(pats[i].in.op));
    }
}

/* ---- timing --------------------------------------------------------------------- */

struct DeviceBuffers {
    long long *times;  /* [2 * MAX_WARPS]: starts, then ends */
    uint32_t *sink;    /* [MAX_WARPS * 32] */
    unsigned char *gsrc;   /* cp.async's global source: KERNELS_GSRC_BYTES, or NULL */
    cudaEvent_t done;
};

struct Timing {
    long long span; /* max end - min start, best of the repetitions */
    long long instructions;
};

/* The warps' starting phases an atomic is timed at (ProbeArgs.stagger: warp w
 * starts w * s cycles after the barrier), the fastest kept.  Below 16 warps
 * an atomic loop settles in one of several states that the warps' phase at
 * the start picks: the same binary read 1.88 or 2.48 cycles an instruction at
 * 5 warps from launch to launch, and where ptxas places the loop moves which
 * state is likely by 35% (tests/calib/atomics_warps/README.md, "Placement
 * probe" and "Stagger probe", H200, 2026-11-28/29).  Over these 19 phases the
 * fastest state is found every time: two processes read the same to four
 * digits on all 288 (op, warps, placement) cells at 4..12 warps, where
 * fastest-of-5 at phase 0 alone differed by up to 4.0% between them; leaving
 * out 64..128 moved one cell by 1.2% (stagger_summary.txt).  Where the loop
 * sits still moves the fastest state by up to 5.7%: a reading belongs to its
 * build's SASS, which the calibration data record beside it.
 * The span still runs from the first warp's start, so a phase adds at most
 * 128 * (W - 1) cycles (0.7% of the shortest 32-warp launch at 2048
 * iterations); it wins only where its state is faster by more than that.
 * At the default 16 warps too: the phase-0 reading there hangs on the code's
 * placement as well (adding this wait before the loop moved atom.exch.b64's
 * 16-warp rows from within 1% of rules A1-A13 to 2.8% over them at phase 0;
 * at the fastest phase 195 of the GPU suite's 196 atomic rows are within
 * 1.4%; atom.add.u32 w4_distinct, guard each, read 2.150 where the rule
 * said 2.2, and A5's atom floor was refitted to 2.12 + 0.04w: all 196 within
 * 2%; H200, 2026-11-29). */
static const int STAGGERS[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32, 48, 64, 96, 128};
enum { N_STAGGERS = sizeof STAGGERS / sizeof STAGGERS[0] };

static Timing run_one(kernel_fn kernel, const struct instr *p, const Options *o,
                      const DeviceBuffers *b)
{
    ProbeArgs a;
    long long h[2 * MAX_WARPS];
    const uint32_t smem = instr_smem_bytes(p) + instr_kind(p->op)->smem_spare;
    const int phases = o->ncu || !instr_is_atomic(p->op) ? 1 : N_STAGGERS;
    /* the first launch is a warm-up; under ncu one launch a pattern */
    const int launches = o->ncu ? 1 : phases * o->reps + 1;
    Timing best = {-1, (long long)o->warps * o->iters * ACCESSES_PER_ITER};

    input_lanes(p, a.off, &a.active);
    for (int t = 0; t < INSTR_LANES; t++)
        a.goff[t] = instr_is_copy(p->op) ? p->global_offsets[t] : 0;
    a.gsrc = b->gsrc;
    a.seed = 0x5a5a0000u;
    a.zero = 0;
    a.stagger = 0;
    a.iters = o->iters;
    a.t_start = b->times;
    a.t_end = b->times + MAX_WARPS;
    a.sink = b->sink;
    if (smem > 48u * 1024u)
        CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));

    for (int l = 0; l < launches; l++) {
        a.stagger = l == 0 ? 0 : STAGGERS[(l - 1) / o->reps];
        kernel<<<1, o->warps * 32, smem>>>(a);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(b->done));
        cudaError_t e = gpu_wait(b->done, o->timeout);
        if (e != cudaSuccess)
            cuda_fail(e, "probe kernel", __LINE__, o->timeout);
        CHECK(cudaMemcpy(h, b->times, sizeof h, cudaMemcpyDeviceToHost));
        long long lo = h[0], hi = h[MAX_WARPS];
        for (int w = 1; w < o->warps; w++) {
            if (h[w] < lo) lo = h[w];
            if (h[MAX_WARPS + w] > hi) hi = h[MAX_WARPS + w];
        }
        if (l == 0 && launches > 1)
            continue;
        if (best.span < 0 || hi - lo < best.span)
            best.span = hi - lo;
    }
    return best;
}

/* ---- output ----------------------------------------------------------------------- */

static double cpi(Timing t) { return (double)t.span / (double)t.instructions; }

static void print_csv_row(const char *name, Timing t)
{
    printf("%s,%.4f,%lld,%lld\n", name, cpi(t), t.span, t.instructions);
}

static void print_num_or_null(int has, double v)
{
    if (has)
        printf("%.4f", v);
    else
        fputs("null", stdout);
}

static const char *op_label(const struct instr *p, char *buf, size_t cap)
{
    if (instr_is_atomic(p->op))
        instr_form_name(p, buf, cap);
    else if (instr_is_copy(p->op))
        snprintf(buf, cap, "%s.%u.%s", instr_kind(p->op)->short_name, p->bytes * 8,
                 p->cg ? "cg" : "ca");
    else if (!instr_is_matrix(p->op))
        snprintf(buf, cap, "%s.%u", instr_kind(p->op)->short_name, p->bytes * 8);
    else
        snprintf(buf, cap, "%s.x%u%s", instr_kind(p->op)->short_name, p->matrices,
                 p->trans ? ".t" : "");
    return buf;
}

struct Report {
    const Options *o;
    const DeviceInfo *dev;
    const struct input_pattern *pats;
    int n;
    const Timing *t;
    const ncu_counts *counts;    /* NULL when no pass ran */
    ncu_status ncu;
    Timing baseline;
    int has_baseline;
    verify_result verify;
    double t_total, t_init, t_clock, t_ncu;
};

static void print_json(const Report *r)
{
    const Options *o = r->o;
    fputs("{\"device\":", stdout);
    print_device(r->dev);
    printf(",\"config\":{\"warps\":%d,\"iters\":%d,\"reps\":%d,\"accesses_per_iter\":%d,"
           "\"ncu_iters\":%d},\"results\":[", o->warps, o->iters, o->reps, ACCESSES_PER_ITER,
           o->ncu_profile_iters);
    for (int i = 0; i < r->n; i++) {
        const struct instr *p = &r->pats[i].in;
        const ncu_counts *c = r->counts ? &r->counts[i] : NULL;
        fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
        json_str(stdout, r->pats[i].name);
        if (instr_is_atomic(p->op)) {
            printf(",\"func\":\"%s\",\"type\":\"%s\"", instr_func_name(p->func),
                   instr_type_name(p->type));
            char operand[64];
            printf(",%s", atomic_form_json(p, operand, sizeof operand));
        }
        if (instr_is_copy(p->op))
            printf(",\"cache\":\"%s\"", p->cg ? "cg" : "ca");
        printf(",\"op\":\"%s\",\"bytes\":%u,\"matrices\":%u,\"trans\":%s,"
               "\"cycles_per_instr\":%.4f,\"raw_cycles\":%lld,\"instructions\":%lld,"
               "\"warps\":%d,\"iters\":%d,\"wavefronts_per_instr\":",
               instr_op_name(p->op), p->bytes, p->matrices, p->trans ? "true" : "false",
               cpi(r->t[i]), r->t[i].span, r->t[i].instructions, o->warps, o->iters);
        print_num_or_null(c && c->has_src, c ? c->wavefronts : 0);
        fputs(",\"wavefronts_hw_per_instr\":", stdout);
        print_num_or_null(c && c->has_hw, c ? c->wavefronts_hw : 0);
        fputs(",\"bank_conflicts_per_instr\":", stdout);
        print_num_or_null(c && c->has_bc, c ? c->bank_conflicts : 0);
        fputs(",\"wavefronts_sm_per_instr\":", stdout);
        print_num_or_null(c && c->has_sm, c ? c->wavefronts_sm : 0);
        fputs(",\"arbitration_per_instr\":", stdout);
        print_num_or_null(c && c->has_arb, c ? c->arbitration : 0);
        fputs(",\"ncu_instructions\":", stdout);
        if (c && (c->has_src || c->has_hw))
            printf("%.0f", c->instructions);
        else
            fputs("null", stdout);
        fputc('}', stdout);
    }
    fputs("]", stdout);
    if (r->has_baseline)
        printf(",\"baseline\":{\"cycles_per_instr\":%.4f,\"raw_cycles\":%lld,\"instructions\":%lld}",
               cpi(r->baseline), r->baseline.span, r->baseline.instructions);
    printf(",\"ncu\":{\"used\":%s,\"reason\":", r->ncu.used ? "true" : "false");
    json_str(stdout, r->ncu.reason);
    fputs(",\"version\":", stdout);
    if (r->ncu.version[0])
        json_str(stdout, r->ncu.version);
    else
        fputs("null", stdout);
    fputs(",\"path\":", stdout);
    if (r->ncu.path[0])
        json_str(stdout, r->ncu.path);
    else
        fputs("null", stdout);
    printf(",\"profiled\":%d,\"seconds\":%.3f}", r->ncu.profiled, r->ncu.seconds);
    printf(",\"verify\":{\"ok\":%s,\"swizzles\":[", r->verify.ok ? "true" : "false");
    for (int i = 0; i < r->verify.count; i++) {
        if (i)
            fputc(',', stdout);
        json_str(stdout, r->verify.names[i]);
    }
    printf("],\"elements\":%ld,\"mismatches\":%ld}", r->verify.elements, r->verify.mismatches);
    printf(",\"elapsed_s\":{\"total\":%.3f,\"init\":%.3f,\"clock\":%.3f,\"ncu\":%.3f}}\n",
           r->t_total, r->t_init, r->t_clock, r->t_ncu);
}

static void print_table(const Report *r)
{
    const Options *o = r->o;
    const DeviceInfo *d = r->dev;
    char op[32];
    printf("device   %s (cc %d.%d, %d SMs, %d MHz, driver %d.%d, runtime %d.%d)\n", d->prop.name,
           d->prop.major, d->prop.minor, d->prop.multiProcessorCount, d->clock_khz / 1000,
           d->driver / 1000, d->driver % 1000 / 10, d->runtime / 1000, d->runtime % 1000 / 10);
    printf("clock64  %d warps x %d iterations x %d accesses per launch, fastest of %d\n",
           o->warps, o->iters, ACCESSES_PER_ITER, o->reps);
    printf("\n%-40s %-10s %12s %11s %8s %10s\n", "name", "op", "cycles/instr", "wavefronts",
           "wf(hw)", "conflicts");
    if (r->has_baseline)
        printf("%-40s %-10s %12.3f %11s %8s %10s\n", "(loop without accesses)", "-",
               cpi(r->baseline), "-", "-", "-");
    for (int i = 0; i < r->n; i++) {
        const ncu_counts *c = r->counts ? &r->counts[i] : NULL;
        char wf[16] = "-", hw[16] = "-", bc[16] = "-";
        if (c && c->has_src) snprintf(wf, sizeof wf, "%.2f", c->wavefronts);
        if (c && c->has_hw) snprintf(hw, sizeof hw, "%.2f", c->wavefronts_hw);
        if (c && c->has_bc) snprintf(bc, sizeof bc, "%.2f", c->bank_conflicts);
        printf("%-40.40s %-10s %12.3f %11s %8s %10s\n", r->pats[i].name,
               op_label(&r->pats[i].in, op, sizeof op), cpi(r->t[i]), wf, hw, bc);
    }
    if (r->ncu.used)
        printf("\nncu      %s%s%s, %d of %d patterns profiled in %.1f s%s%s\n", r->ncu.path,
               r->ncu.version[0] ? " " : "", r->ncu.version, r->ncu.profiled, r->n,
               r->ncu.seconds, r->ncu.reason[0] ? ": " : "", r->ncu.reason);
    else
        printf("\nncu      not used: %s\n", r->ncu.reason);
    printf("verify   %s: %d swizzles, %ld elements, %ld mismatches\n",
           r->verify.ok ? "ok" : "FAILED", r->verify.count, r->verify.elements,
           r->verify.mismatches);
}

/* ---- TMA placement (--tma) -------------------------------------------------------- */

/* One box from stdin (tma.h), placed on the device, printed as JSON. */
static int run_tma(const Options *o)
{
    size_t len;
    char *text = read_all(stdin, &len);
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    if (!cJSON_IsObject(j))
        die_at("bad_input", EXIT_USAGE, "body", "--tma reads one JSON object");
    struct tma_request q;
    memset(&q, 0, sizeof q);
    q.swizzle_enum = -1;
    const cJSON *sw = cJSON_GetObjectItemCaseSensitive(j, "swizzle_bytes");
    const cJSON *eb = cJSON_GetObjectItemCaseSensitive(j, "elem_bytes");
    const cJSON *box = cJSON_GetObjectItemCaseSensitive(j, "box");
    if (!cJSON_IsNumber(sw) || !cJSON_IsNumber(eb))
        die_at("bad_input", EXIT_USAGE, !cJSON_IsNumber(sw) ? "swizzle_bytes" : "elem_bytes",
               "swizzle_bytes and elem_bytes are numbers");
    q.swizzle_bytes = sw->valueint;
    q.elem_bytes = eb->valueint;
    q.rank = cJSON_GetArraySize(box);
    if (!cJSON_IsArray(box) || q.rank < 2 || q.rank > 3)
        die_at("bad_input", EXIT_USAGE, "box", "box is [inner elements, rows] or "
               "[inner elements, rows, planes]");
    q.box[2] = 1;
    for (int d = 0; d < q.rank; d++) {
        const cJSON *v = cJSON_GetArrayItem(box, d);
        if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 4096)
            die_at("bad_input", EXIT_USAGE, "box", "box[%d] must be an integer in 1..4096", d);
        q.box[d] = (uint32_t)v->valueint;
    }
    cJSON_Delete(j);
    const char *field;
    char msg[200];
    if (tma_check(&q, &field, msg, sizeof msg) < 0)
        die_at("bad_input", EXIT_USAGE, field, "%s", msg);
    DeviceInfo dev;
    device_open(o->device, &dev);
    if (dev.prop.major < 9)
        die("no_device", EXIT_NO_DEVICE, "%s has compute capability %d.%d; TMA needs 9.0",
            dev.prop.name, dev.prop.major, dev.prop.minor);
    CHECK(cudaSetDevice(o->device));
    static struct tma_result r;
    cudaError_t e = tma_place(&q, o->timeout, &r);
    if (e != cudaSuccess)
        cuda_fail(e, "tma_place", __LINE__, o->timeout);
    fputs("{\"ok\":true,\"device\":", stdout);
    print_device(&dev);
    printf(",\"request\":{\"swizzle_bytes\":%d,\"elem_bytes\":%d,\"box\":[%u,%u%s",
           q.swizzle_bytes, q.elem_bytes, q.box[0], q.box[1], q.rank == 3 ? "," : "");
    if (q.rank == 3)
        printf("%u", q.box[2]);
    printf("]},\"encode\":%d,\"encode_name\":", r.encode);
    json_str(stdout, r.encode_name);
    printf(",\"chunks\":%d,\"written\":%d,\"slots\":", r.nchunks, r.written);
    if (r.encode != 0) {
        fputs("null}\n", stdout);
        return 0;
    }
    fputc('[', stdout);
    for (int i = 0; i < r.nchunks; i++)
        printf("%s%d", i ? "," : "", r.slots[i]);
    fputs("]}\n", stdout);
    return 0;
}

/* ---- main ------------------------------------------------------------------------- */

static void self_path(char *out, size_t cap, const char *argv0)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n > 0)
        out[n] = '\0';
    else
        snprintf(out, cap, "%s", argv0);
}

int main(int argc, char **argv)
{
    Options o;
    DeviceInfo dev;
    DeviceBuffers b;
    static struct input_pattern pats[MAX_PATTERNS];
    static Timing times[MAX_PATTERNS];
    static ncu_counts counts[MAX_PATTERNS];
    const double t0 = proc_now();

    /* Die with whoever started us (the server, or ncu): a GPU run nobody
     * waits for any more must not hold the GPU.  The parent may already be
     * gone by the time prctl runs: then it is init's pid that we see. */
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        return EXIT_NO_DEVICE;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--ptx")) { /* a kernel as compiled: its own mode (ptxrun.cu) */
            signal(SIGPIPE, SIG_IGN);
            return ptxrun_main(argc, argv);
        }
    parse_options(argc, argv, &o);
    signal(SIGPIPE, SIG_IGN); /* proc.h: ncu may quit without reading its input */
    if (o.alarm_s)
        alarm((unsigned)o.alarm_s); /* under ncu: end even if the profiler is killed */

    if (o.mode == MODE_INFO) {
        /* The instruction kinds first: they need no device, and a machine
         * without one still answers them (with ok false and the error). */
        char *kinds = NULL;
        struct sz_error kerr;
        if (instr_json_kinds(&kinds, &kerr) < 0)
            die("bad_input", EXIT_USAGE, "%s", kerr.message);
        if (o.ops_only) {
            printf("%s\n", kinds);
            return 0;
        }
        device_open(o.device, &dev);
        fputs("{\"ok\":true,\"device\":", stdout);
        print_device(&dev);
        printf(",\"kinds\":%s}\n", kinds);
        free(kinds);
        return 0;
    }

    if (o.mode == MODE_TMA)
        return run_tma(&o);

    int n = read_patterns(&o, pats, MAX_PATTERNS);
    const int counters = o.mode == MODE_JSON || o.mode == MODE_TABLE;
    Report r;
    memset(&r, 0, sizeof r);
    char ncu_path[512] = "", self[4096];
    int want_ncu = counters && !o.no_ncu;
    if (counters && o.no_ncu) {
        snprintf(r.ncu.reason, sizeof r.ncu.reason, "%s", o.no_ncu_why);
    } else if (want_ncu) {
        if (ncu_find(o.ncu_path, ncu_path, sizeof ncu_path) < 0) {
            snprintf(r.ncu.reason, sizeof r.ncu.reason, "%s", ncu_path);
            want_ncu = 0;
        } else {
            ncu_version_start(ncu_path); /* overlaps with the GPU work below */
        }
    }
    if (o.require_ncu && !want_ncu)
        die("ncu", EXIT_NCU, "%s", r.ncu.reason);

    device_open(o.device, &dev);
    validate_for_device(pats, n, &dev);
    CHECK(cudaSetDevice(o.device));
    CHECK(cudaMalloc(&b.times, sizeof(long long) * 2 * MAX_WARPS));
    CHECK(cudaMalloc(&b.sink, sizeof(uint32_t) * MAX_WARPS * 32));
    b.gsrc = NULL;
    for (int i = 0; i < n && b.gsrc == NULL; i++)
        if (instr_is_copy(pats[i].in.op)) {
            CHECK(cudaMalloc(&b.gsrc, KERNELS_GSRC_BYTES));
            CHECK(cudaMemset(b.gsrc, 7, KERNELS_GSRC_BYTES));
        }
    CHECK(cudaEventCreateWithFlags(&b.done, cudaEventDisableTiming));
    const double t_ready = proc_now();

    if (counters) {
        cudaError_t e = verify_presets(&r.verify, o.timeout);
        if (e != cudaSuccess)
            cuda_fail(e, "verify_presets", __LINE__, o.timeout);
        if (!r.verify.ok) {
            char detail[256] = "";
            size_t len = 0;
            for (int i = 0; i < r.verify.count; i++)
                if (r.verify.per[i] && len < sizeof detail)
                    len += (size_t)snprintf(detail + len, sizeof detail - len, " %s: %ld;",
                                            r.verify.names[i], r.verify.per[i]);
            die("verify_failed", EXIT_VERIFY, "the swizzle round trip in shared memory lost "
                "%ld of %ld elements:%s", r.verify.mismatches, r.verify.elements, detail);
        }
    }

    if (o.mode == MODE_CSV && !o.quiet) {
        printf("# swizzlescope-measure device=\"%s\" cc=%d.%d sms=%d warps=%d iters=%d reps=%d mode=%s\n",
               dev.prop.name, dev.prop.major, dev.prop.minor, dev.prop.multiProcessorCount,
               o.warps, o.iters, o.reps, o.ncu ? "ncu" : "clock64");
        printf("name,cycles_per_instr,raw_cycles,instructions\n");
    }
    if (o.baseline && !o.ncu) {
        struct instr base;
        instr_defaults(&base, INSTR_LD);
        memset(base.offsets, 0, sizeof base.offsets);
        r.baseline = run_one(kernel_baseline(), &base, &o, &b);
        r.has_baseline = 1;
        if (o.mode == MODE_CSV && !o.quiet)
            print_csv_row("_baseline", r.baseline);
    }
    for (int i = 0; i < n; i++) {
        if (o.ncu)
            fprintf(stderr, "ncu-launch %d %s\n", i, pats[i].name);
        times[i] = run_one(kernel_for(&pats[i].in), &pats[i].in, &o, &b);
        if (o.mode == MODE_CSV && !o.quiet) {
            print_csv_row(pats[i].name, times[i]);
            fflush(stdout);
        }
    }
    const double t_clocked = proc_now();
    CHECK(cudaEventDestroy(b.done));
    CHECK(cudaFree(b.times));
    CHECK(cudaFree(b.sink));
    if (b.gsrc)
        CHECK(cudaFree(b.gsrc));
    if (o.mode == MODE_CSV)
        return 0;

    if (want_ncu) {
        /* The profiled child takes the GPU alone: give our context back. */
        CHECK(cudaDeviceReset());
        self_path(self, sizeof self, argv[0]);
        ncu_config cfg;
        cfg.ncu = ncu_path;
        cfg.self = self;
        cfg.device = o.device;
        cfg.warps = o.warps;
        cfg.iters = o.ncu_profile_iters;
        cfg.deadline = t0 + o.ncu_timeout;
        cfg.chunk = 48;
        ncu_profile(&cfg, pats, n, counts, &r.ncu);
        ncu_version_finish(&r.ncu, proc_now() + 2.0);
        r.counts = counts;
        if (o.require_ncu && !r.ncu.used)
            die("ncu", EXIT_NCU, "%s", r.ncu.reason);
    }
    r.o = &o;
    r.dev = &dev;
    r.pats = pats;
    r.n = n;
    r.t = times;
    r.t_init = t_ready - t0;
    r.t_clock = t_clocked - t_ready;
    r.t_ncu = want_ncu ? proc_now() - t_clocked : 0;
    r.t_total = proc_now() - t0;
    if (o.mode == MODE_JSON)
        print_json(&r);
    else
        print_table(&r);
    fflush(stdout);
    return 0;
}
