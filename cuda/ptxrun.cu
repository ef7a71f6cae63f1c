/* ptxrun.cu: the measurement tool's --ptx mode (issue 38, item 6): loads a PTX module with
 * the driver API, launches one entry as given (grid, block, dynamic shared memory, scalar
 * parameters, each null parameter its own zero-filled buffer), then re-runs itself under
 * Nsight Compute (SourceCounters and the per-kind shared metrics) and reports the launch's
 * totals, its source lines and its SASS instructions. It must never hang (every wait has a
 * deadline), never crash on a profiler failure (that is a reason in the answer), and it
 * links no libcuda: the driver is opened at run time, so the tool still starts without one. */
#include <cuda.h>

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/proc.h"
#include "ncu.h"
#include "ptxhost.h"
#include "ptxrun.h"

enum { EXIT_USAGE = 2, EXIT_NO_DEVICE = 3, EXIT_CUDA = 4, EXIT_NCU = 6 };

static int g_json;

__attribute__((noreturn, format(printf, 3, 4)))
static void fail(const char *code, int status, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (g_json) {
        fputs("{\"error\":{\"code\":", stdout);
        ptxm_json_str(stdout, code);
        fputs(",\"field\":null,\"message\":", stdout);
        ptxm_json_str(stdout, msg);
        fputs("}}\n", stdout);
    }
    fprintf(stderr, "swizzlescope-measure: %s\n", msg);
    fflush(stdout);
    fflush(stderr);
    _exit(status); /* after a hung kernel the driver's exit handlers could wait forever */
}

/* ---- the driver, opened at run time ------------------------------------------------ */

/* The entry points by their versioned names (cuda.h maps cuMemAlloc to cuMemAlloc_v2). */
static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DriverGetVersion)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*PrimaryCtxReset)(CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *);  /* 12.4+, may lack */
    CUresult (*FuncGetAttribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*FuncSetAttribute)(CUfunction, CUfunction_attribute, int);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
    CUresult (*StreamQuery)(CUstream);
    CUresult (*GetErrorName)(CUresult, const char **);
    CUresult (*GetErrorString)(CUresult, const char **);
} drv;

static void driver_open(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        fail("no_device", EXIT_NO_DEVICE, "No GPU on this machine: no NVIDIA driver "
             "(libcuda.so.1 cannot be loaded: %s)", dlerror());
    struct { void **slot; const char *name; int optional; } syms[] = {
        {(void **)&drv.Init, "cuInit", 0},
        {(void **)&drv.DriverGetVersion, "cuDriverGetVersion", 0},
        {(void **)&drv.DeviceGet, "cuDeviceGet", 0},
        {(void **)&drv.DeviceGetCount, "cuDeviceGetCount", 0},
        {(void **)&drv.DeviceGetName, "cuDeviceGetName", 0},
        {(void **)&drv.DeviceGetAttribute, "cuDeviceGetAttribute", 0},
        {(void **)&drv.PrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 0},
        {(void **)&drv.PrimaryCtxReset, "cuDevicePrimaryCtxReset_v2", 0},
        {(void **)&drv.CtxSetCurrent, "cuCtxSetCurrent", 0},
        {(void **)&drv.ModuleLoadDataEx, "cuModuleLoadDataEx", 0},
        {(void **)&drv.ModuleGetFunction, "cuModuleGetFunction", 0},
        {(void **)&drv.FuncGetParamInfo, "cuFuncGetParamInfo", 1},
        {(void **)&drv.FuncGetAttribute, "cuFuncGetAttribute", 0},
        {(void **)&drv.FuncSetAttribute, "cuFuncSetAttribute", 0},
        {(void **)&drv.MemAlloc, "cuMemAlloc_v2", 0},
        {(void **)&drv.MemsetD8, "cuMemsetD8_v2", 0},
        {(void **)&drv.LaunchKernel, "cuLaunchKernel", 0},
        {(void **)&drv.StreamQuery, "cuStreamQuery", 0},
        {(void **)&drv.GetErrorName, "cuGetErrorName", 0},
        {(void **)&drv.GetErrorString, "cuGetErrorString", 0},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        *syms[i].slot = dlsym(lib, syms[i].name);
        if (!*syms[i].slot && !syms[i].optional)
            fail("no_device", EXIT_NO_DEVICE, "the NVIDIA driver lacks %s: it is too old for "
                 "this tool", syms[i].name);
    }
}

