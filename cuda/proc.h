/* proc.h: a child process with piped stdin/stdout/stderr and a deadline, for
 * the measurement tool's profiler pass (ncu, and ncu --version). POSIX only,
 * no CUDA. It never blocks past the deadline: a child still running then is
 * killed with SIGKILL. The child stays in the caller's process group, so
 * whoever kills the tool's group (the server, at its timeout) kills it too. */
#ifndef SWZ_PROC_H
#define SWZ_PROC_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct proc {
    pid_t pid;
    int in_fd, out_fd, err_fd;     /* parent ends; -1 once closed */
    const char *input;             /* written to the child's stdin, then closed */
    size_t input_len, written;
    char *out, *err;               /* malloc'd, NUL-terminated; capped at PROC_MAX_OUTPUT */
    size_t out_len, err_len;
    int exit_code;                 /* exit status, or -1 if killed by a signal */
    int signal;                    /* the terminating signal, or 0 */
    int timed_out;                 /* killed by proc_wait at the deadline */
};

#define PROC_MAX_OUTPUT (16u << 20)

/* Monotonic seconds, for deadlines. */
double proc_now(void);

/* Starts argv[0] (searched in PATH if it has no '/') with `input` on its
 * stdin (input_len 0: stdin is empty). 0, or -1 with a message in msg. */
int proc_start(struct proc *p, char *const argv[], const char *input, size_t input_len,
               char *msg, size_t cap);

/* Feeds stdin and collects stdout/stderr until the child exits or until
 * `deadline` (proc_now() seconds), when it is killed. Then reaps it. */
void proc_wait(struct proc *p, double deadline);

/* Frees the buffers (the child must have been waited for). */
void proc_free(struct proc *p);

/* The first executable `name` in PATH, else the first of `fallbacks` (NULL
 * terminated) that is executable. 0 and the path in out, or -1. */
int proc_which(const char *name, const char *const *fallbacks, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* SWZ_PROC_H */
