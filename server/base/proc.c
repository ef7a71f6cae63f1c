/* proc.c - child processes with a deadline (proc.h), for the server (the
 * measurement tool) and the tool (ncu).  Must not leave a child behind on any
 * path: every run's program is started by a shepherd process of its own (a
 * child subreaper, so every descendant the program orphans comes back to it,
 * whatever it shed: group, session, environment), and the shepherd kills and
 * reaps all of them before it exits; proc_wait reaps the shepherd.
 * Must not interpret what the child prints. */
#define _GNU_SOURCE 1   /* pipe2 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

double proc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int proc_which(const char *name, const char *const *fallbacks, char *out, size_t cap)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        if (n > 0 && n + strlen(name) + 2 <= cap) {
            snprintf(out, cap, "%.*s/%s", (int)n, path, name);
            if (access(out, X_OK) == 0)
                return 0;
        }
        path = colon ? colon + 1 : NULL;
    }
    for (; fallbacks && *fallbacks; fallbacks++) {
        if (access(*fallbacks, X_OK) == 0 && strlen(*fallbacks) < cap) {
            snprintf(out, cap, "%s", *fallbacks);
            return 0;
        }
    }
    return -1;
}

/* ---- the shepherd ------------------------------------------------------------------
 * A run's program used to be our child, marked by a variable in its
 * environment so that its descendants could be found after it; one that ran
 * `env -i setsid ...` shed the mark and outlived the run and the server
 * (issue 36).  What no process can shed is its place in the tree: an orphan
 * goes to its nearest living ancestor that is a child subreaper.  So each run
 * gets its own: proc_start forks a shepherd, which makes itself a subreaper,
 * forks and execs the program, and waits.  Every orphan of the program's
 * tree is then the shepherd's child, never ours nor another run's.  When the
 * program exits, or when the control pipe closes (proc_wait at the deadline
 * or on cancellation, or this process dying in any way), the shepherd kills
 * the program (its group with own_group), then every child it has until it
 * has none (killing one hands its children to the shepherd), reaps them,
 * writes the program's wait status on the report pipe and exits.
 *
 * The shepherd is a fork of a threaded process: until it exits it calls only
 * async-signal-safe functions and raw system calls (no malloc, no stdio), and
 * it keeps every signal blocked (a handler of ours must never run in it). */

/* The descriptors a shepherd keeps, at these numbers; it closes every other. */
enum { SH_IN, SH_OUT, SH_ERR, SH_REPORT, SH_CONTROL, SH_NFDS };

/* How long a shepherd goes on killing what its program left (processes in
 * uninterruptible sleep may not die at once); past it, it exits anyway. */
#define SHEPHERD_KILL_MS 1000

struct shepherd_args {
    int fds[SH_NFDS];       /* the child's ends of the pipes, in SH_ order */
    const char *path;
    char *const *argv;
    int own_group;
};

