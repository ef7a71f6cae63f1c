/* measure.h - run the measurement tool (build/swizzlescope-measure) as a child
 * process: feed it a request on stdin, collect stdout, kill it at a deadline,
 * and allow one measurement at a time.
 *
 * It never parses the tool's JSON (api.c does) and never blocks a caller
 * longer than the timeout it is given; a crash of the tool cannot reach the
 * server, which is why the tool is a process and not a library. */
#ifndef SZ_MEASURE_H
#define SZ_MEASURE_H

#include <stddef.h>

#include "error.h"

/* The most a tool may print: a measurement answer is a few KiB; anything near
 * this is garbage and is cut off rather than buffered without bound. */
#define MEASURE_MAX_OUTPUT (1u << 20)

struct measure_output {
    char *out;          /* stdout, NUL-terminated, malloc'd (caller frees) */
    size_t len;
    char err[512];      /* the tail of stderr, for error messages */
    int exit_code;      /* exit status, or -1 when killed by a signal */
    int signal;         /* the signal that ended it, or 0 */
    int timed_out;      /* killed by us at the deadline */
    int truncated;      /* it printed more than MEASURE_MAX_OUTPUT */
};

/* Run `argv[0]` (a path, not searched in PATH) with `argv`, writing `input`
 * to its stdin, waiting at most `timeout_ms` for it to exit.  On timeout the
 * whole process group is killed.  Returns 0 when the child ran (whatever its
 * exit code: see `out`), -1 with SZ_GPU_UNAVAILABLE when it could not start.
 * Thread-safe; does not serialize callers (see measure_try_lock). */
int measure_run(char *const argv[], const char *input, size_t input_len, int timeout_ms,
                struct measure_output *out, struct sz_error *err);

/* One measurement at a time: a GPU timing run shares the SM with nothing.
 * measure_try_lock returns 0 and takes the slot, or -1 with SZ_BUSY. */
int measure_try_lock(struct sz_error *err);
void measure_unlock(void);

#endif
