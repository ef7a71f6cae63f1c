/* measure.h - run the measurement tool (build/swizzlescope-measure) through
 * proc.c: request on stdin, answer from stdout (capped), stderr's tail, the
 * whole process group killed at a deadline; one measurement at a time.
 * It never parses the tool's JSON (api_measure.c does); a crash of the tool
 * cannot reach the server, which is why the tool is a process, not a library. */
#ifndef SZ_MEASURE_H
#define SZ_MEASURE_H

#include <stddef.h>

#include "error.h"
#include "proc.h"

/* The most a tool may print: a measurement answer is a few KiB; anything near
 * this is garbage and is cut off rather than buffered without bound. */
#define MEASURE_MAX_OUTPUT (1u << 20)

/* The end of the tool's stderr kept for error messages. */
#define MEASURE_STDERR_TAIL 400u

/* Run `argv[0]` (a path, not searched in PATH) with `argv`, `input` on its
 * stdin, for at most `timeout_ms`; *p holds stdout (out_truncated past
 * MEASURE_MAX_OUTPUT), the tail of stderr and how it ended (proc_free it).
 * 0 when the tool ran, whatever its exit; -1 with SZ_GPU_UNAVAILABLE when it
 * is missing or cannot start, SZ_INTERNAL when no pipe could be made.
 * Thread-safe; does not serialize callers (see measure_try_lock). */
int measure_run(char *const argv[], const char *input, size_t input_len, int timeout_ms,
                struct proc *p, struct sz_error *err);

/* A request's text for a tool that reads a file (the --ptx mode, whose
 * profiled child opens the file again under ncu): written as `name` into a
 * new private folder (0700, under $TMPDIR or /tmp).  0 with the folder in
 * dir and the file's path in path, or -1 with SZ_INTERNAL; every 0 is paired
 * with measure_file_remove(dir, path), which removes both. */
int measure_file(const char *name, const char *text, size_t len, char *dir, size_t dir_cap,
                 char *path, size_t path_cap, struct sz_error *err);
void measure_file_remove(const char *dir, const char *path);

/* Stop every running measurement now (its tool and whatever the tool
 * started are killed within PROC_TICK_MS) and refuse new ones with
 * SZ_GPU_UNAVAILABLE: the server is stopping.  Async-signal-unsafe parts
 * none: it only sets a flag, so it may be called from any thread. */
void measure_cancel_all(void);

/* One measurement at a time: a GPU timing run shares the SM with nothing.
 * measure_try_lock returns 0 and takes the slot, or -1 with SZ_BUSY. */
int measure_try_lock(struct sz_error *err);
void measure_unlock(void);

#endif
