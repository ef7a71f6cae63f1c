/* measure.c - the measurement tool as a child process (proc.c, with the
 * tool's policy: own process group, 1 MiB of stdout, the tail of stderr) and
 * the single slot that keeps two GPU timing runs from overlapping.
 * Must not parse the tool's output (api_measure.c does) and must not outlive
 * its deadline: a hung GPU program is killed with its whole process group.
 * The one file it writes is a request's own text, in a private folder. */
#define _GNU_SOURCE 1   /* mkdtemp under -std=c11 */
#include "measure.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int busy;
static atomic_int stopping;     /* measure_cancel_all: the server is going away */

void measure_cancel_all(void) { atomic_store(&stopping, 1); }

static int is_stopping(void) { return atomic_load(&stopping); }

int measure_try_lock(struct sz_error *err)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&busy, &expected, 1))
        return sz_fail(err, SZ_BUSY, NULL,
                       "a measurement is already running on the GPU; one runs at a "
                       "time so that timings do not disturb each other: retry when it ends");
    return 0;
}

void measure_unlock(void) { atomic_store(&busy, 0); }

int measure_run(char *const argv[], const char *input, size_t input_len, int timeout_ms,
                struct proc *p, struct sz_error *err)
{
    memset(p, 0, sizeof *p);
    p->pid = -1;
    if (is_stopping())
        return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "the server is stopping");
    if (access(argv[0], X_OK) != 0)
        return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL,
                       "the measurement tool %s is not built or not executable (it is "
                       "built by make where nvcc exists)", argv[0]);
    /* Its own process group, so that a timeout, the server stopping or the
     * tool's own exit kills whatever it started too (ncu runs the profiled
     * program as a grandchild; a tool may leave a background child). */
    struct proc_spec spec = {.argv = argv, .input = input, .input_len = input_len,
                             .out_cap = MEASURE_MAX_OUTPUT, .err_cap = MEASURE_STDERR_TAIL,
                             .err_tail = 1, .own_group = 1, .cancelled = is_stopping};
    if (proc_run(&spec, timeout_ms / 1000.0, p, err) < 0) {
        int why = p->spawn_errno;
        proc_free(p);
        if (why)
            return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "cannot start %s: %s", argv[0],
                           strerror(why));
        return -1;
    }
    return 0;
}

int measure_file(const char *name, const char *text, size_t len, char *dir, size_t dir_cap,
                 char *path, size_t path_cap, struct sz_error *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, dir_cap, "%s/swz-measure-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
    /* mkdtemp makes it 0700: no other user reads the request's kernel */
    if (!mkdtemp(dir))
        return sz_fail(err, SZ_INTERNAL, NULL, "cannot make a private folder for the "
                       "measurement: %s", strerror(errno));
    snprintf(path, path_cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "wx");
    int ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok) {
        int why = errno;
        measure_file_remove(dir, path);
        return sz_fail(err, SZ_INTERNAL, NULL, "cannot write the kernel for the measurement "
                       "tool: %s", strerror(why));
    }
    return 0;
}

void measure_file_remove(const char *dir, const char *path)
{
    unlink(path);
    rmdir(dir);
}