static void sh_sleep_ms(long ms)
{
    struct timespec ts = {0, ms * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* Has `pid`, a child, exited?  It stays a zombie (WNOWAIT): its pid, and so
 * its process group's id, cannot be reused before it is reaped. */
static int has_exited(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/* A descriptor that polls readable when the child exits (Linux 5.3+), or -1:
 * then the wait looks every PROC_TICK_MS instead. */
static int exit_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

/* `pid`'s parent from /proc/PID/stat, or -1 when it is gone or a zombie
 * (a zombie child is reaped, not killed).  Async-signal-safe. */
static pid_t sh_live_parent(const char *pid_name)
{
    char path[64] = "/proc/", buf[512];
    size_t n = 6, k = strlen(pid_name);
    if (k > 20)
        return -1;
    memcpy(path + n, pid_name, k);
    memcpy(path + n + k, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t r = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (r <= 0)
        return -1;
    buf[r] = '\0';
    const char *rp = strrchr(buf, ')');     /* the name may hold spaces and ')' */
    if (rp == NULL || rp[1] != ' ' || rp[2] == '\0' || rp[2] == 'Z' || rp[2] == 'X')
        return -1;
    long pp = 0;
    for (rp += 4; *rp >= '0' && *rp <= '9'; rp++)
        pp = pp * 10 + (*rp - '0');
    return (pid_t)pp;
}

/* Send SIGKILL to every live child of ours; whether there was one. */
static int sh_kill_children(pid_t self)
{
    int d = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d < 0)
        return 0;
    int any = 0;
    char buf[8192];
    long n;
    while ((n = syscall(SYS_getdents64, d, buf, sizeof buf)) > 0) {
        for (long off = 0; off < n;) {
            /* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
            unsigned short reclen;
            memcpy(&reclen, buf + off + 16, sizeof reclen);
            const char *name = buf + off + 19;
            off += reclen;
            long pid = 0;
            const char *c = name;
            for (; *c >= '0' && *c <= '9'; c++)
                pid = pid * 10 + (*c - '0');
            if (*c != '\0' || c == name || sh_live_parent(name) != self)
                continue;
            kill((pid_t)pid, SIGKILL);
            any = 1;
        }
    }
    close(d);
    return any;
}

/* Close every descriptor from `first` up. */
static void sh_close_from(int first)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0u, 0u) == 0)
        return;
#endif
    struct rlimit rl;
    long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (long)rl.rlim_cur
                                                                        : 65536;
    for (long fd = first; fd < max; fd++)
        close((int)fd);
}

/* The program's side of the fork: never returns. */
static void sh_exec(const struct shepherd_args *a, int exec_fd)
{
    close(SH_REPORT);
    close(SH_CONTROL);
    if (a->own_group)
        setpgid(0, 0);
    /* We ignore SIGPIPE and the shepherd blocks everything: the program gets
     * neither (both survive exec). */
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(a->path, a->argv, environ);
    int e = errno;
    ssize_t w = write(exec_fd, &e, sizeof e);
    (void)w;
    _exit(127);
}

static void sh_report(const void *rec, size_t len)
{
    ssize_t w;
    do
        w = write(SH_REPORT, rec, len);
    while (w < 0 && errno == EINTR);
}

/* The shepherd: never returns.  Reports an int on SH_REPORT when the program
 * started (0) or could not (its errno), then its wait status at the end. */
static void shepherd(const struct shepherd_args *a)
{
    /* Our descriptors to 0..4 (through copies above 4, so that none clobbers
     * another), then nothing else: a copy of another run's pipe or of a
     * client's socket would hold it open as long as this run lasts. */
    int hi[SH_NFDS];
    for (int i = 0; i < SH_NFDS; i++)
        if ((hi[i] = fcntl(a->fds[i], F_DUPFD, SH_NFDS)) < 0)
            _exit(126);
    for (int i = 0; i < SH_NFDS; i++)
        if (dup2(hi[i], i) < 0)
            _exit(126);
    sh_close_from(SH_NFDS);
    int started = 0;
#ifdef PR_SET_CHILD_SUBREAPER
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
        started = errno;
#else
    started = ENOSYS;
#endif
    int ep[2] = {-1, -1};
    if (started == 0 && pipe2(ep, O_CLOEXEC) != 0)
        started = errno;
    pid_t prog = -1;
    if (started == 0 && (prog = fork()) == 0)
        sh_exec(a, ep[1]);
    if (started == 0 && prog < 0)
        started = errno;
    close(ep[1]);
    if (prog > 0) {
        ssize_t r;
        do
            r = read(ep[0], &started, sizeof started);
        while (r < 0 && errno == EINTR);
        if (r != (ssize_t)sizeof started)
            started = 0;    /* end of file: the exec succeeded */
    }
    close(ep[0]);
    /* The pipes are the program's now: their ends here must not keep them
     * open (a program that exits without reading its input gets EPIPE). */
    close(SH_IN);
    close(SH_OUT);
    close(SH_ERR);
    sh_report(&started, sizeof started);
    if (started != 0) {
        if (prog > 0)
            waitpid(prog, NULL, 0);
        _exit(0);
    }

    /* Wait for the program's exit or the control pipe's end (we never write
     * on it: readable means closed). */
    int xfd = exit_fd(prog), stop = 0;
    while (!has_exited(prog)) {
        struct pollfd fds[2] = {{.fd = SH_CONTROL, .events = POLLIN}, {.fd = xfd, .events = POLLIN}};
        int r = poll(fds, xfd >= 0 ? 2 : 1, xfd >= 0 ? -1 : PROC_TICK_MS);
        if (r > 0 && fds[0].revents) {
            stop = 1;
            break;
        }
    }
    if (xfd >= 0)
        close(xfd);
    /* Killed before it is reaped: its pid, and so its group, cannot be reused
     * by then. */
    if (stop)
        kill(a->own_group ? -prog : prog, SIGKILL);
    else if (a->own_group)
        kill(-prog, SIGKILL);       /* what it left behind in its group */
    int status = 0;
    while (waitpid(prog, &status, 0) < 0 && errno == EINTR)
        ;
    /* Then whatever it left: every child of ours is of its tree. */
    pid_t self = getpid();
    double end = proc_now() + SHEPHERD_KILL_MS / 1000.0;
    for (;;) {
        pid_t w = waitpid(-1, NULL, WNOHANG);
        if (w < 0 && errno != EINTR)
            break;          /* ECHILD: none left, so no descendant either */
        if (proc_now() > end)
            break;
        if (w == 0) {
            sh_kill_children(self);
            sh_sleep_ms(1);
        }
    }
    sh_report(&status, sizeof status);
    _exit(0);
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

int proc_start(struct proc *p, const struct proc_spec *spec, struct sz_error *err)
{
    int in[2] = {-1, -1}, so[2] = {-1, -1}, se[2] = {-1, -1}, rep[2] = {-1, -1},
        ctl[2] = {-1, -1};
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->in_fd = p->out_fd = p->err_fd = p->report_fd = p->control_fd = -1;
    p->out_cap = spec->out_cap;
    p->err_cap = spec->err_cap;
    p->err_tail = spec->err_tail;
    p->cancelled = spec->cancelled;
    p->out = malloc(1);
    p->err = malloc(1);
    if (!p->out || !p->err)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    p->out[0] = p->err[0] = '\0';
    char *const *argv = spec->argv;
    /* PATH is searched here: the shepherd may not (execvp may allocate). */
    char path[4096];
    if (strchr(argv[0], '/') == NULL && proc_which(argv[0], NULL, path, sizeof path) < 0) {
        p->spawn_errno = ENOENT;
        return sz_fail(err, SZ_INTERNAL, NULL, "cannot start %s: %s", argv[0],
                       strerror(ENOENT));
    }
    struct shepherd_args sa = {.path = strchr(argv[0], '/') ? argv[0] : path, .argv = argv,
                               .own_group = spec->own_group};
    /* O_CLOEXEC: another thread may spawn at the same time and must not
     * inherit our pipe ends, or EOF would never come. */
    if (pipe2(in, O_CLOEXEC) || pipe2(so, O_CLOEXEC) || pipe2(se, O_CLOEXEC) ||
        pipe2(rep, O_CLOEXEC) || pipe2(ctl, O_CLOEXEC)) {
        sz_fail(err, SZ_INTERNAL, NULL, "pipe: %s", strerror(errno));
        goto fail;
    }
    sa.fds[SH_IN] = in[0];
    sa.fds[SH_OUT] = so[1];
    sa.fds[SH_ERR] = se[1];
    sa.fds[SH_REPORT] = rep[1];
    sa.fds[SH_CONTROL] = ctl[0];
    /* Every signal blocked across the fork: the shepherd keeps them so, and a
     * handler of ours (the server's SIGTERM) must never run in it. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = fork();
    if (pid == 0)
        shepherd(&sa);
    int fork_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close_fd(&in[0]);
    close_fd(&so[1]);
    close_fd(&se[1]);
    close_fd(&rep[1]);
    close_fd(&ctl[0]);
    int started = pid < 0 ? fork_errno : EAGAIN;
    if (pid > 0) {
        ssize_t r;
        do
            r = read(rep[0], &started, sizeof started);
        while (r < 0 && errno == EINTR);
        if (r != (ssize_t)sizeof started)
            started = EAGAIN;   /* the shepherd died before it could say */
        if (started != 0)
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
    }
    if (started != 0) {
        p->spawn_errno = started;
        sz_fail(err, SZ_INTERNAL, NULL, "cannot start %s: %s", argv[0], strerror(started));
        goto fail;
    }
    p->pid = pid;
    p->in_fd = in[1], p->out_fd = so[0], p->err_fd = se[0];
    p->report_fd = rep[0], p->control_fd = ctl[1];
    fcntl(p->in_fd, F_SETFL, O_NONBLOCK);
    fcntl(p->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(p->err_fd, F_SETFL, O_NONBLOCK);
    fcntl(p->report_fd, F_SETFL, O_NONBLOCK);
    p->input = spec->input;
    p->input_len = spec->input ? spec->input_len : 0;
    if (p->input_len == 0)
        close_fd(&p->in_fd);
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        close_fd(&in[i]);
        close_fd(&so[i]);
        close_fd(&se[i]);
        close_fd(&rep[i]);
        close_fd(&ctl[i]);
    }
    return -1;
}

/* Append what is readable on fd to *buf, keeping at most cap bytes: the first
 * ones, or with tail the last ones.  Past the cap bytes are read and dropped,
 * so that the child never blocks on a full pipe.  Returns 0 at EOF. */
static int drain(int fd, char **buf, size_t *len, size_t cap, int tail, int *truncated)
{
    char tmp[16384];
    ssize_t r = read(fd, tmp, sizeof tmp);
    if (r < 0)
        return errno == EAGAIN || errno == EINTR;
    if (r == 0)
        return 0;
    size_t n = (size_t)r;
    const char *src = tmp;
    if (tail && n > cap) {
        src += n - cap;
        n = cap;
        *truncated = 1;
    }
    if (tail && *len + n > cap) {
        size_t drop = *len + n - cap;
        memmove(*buf, *buf + drop, *len - drop);
        *len -= drop;
        *truncated = 1;
    }
    size_t take = *len + n > cap ? cap - *len : n;
    if (take < n)
        *truncated = 1;
    if (take) {
        char *nb = realloc(*buf, *len + take + 1);
        if (!nb) {
            *truncated = 1;
            return 1;
        }
        memcpy(nb + *len, src, take);
        *len += take;
        nb[*len] = '\0';
        *buf = nb;
    }
    return 1;
}

/* Read what is already in the pipes, without waiting for more. */
static void drain_now(struct proc *p)
{
    for (int i = 0; i < 64 && p->out_fd >= 0; i++)
        if (!drain(p->out_fd, &p->out, &p->out_len, p->out_cap, 0, &p->out_truncated))
            close_fd(&p->out_fd);
    for (int i = 0; i < 64 && p->err_fd >= 0; i++)
        if (!drain(p->err_fd, &p->err, &p->err_len, p->err_cap, p->err_tail, &p->err_truncated))
            close_fd(&p->err_fd);
}

void proc_wait(struct proc *p, double deadline)
{
    if (p->pid < 0)
        return;
    int xfd = exit_fd(p->pid), exited = 0;
    while (p->out_fd >= 0 || p->err_fd >= 0) {
        double left = deadline - proc_now();
        if (left <= 0) {
            p->timed_out = 1;
            break;
        }
        if (p->cancelled && p->cancelled()) {
            p->was_cancelled = 1;
            break;
        }
        /* A child that exited has said all it will say: a descendant that
         * keeps the pipe open must not hold the answer back to the deadline. */
        if (has_exited(p->pid)) {
            drain_now(p);
            exited = 1;
            break;
        }
        struct pollfd fds[4];
        int nf = 0, ii = -1, io = -1, ie = -1;
        if (p->in_fd >= 0)
            fds[ii = nf++] = (struct pollfd){.fd = p->in_fd, .events = POLLOUT};
        if (p->out_fd >= 0)
            fds[io = nf++] = (struct pollfd){.fd = p->out_fd, .events = POLLIN};
        if (p->err_fd >= 0)
            fds[ie = nf++] = (struct pollfd){.fd = p->err_fd, .events = POLLIN};
        if (xfd >= 0)
            fds[nf++] = (struct pollfd){.fd = xfd, .events = POLLIN};
        int ms = (int)(left * 1000.0) + 1;
        if ((xfd < 0 || p->cancelled) && ms > PROC_TICK_MS)
            ms = PROC_TICK_MS;
        if (poll(fds, (nfds_t)nf, ms) < 0 && errno != EINTR)
            break;
        if (ii >= 0 && fds[ii].revents) {
            ssize_t n = write(p->in_fd, p->input + p->written, p->input_len - p->written);
            if (n > 0)
                p->written += (size_t)n;
            /* EPIPE: it quit without reading all; its exit status says why */
            if (p->written == p->input_len || (n < 0 && errno != EAGAIN && errno != EINTR))
                close_fd(&p->in_fd);
        }
        if (io >= 0 && fds[io].revents &&
            !drain(p->out_fd, &p->out, &p->out_len, p->out_cap, 0, &p->out_truncated))
            close_fd(&p->out_fd);
        if (ie >= 0 && fds[ie].revents &&
            !drain(p->err_fd, &p->err, &p->err_len, p->err_cap, p->err_tail,
                   &p->err_truncated))
            close_fd(&p->err_fd);
    }
    if (xfd >= 0)
        close(xfd);
    int status = 0;
    for (;;) {
        /* The shepherd ends the run when the control pipe closes: at the
         * deadline, on cancellation, and by itself when the program exits. */
        if (p->timed_out || p->was_cancelled)
            close_fd(&p->control_fd);
        pid_t w = waitpid(p->pid, &status, p->control_fd < 0 || exited ? 0 : WNOHANG);
        if (w == p->pid || (w < 0 && errno != EINTR))
            break;
        if (w == 0 && proc_now() >= deadline) {
            p->timed_out = 1;   /* its pipes are closed, but it lingers */
            continue;
        }
        if (w == 0 && p->cancelled && p->cancelled()) {
            p->was_cancelled = 1;
            continue;
        }
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    /* The program's wait status, which the shepherd wrote before it exited;
     * none if the shepherd itself was killed (from outside: we never do). */
    int prog_status = 0;
    if (read(p->report_fd, &prog_status, sizeof prog_status) == (ssize_t)sizeof prog_status)
        status = prog_status;
    else if (!WIFSIGNALED(status))
        status = SIGKILL;   /* as a wait status: killed by SIGKILL */
    if (WIFEXITED(status)) {
        p->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        p->exit_code = -1;
        p->signal = WTERMSIG(status);
    }
    close_fd(&p->in_fd);
    close_fd(&p->out_fd);
    close_fd(&p->err_fd);
    close_fd(&p->report_fd);
    close_fd(&p->control_fd);
    p->pid = -1;
}

int proc_run(const struct proc_spec *spec, double timeout_s, struct proc *p,
             struct sz_error *err)
{
    double deadline = proc_now() + timeout_s;
    if (proc_start(p, spec, err) < 0)
        return -1;
    proc_wait(p, deadline);
    return 0;
}

void proc_free(struct proc *p)
{
    free(p->out);
    free(p->err);
    p->out = p->err = NULL;
    p->out_len = p->err_len = 0;
}