__attribute__((noreturn))
static void cu_fail(CUresult e, const char *what)
{
    const char *name = "?", *text = "?";
    drv.GetErrorName(e, &name);
    drv.GetErrorString(e, &text);
    if (e == CUDA_ERROR_NO_DEVICE || e == CUDA_ERROR_NOT_INITIALIZED || e == CUDA_ERROR_INVALID_DEVICE)
        fail("no_device", EXIT_NO_DEVICE, "%s: %s (%s)", what, text, name);
    fail("cuda", EXIT_CUDA, "%s: %s (%s)", what, text, name);
}

#define CU(call, what)                      \
    do {                                    \
        CUresult e_ = (call);               \
        if (e_ != CUDA_SUCCESS)             \
            cu_fail(e_, what);              \
    } while (0)

/* ---- the launch ------------------------------------------------------------------- */

struct launch {
    struct ptxm_args a;
    char *ptx;
    char entry[512];
    struct ptxm_param ps[PTXM_MAX_PARAMS];
    int nps;
    unsigned char values[PTXM_MAX_PARAMS][256];
    /* the device */
    CUdevice dev;
    char name[256];
    int cc_major, cc_minor, driver, static_shared, regs;
};

static char *read_file(const char *path, size_t limit)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("bad_input", EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = (char *)malloc(cap + 1);
    for (;;) {
        if (!buf)
            fail("bad_input", EXIT_USAGE, "out of memory reading %s", path);
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            if (cap >= limit)
                fail("bad_input", EXIT_USAGE, "%s is larger than %zu bytes", path, limit);
            cap *= 2;
            char *nb = (char *)realloc(buf, cap + 1);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        fail("bad_input", EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    if (memchr(buf, '\0', n))
        fail("bad_input", EXIT_USAGE, "%s is not PTX text (it holds a NUL byte)", path);
    buf[n] = '\0';
    return buf;
}

/* Everything that needs no GPU: the file, the entry, the parameters' values. */
static void check_input(struct launch *L)
{
    char msg[PTXM_MSG];
    L->ptx = read_file(L->a.ptx_path, 64u << 20);
    if (ptxm_find_entry(L->ptx, L->a.kernel, L->entry, sizeof L->entry, L->ps, PTXM_MAX_PARAMS,
                        &L->nps, msg, sizeof msg) < 0)
        fail("bad_input", EXIT_USAGE, "%s: %s", L->a.ptx_path, msg);
    if (L->a.nparams != L->nps) {
        char list[1024] = "";
        size_t len = 0;
        for (int i = 0; i < L->nps && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s.%s %s", i ? ", " : "",
                                    L->ps[i].type, L->ps[i].name);
        fail("bad_input", EXIT_USAGE, "%s takes %d parameter%s (%s); %d --param given", L->entry,
             L->nps, L->nps == 1 ? "" : "s", L->nps ? list : "none", L->a.nparams);
    }
    for (int i = 0; i < L->nps; i++) {
        if (L->ps[i].size > (int)sizeof L->values[i])
            fail("bad_input", EXIT_USAGE, "%s: parameter %d (%s) is %d bytes: too large",
                 L->entry, i, L->ps[i].name, L->ps[i].size);
        if (ptxm_encode_param(&L->ps[i], L->a.params[i].is_null, L->a.params[i].text,
                              L->values[i], msg, sizeof msg) < 0)
            fail("bad_input", EXIT_USAGE, "--param %d: %s", i + 1, msg);
    }
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Loads the module, checks the entry against the driver's view, launches once and waits
 * (with the deadline). Leaves the context current. */
static void run_launch(struct launch *L)
{
    int n = 0;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CUresult e = drv.Init(0);
    if (e != CUDA_SUCCESS)
        cu_fail(e, "cuInit (no usable NVIDIA GPU or driver)");
    CU(drv.DeviceGetCount(&n), "cuDeviceGetCount");
    if (n == 0)
        fail("no_device", EXIT_NO_DEVICE, "No GPU on this machine (no CUDA device is present)");
    if (L->a.device >= n)
        fail("no_device", EXIT_NO_DEVICE, "no CUDA device %d (%d present)", L->a.device, n);
    CU(drv.DeviceGet(&L->dev, L->a.device), "cuDeviceGet");
    CU(drv.DeviceGetName(L->name, sizeof L->name, L->dev), "cuDeviceGetName");
    CU(drv.DeviceGetAttribute(&L->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, L->dev),
       "cuDeviceGetAttribute");
    CU(drv.DeviceGetAttribute(&L->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, L->dev),
       "cuDeviceGetAttribute");
    CU(drv.DriverGetVersion(&L->driver), "cuDriverGetVersion");
    CU(drv.PrimaryCtxRetain(&ctx, L->dev), "cuDevicePrimaryCtxRetain");
    CU(drv.CtxSetCurrent(ctx), "cuCtxSetCurrent");

    /* Line information on: without it the Source page has no source lines for a JIT-compiled
     * module (the driver's default is off). */
    static char log[16384];
    CUjit_option opt[4] = {CU_JIT_GENERATE_LINE_INFO, CU_JIT_ERROR_LOG_BUFFER,
                           CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
    void *val[4] = {(void *)(size_t)1, log, (void *)(size_t)sizeof log, (void *)(size_t)0};
    e = drv.ModuleLoadDataEx(&mod, L->ptx, 4, opt, val);
    if (e != CUDA_SUCCESS) {
        const char *name = "?";
        drv.GetErrorName(e, &name);
        log[sizeof log - 1] = '\0';
        fail("bad_input", EXIT_USAGE, "the driver could not load %s for %s (sm_%d%d): %s%s%s",
             L->a.ptx_path, L->name, L->cc_major, L->cc_minor, name, log[0] ? ": " : "", log);
    }
    CU(drv.ModuleGetFunction(&fn, mod, L->entry), "cuModuleGetFunction");
    if (drv.FuncGetParamInfo) {
        /* The PTX text was read by us; the driver's view of the entry must agree. */
        for (int i = 0; i <= L->nps; i++) {
            size_t off = 0, size = 0;
            e = drv.FuncGetParamInfo(fn, (size_t)i, &off, &size);
            if (i == L->nps) {
                if (e == CUDA_SUCCESS)
                    fail("bad_input", EXIT_USAGE, "%s: the driver sees more than the %d "
                         "parameters the PTX text lists", L->entry, L->nps);
            } else if (e != CUDA_SUCCESS || (int)size != L->ps[i].size) {
                fail("bad_input", EXIT_USAGE, "%s: parameter %d (%s) is %d bytes in the PTX "
                     "text but %zu for the driver", L->entry, i, L->ps[i].name, L->ps[i].size,
                     size);
            }
        }
    }
    CU(drv.FuncGetAttribute(&L->static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn),
       "cuFuncGetAttribute");
    CU(drv.FuncGetAttribute(&L->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn), "cuFuncGetAttribute");
    if (L->a.dynamic_shared > 48 * 1024) {
        /* Above 48 KiB a block must opt in, per function. */
        e = drv.FuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 (int)L->a.dynamic_shared);
        if (e != CUDA_SUCCESS)
            fail("bad_input", EXIT_USAGE, "%ld bytes of dynamic shared memory (with %d static) "
                 "are more than %s allows", L->a.dynamic_shared, L->static_shared, L->name);
    }
    void *args[PTXM_MAX_PARAMS];
    for (int i = 0; i < L->nps; i++) {
        if (L->a.params[i].is_null) {
            CUdeviceptr p;
            CU(drv.MemAlloc(&p, (size_t)L->a.global_bytes), "cuMemAlloc (a parameter's buffer)");
            CU(drv.MemsetD8(p, 0, (size_t)L->a.global_bytes), "cuMemsetD8");
            memcpy(L->values[i], &p, sizeof p);
        }
        args[i] = L->values[i];
    }
    e = drv.LaunchKernel(fn, L->a.grid[0], L->a.grid[1], L->a.grid[2], L->a.block[0],
                         L->a.block[1], L->a.block[2], (unsigned)L->a.dynamic_shared, 0,
                         L->nps ? args : NULL, NULL);
    if (e == CUDA_ERROR_INVALID_VALUE || e == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
        fail("bad_input", EXIT_USAGE, "the launch of %s was refused (grid %u,%u,%u, block "
             "%u,%u,%u, %ld dynamic bytes): %s", L->entry, L->a.grid[0], L->a.grid[1],
             L->a.grid[2], L->a.block[0], L->a.block[1], L->a.block[2], L->a.dynamic_shared,
             e == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ? "too many resources for one block" : "invalid value");
    CU(e, "cuLaunchKernel");
    double t0 = now_s();
    for (;;) {
        e = drv.StreamQuery(0);
        if (e != CUDA_ERROR_NOT_READY)
            break;
        if (now_s() - t0 > L->a.timeout)
            fail("cuda", EXIT_CUDA, "%s did not finish within %g s: the kernel may not end, or "
                 "the GPU is busy", L->entry, L->a.timeout);
        struct timespec ts = {0, 50000};
        nanosleep(&ts, NULL);
    }
    if (e != CUDA_SUCCESS)
        cu_fail(e, "the kernel failed");
}

/* ---- the counter pass ------------------------------------------------------------- */

struct ncu_run {
    int used;
    char path[512], version[64], reason[768];
    double seconds;
};

static int write_text(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text ? text : "", f);
    return fclose(f);
}

/* Runs argv with the deadline; 0 when it exited 0 with output, else -1 and a reason. */
static int ncu_step(char **argv, double deadline, struct proc *p, const char *what,
                    struct ncu_run *nr)
{
    struct proc_spec spec;
    struct sz_error err;
    memset(&spec, 0, sizeof spec);
    spec.argv = argv;
    spec.out_cap = 64u << 20;
    spec.err_cap = 1u << 20;
    spec.err_tail = 1;
    memset(p, 0, sizeof *p);
    if (proc_start(p, &spec, &err) < 0) {
        snprintf(nr->reason, sizeof nr->reason, "ncu (%s) could not start: %s", what, err.message);
        return -1;
    }
    proc_wait(p, deadline);
    const char *perm = (p->out && strstr(p->out, "ERR_NVGPUCTRPERM")) ? p->out
                     : (p->err && strstr(p->err, "ERR_NVGPUCTRPERM")) ? p->err : NULL;
    if (perm) {
        snprintf(nr->reason, sizeof nr->reason, "profiling not permitted (ERR_NVGPUCTRPERM): GPU "
                 "performance counters are restricted to admin users on this machine");
        return -1;
    }
    if (p->timed_out) {
        snprintf(nr->reason, sizeof nr->reason, "ncu (%s) did not finish in the time left for "
                 "it and was killed", what);
        return -1;
    }
    if (p->exit_code != 0) {
        const char *src = p->err && strstr(p->err, "==ERROR==") ? strstr(p->err, "==ERROR==")
                        : p->out && strstr(p->out, "==ERROR==") ? strstr(p->out, "==ERROR==")
                        : p->err ? p->err : "";
        snprintf(nr->reason, sizeof nr->reason, "ncu (%s) failed (%s %d): %.300s", what,
                 p->signal ? "signal" : "exit", p->signal ? p->signal : p->exit_code, src);
        for (char *c = nr->reason; *c; c++)
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        return -1;
    }
    return 0;
}

static void rm_dir(const char *dir)
{
    static const char *const names[] = {"rep.ncu-rep", NULL};
    char path[1024];
    for (int i = 0; names[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* Profiles the launch under ncu (the tool re-run with --ptx-child) and reads the three
 * pages into r. Never fails: what went wrong is nr->reason. */
static void profile(struct launch *L, int argc, char **argv, double deadline,
                    struct ptxm_result *r, struct ncu_run *nr)
{
    double t0 = now_s();
    char tmpl[] = "/tmp/swz-ptx-XXXXXX", self[4096], rep[1200], alarm_s[32];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) {
        snprintf(nr->reason, sizeof nr->reason, "cannot find this tool's own path");
        return;
    }
    self[k] = '\0';
    if (!mkdtemp(tmpl)) {
        snprintf(nr->reason, sizeof nr->reason, "cannot make a temporary folder: %s",
                 strerror(errno));
        return;
    }
    snprintf(rep, sizeof rep, "%s/rep", tmpl);
    snprintf(alarm_s, sizeof alarm_s, "%d", (int)ceil(deadline - now_s()) + 2);
    char metrics[2048];
    snprintf(metrics, sizeof metrics, "%s", ptxm_metric_list());
    /* ncu's own options, then the tool again with the user's options (less the pass's). */
    char *pa[128 + 2 * PTXM_MAX_PARAMS];
    int n = 0;
    const char *head[] = {nr->path, "--section", "SourceCounters", "--metrics", metrics,
                          "--import-source", "yes", "--target-processes", "application-only",
                          "--clock-control", "none", "--cache-control", "none",
                          "--launch-count", "1", "-f", "-o", rep, self, "--ptx-child",
                          "--alarm", alarm_s};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        pa[n++] = (char *)head[i];
    for (int i = 1; i < argc && n < (int)(sizeof pa / sizeof pa[0]) - 3; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--json") || !strcmp(o, "--require-ncu") || !strcmp(o, "--no-ncu"))
            continue;
        if (!strcmp(o, "--ncu") || !strcmp(o, "--ncu-timeout") || !strcmp(o, "--keep") ||
            !strcmp(o, "--alarm")) {
            i++;
            continue;
        }
        pa[n++] = argv[i];
    }
    pa[n] = NULL;
    struct proc p;
    if (ncu_step(pa, deadline, &p, "profile", nr) < 0 ||
        (p.out && strstr(p.out, "No kernels were profiled"))) {
        if (!nr->reason[0])
            snprintf(nr->reason, sizeof nr->reason, "ncu profiled no kernel");
        proc_free(&p);
        rm_dir(tmpl);
        return;
    }
    proc_free(&p);
    snprintf(rep, sizeof rep, "%s/rep.ncu-rep", tmpl);
    char *raw_a[] = {nr->path, (char *)"--import", rep, (char *)"--page", (char *)"raw",
                     (char *)"--csv", (char *)"--print-units", (char *)"base", NULL};
    char *sass_a[] = {nr->path, (char *)"--import", rep, (char *)"--page", (char *)"source",
                      (char *)"--csv", (char *)"--print-source", (char *)"sass", NULL};
    char *cs_a[] = {nr->path, (char *)"--import", rep, (char *)"--page", (char *)"source",
                    (char *)"--csv", (char *)"--print-source", (char *)"cuda,sass", NULL};
    struct proc pr, ps, pc;
    int ok_r = ncu_step(raw_a, deadline, &pr, "raw page", nr) == 0;
    int ok_s = ok_r && ncu_step(sass_a, deadline, &ps, "source page, sass", nr) == 0;
    int ok_c = ok_s && ncu_step(cs_a, deadline, &pc, "source page, cuda,sass", nr) == 0;
    if (L->a.keep_dir) {
        write_text(L->a.keep_dir, "raw.csv", ok_r ? pr.out : "");
        write_text(L->a.keep_dir, "sass.csv", ok_s ? ps.out : "");
        write_text(L->a.keep_dir, "cuda_sass.csv", ok_c ? pc.out : "");
    }
    if (ok_r && ptxm_parse_raw(pr.out, r) < 0)
        snprintf(nr->reason, sizeof nr->reason, "ncu's raw page held no launch");
    if (ok_s && ptxm_parse_source(ps.out, ok_c ? pc.out : NULL, r) < 0)
        snprintf(nr->reason, sizeof nr->reason, "ncu's Source page held no SASS instruction");
    else if (ok_s && !ok_c)
        snprintf(nr->reason, sizeof nr->reason, "no per-line numbers: ncu's cuda,sass view "
                 "failed");
    nr->used = r->has_raw || r->has_source;
    proc_free(&pr);
    if (ok_r)
        proc_free(&ps);
    if (ok_s)
        proc_free(&pc);
    rm_dir(tmpl);
    nr->seconds = now_s() - t0;
}

/* ---- the answer ------------------------------------------------------------------- */

static void print_json(const struct launch *L, const struct ptxm_result *r,
                       const struct ncu_run *nr)
{
    FILE *f = stdout;
    fputs("{\"ok\":true,\"device\":{\"name\":", f);
    ptxm_json_str(f, L->name);
    fprintf(f, ",\"cc\":\"%d.%d\",\"driver\":%d},\"kernel\":", L->cc_major, L->cc_minor, L->driver);
    ptxm_json_str(f, L->entry);
    fputs(",\"ptx\":", f);
    ptxm_json_str(f, L->a.ptx_path);
    fprintf(f, ",\"launch\":{\"block\":[%u,%u,%u],\"grid\":[%u,%u,%u],\"dynamic_shared\":%ld,"
            "\"global_bytes\":%ld,\"static_shared\":%d,\"registers\":%d,\"params\":[",
            L->a.block[0], L->a.block[1], L->a.block[2], L->a.grid[0], L->a.grid[1], L->a.grid[2],
            L->a.dynamic_shared, L->a.global_bytes, L->static_shared, L->regs);
    for (int i = 0; i < L->nps; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        ptxm_json_str(f, L->ps[i].name);
        fprintf(f, ",\"type\":\"%s\",\"value\":", L->ps[i].type);
        if (L->a.params[i].is_null)
            fputs("null", f);
        else
            ptxm_json_str(f, L->a.params[i].text);
        fputc('}', f);
    }
    fputs("]},\"ncu\":{\"used\":", f);
    fputs(nr->used ? "true" : "false", f);
    fputs(",\"path\":", f);
    ptxm_json_str(f, nr->path);
    fputs(",\"version\":", f);
    ptxm_json_str(f, nr->version);
    fputs(",\"reason\":", f);
    ptxm_json_str(f, nr->reason);
    fprintf(f, ",\"seconds\":%.3f}", nr->seconds);
    if (nr->used)
        ptxm_print_result_json(f, r);
    fputs("}\n", f);
}

static void print_table(const struct launch *L, const struct ptxm_result *r,
                        const struct ncu_run *nr)
{
    printf("%s on %s (sm_%d%d): grid %u,%u,%u block %u,%u,%u, %d static + %ld dynamic shared "
           "bytes\n", L->entry, L->name, L->cc_major, L->cc_minor, L->a.grid[0], L->a.grid[1],
           L->a.grid[2], L->a.block[0], L->a.block[1], L->a.block[2], L->static_shared,
           L->a.dynamic_shared);
    if (!nr->used) {
        printf("ncu not used: %s\n", nr->reason[0] ? nr->reason : "--no-ncu");
        return;
    }
    printf("\n%-7s %12s %12s %12s\n", "kind", "executions", "wavefronts", "ideal");
    for (int k = 0; k < PTXM_NKINDS; k++)
        if (r->source_totals[k].executions > 0 || r->totals[k].executions > 0)
            printf("%-7s %12.0f %12.0f %12.0f\n", ptxm_kind_names[k], r->totals[k].executions,
                   r->totals[k].wavefronts, r->totals[k].ideal);
    printf("\n%-40s %-6s %10s %10s %10s\n", "line", "kind", "exec", "wavefr", "ideal");
    for (int i = 0; i < r->nlines; i++) {
        const struct ptxm_line *l = &r->lines[i];
        const char *base = strrchr(l->file, '/');
        char where[300];
        snprintf(where, sizeof where, "%s:%d", base ? base + 1 : l->file, l->line);
        printf("%-40s %-6s %10.0f %10.0f %10.0f\n", where, ptxm_kind_names[l->kind],
               l->c.executions, l->c.wavefronts, l->c.ideal);
    }
    printf("\n%-6s %-44s %10s %10s %10s\n", "pc", "sass", "exec", "wavefr", "ideal");
    for (int i = 0; i < r->ninstrs; i++) {
        const struct ptxm_instr *in = &r->instrs[i];
        printf("%04lx   %-44.44s %10.0f %10.0f %10.0f\n", in->pc, in->sass, in->executions,
               in->wavefronts, in->ideal);
    }
    if (nr->reason[0])
        printf("\nncu: %s\n", nr->reason);
}

/* --from-csv DIR: the answer from the pages an earlier --keep left (no driver, no GPU):
 * how a measurement is read again, and how tests check the reading without a GPU. */
static int from_csv(struct launch *L, struct ncu_run *nr)
{
    char path[3][1200];
    const char *names[3] = {"raw.csv", "sass.csv", "cuda_sass.csv"};
    char *text[3];
    for (int i = 0; i < 3; i++) {
        snprintf(path[i], sizeof path[i], "%s/%s", L->a.from_csv, names[i]);
        text[i] = read_file(path[i], 256u << 20);
    }
    struct ptxm_result r;
    memset(&r, 0, sizeof r);
    snprintf(L->name, sizeof L->name, "(from %s)", L->a.from_csv);
    snprintf(nr->path, sizeof nr->path, "%s", L->a.from_csv);
    if (ptxm_parse_raw(text[0], &r) < 0)
        snprintf(nr->reason, sizeof nr->reason, "%.600s holds no launch", path[0]);
    if (ptxm_parse_source(text[1], text[2][0] ? text[2] : NULL, &r) < 0)
        snprintf(nr->reason, sizeof nr->reason, "%.600s holds no SASS instruction", path[1]);
    nr->used = r.has_raw || r.has_source;
    if (L->a.json)
        print_json(L, &r, nr);
    else
        print_table(L, &r, nr);
    fflush(stdout);
    for (int i = 0; i < 3; i++)
        free(text[i]);
    ptxm_result_free(&r);
    return 0;
}

int ptxrun_main(int argc, char **argv)
{
    static struct launch L;
    char msg[PTXM_MSG];
    double t0 = now_s();
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--json"))
            g_json = 1;
    if (ptxm_parse_args(argc, argv, &L.a, msg, sizeof msg) < 0)
        fail("bad_input", EXIT_USAGE, "%s", msg);
    if (L.a.alarm_s)
        alarm((unsigned)L.a.alarm_s); /* under ncu: end even if the profiler is killed */
    check_input(&L);
    struct ncu_run nr;
    memset(&nr, 0, sizeof nr);
    if (L.a.from_csv)
        return from_csv(&L, &nr);
    int want = !L.a.child && !L.a.no_ncu;
    if (!want && !L.a.child)
        snprintf(nr.reason, sizeof nr.reason, "--no-ncu was given");
    if (want && ncu_find(L.a.ncu_path, nr.path, sizeof nr.path) < 0) {
        snprintf(nr.reason, sizeof nr.reason, "%s", nr.path);
        nr.path[0] = '\0';
        want = 0;
    }
    if (L.a.require_ncu && !want)
        fail("ncu", EXIT_NCU, "%s", nr.reason);
    if (want)
        ncu_version_start(nr.path);
    driver_open();
    run_launch(&L);
    if (L.a.child)
        _exit(0);
    struct ptxm_result r;
    memset(&r, 0, sizeof r);
    if (want) {
        /* The profiled child takes the GPU alone: give our context back. */
        drv.PrimaryCtxReset(L.dev);
        profile(&L, argc, argv, t0 + L.a.ncu_timeout, &r, &nr);
        struct ncu_status st;
        memset(&st, 0, sizeof st);
        ncu_version_finish(&st, now_s() + 2.0);
        snprintf(nr.version, sizeof nr.version, "%s", st.version);
        if (L.a.require_ncu && !nr.used)
            fail("ncu", EXIT_NCU, "%s", nr.reason);
    }
    if (L.a.json)
        print_json(&L, &r, &nr);
    else
        print_table(&L, &r, &nr);
    fflush(stdout);
    ptxm_result_free(&r);
    free(L.ptx);
    return 0;
}
