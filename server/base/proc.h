/* proc.h - one child process with piped stdin, stdout and stderr and a
 * deadline: the server runs the measurement tool with it (measure.c) and the
 * tool runs ncu with it (cuda/ncu.c).  POSIX only: no CUDA, no JSON, no
 * knowledge of what the child is.  It must never block past the deadline and
 * never leave a child unreaped: one still running then is killed with SIGKILL,
 * with its whole process group when it leads one of its own, and so is every
 * descendant it left behind, even one in a session of its own with an
 * emptied environment (env -i setsid).  For that each run's child is started
 * by a shepherd process of ours (a Linux child subreaper) that every orphan
 * of the child's tree comes back to, and that kills them all when the run
 * ends or this process dies. */
#ifndef SZ_PROC_H
#define SZ_PROC_H

#include <stddef.h>
#include <sys/types.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to run and how much of its output to keep. */
struct proc_spec {
    char *const *argv;      /* argv[0]: a path, or (no '/') a name searched in PATH */
    const char *input;      /* written to its stdin, which is then closed; may be NULL */
    size_t input_len;       /* 0: its stdin is closed at once */
    size_t out_cap;         /* stdout: the first out_cap bytes are kept, the rest dropped */
    size_t err_cap;         /* stderr: the first err_cap bytes, or the last with err_tail */
    int err_tail;           /* keep the end of stderr (where a failing program says why) */
    int own_group;          /* the child leads a new process group, killed whole at the
                               deadline and when it exits (else it stays in ours, so
                               whoever kills our group kills it too) */
    int (*cancelled)(void); /* may be NULL; asked every PROC_TICK_MS: nonzero ends the
                               wait as the deadline would (the server stopping) */
};

/* How often a wait looks at spec->cancelled (and, where Linux has no pidfd,
 * at whether the child exited): the bound on how late either is noticed. */
#define PROC_TICK_MS 50

/* A started child; read the results after proc_wait. */
struct proc {
    pid_t pid;                      /* the run's shepherd (the child's parent);
                                       -1 once reaped or never started */
    int in_fd, out_fd, err_fd;      /* parent ends; -1 once closed */
    int report_fd, control_fd;      /* from and to the shepherd; -1 once closed */
    const char *input;
    size_t input_len, written;
    char *out, *err;                /* malloc'd, always NUL-terminated (proc_free frees) */
    size_t out_len, err_len;
    size_t out_cap, err_cap;
    int err_tail;
    int (*cancelled)(void);
    int out_truncated, err_truncated;   /* output past the cap was dropped */
    int exit_code;                  /* exit status, or -1 when a signal ended it */
    int signal;                     /* the signal that ended it, or 0 */
    int timed_out;                  /* killed by proc_wait at the deadline */
    int was_cancelled;              /* killed by proc_wait because spec->cancelled said so */
    int spawn_errno;                /* proc_start: why the program could not start, or 0 */
};

/* Monotonic seconds, for deadlines. */
double proc_now(void);

/* Start spec->argv[0] (through its shepherd, a fork of this process) with
 * its signal mask empty and SIGPIPE at its default.  0, or -1 (SZ_INTERNAL;
 * p->spawn_errno set when the program itself could not be started) with
 * nothing left running; proc_free is safe either way.  The caller must ignore
 * SIGPIPE: a child may quit without reading its input. */
int proc_start(struct proc *p, const struct proc_spec *spec, struct sz_error *err);

/* Feed stdin and collect stdout/stderr until the child exits (what it wrote
 * by then is kept, even if a descendant still held its pipes open), or until
 * `deadline` (proc_now() seconds) or cancellation, when it is killed.  With
 * own_group, whatever is left of its group is killed first; then every
 * descendant still alive is killed.  When it returns, the child and every
 * descendant are dead and reaped (but one that would not die within a second
 * more, which is left to run on). */
void proc_wait(struct proc *p, double deadline);

/* proc_start, then proc_wait with a deadline `timeout_s` from now.  0 when the
 * child ran (whatever its exit: see *p), -1 as proc_start fails. */
int proc_run(const struct proc_spec *spec, double timeout_s, struct proc *p,
             struct sz_error *err);

/* Free the buffers (the child must have been waited for). */
void proc_free(struct proc *p);

/* The first executable `name` in PATH, else the first executable of
 * `fallbacks` (NULL-terminated, may be NULL).  0 and the path in out, or -1. */
int proc_which(const char *name, const char *const *fallbacks, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
