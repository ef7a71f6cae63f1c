/* proc.c - child processes with a deadline (proc.h), for the server (the
 * measurement tool) and the tool (ncu).  Must not leave a child behind on any
 * path: every proc_start that succeeds is matched by a reap in proc_wait,
 * which kills at the deadline, and every descendant (even one that left the
 * group with setsid) is found by its run's tag and killed and reaped after.
 * Must not interpret what the child prints. */
#define _GNU_SOURCE 1   /* pipe2 */
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* ---- descendants ---------------------------------------------------------------
 * A child's own process group dies whole at the end, but a descendant that calls
 * setsid leaves the group and survived every stop of the server.  So: this
 * process is a child subreaper (orphans of our descendants become our children
 * instead of init's), every child runs with PROC_TAG_VAR<our pid>_<run>=1 in its
 * environment (inherited by what it starts, and kept beside the tags of the
 * runs that started us: the tool's ncu run carries the server's tag too), and
 * after the child is reaped each
 * live child of ours carrying that tag is killed, until none is left (their own
 * orphans come to us in turn).  Children proc_start made are registered, so
 * that the zombies reaped here are only orphans, never another run's child. */
#define PROC_TAG_VAR "SWZ_PROC_RUN_"
#define PROC_MAX_LIVE 64

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t live[PROC_MAX_LIVE];   /* children proc_wait has yet to reap; 0 = free */
static atomic_uint run_seq;

static int live_add(pid_t pid)      /* under live_lock */
{
    for (int i = 0; i < PROC_MAX_LIVE; i++)
        if (live[i] == 0) {
            live[i] = pid;
            return 0;
        }
    return -1;
}

static int live_has(pid_t pid)      /* under live_lock */
{
    for (int i = 0; i < PROC_MAX_LIVE; i++)
        if (live[i] == pid)
            return 1;
    return 0;
}

static void live_remove(pid_t pid)
{
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < PROC_MAX_LIVE; i++)
        if (live[i] == pid)
            live[i] = 0;
    pthread_mutex_unlock(&live_lock);
}

/* `pid`'s parent, state and start time (clock ticks since boot; NULL: not
 * wanted) from /proc/PID/stat; -1 when it is gone. */
static int proc_stat_t(pid_t pid, pid_t *ppid, char *state, unsigned long long *start);
static int proc_stat(pid_t pid, pid_t *ppid, char *state)
{
    return proc_stat_t(pid, ppid, state, NULL);
}

static int proc_stat_t(pid_t pid, pid_t *ppid, char *state, unsigned long long *start)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    const char *rp = strrchr(buf, ')');     /* the name may hold spaces and ')' */
    int pp;
    unsigned long long st = 0;
    /* fields 3 and 4, then 22 (starttime): 17 skipped between */
    if (rp == NULL || sscanf(rp + 1, " %c %d %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                             "%*s %*s %*s %*s %*s %*s %llu", state, &pp, &st) < 2)
        return -1;
    *ppid = (pid_t)pp;
    if (start)
        *start = st;
    return 0;
}

/* Whether `pid`'s environment holds `tag` ("VAR=value") as one entry. */
static int has_tag(pid_t pid, const char *tag)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    static _Thread_local char env[1 << 16];
    size_t len = 0;
    ssize_t n;
    while (len < sizeof env - 1 && (n = read(fd, env + len, sizeof env - 1 - len)) > 0)
        len += (size_t)n;
    close(fd);
    env[len] = '\0';
    size_t tl = strlen(tag);
    for (size_t i = 0; i + tl <= len; i += strlen(env + i) + 1)
        if (memcmp(env + i, tag, tl + 1) == 0)
            return 1;
    return 0;
}

/* Kill every live process of run `tag` (its child is reaped by now: these are
 * what it left), and reap those that are, or become when their parent dies,
 * children of ours.  A zombie child of ours is reaped when it was killed here,
 * or started no earlier than the run's child (`since`: an orphan of this or a
 * later run that exited on its own), and is no registered child: no other
 * run's, nor the caller's own older children's, exit status is taken.
 * Bounded: 1 s. */
#define PROC_MAX_KILLED 256
static void reap_tagged(const char *tag, unsigned long long since)
{
    pid_t self = getpid(), killed[PROC_MAX_KILLED];
    int nkilled = 0;
    double end = proc_now() + 1.0;
    for (;;) {
        int left = 0;
        DIR *d = opendir("/proc");
        if (d == NULL)
            return;
        struct dirent *e;
        pthread_mutex_lock(&live_lock);
        while ((e = readdir(d)) != NULL) {
            char *endp;
            long v = strtol(e->d_name, &endp, 10);
            pid_t pid = (pid_t)v, pp;
            char st;
            unsigned long long started;
            if (*endp != '\0' || v <= 0 || pid == self || proc_stat_t(pid, &pp, &st, &started) < 0)
                continue;
            if (st == 'Z') {
                if (pp == self && since && started >= since && !live_has(pid))
                    waitpid(pid, NULL, WNOHANG);
                continue;
            }
            if (!has_tag(pid, tag))
                continue;
            kill(pid, SIGKILL);
            left = 1;
            int seen = 0;
            for (int i = 0; i < nkilled; i++)
                seen |= killed[i] == pid;
            if (!seen && nkilled < PROC_MAX_KILLED)
                killed[nkilled++] = pid;
        }
        /* reap what is ours; forget what is gone or another's to reap */
        for (int i = 0; i < nkilled; i++) {
            pid_t pp;
            char st;
            int gone = proc_stat(killed[i], &pp, &st) < 0;
            if (!gone && st == 'Z' && pp == self && !live_has(killed[i]))
                gone = waitpid(killed[i], NULL, WNOHANG) == killed[i];
            if (gone) {
                killed[i--] = killed[--nkilled];
            } else {
                left = 1;
            }
        }
        pthread_mutex_unlock(&live_lock);
        closedir(d);
        if (!left || proc_now() > end)
            return;
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* environ and `tag`; NULL when out of memory.  Free the array only: the
 * strings are environ's and the caller's. */
static char **tagged_env(char *tag)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = malloc((n + 2) * sizeof *env);
    if (env == NULL)
        return NULL;
    memcpy(env, environ, n * sizeof *env);
    env[n] = tag;
    env[n + 1] = NULL;
    return env;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

int proc_start(struct proc *p, const struct proc_spec *spec, struct sz_error *err)
{
    int in[2] = {-1, -1}, so[2] = {-1, -1}, se[2] = {-1, -1};
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->in_fd = p->out_fd = p->err_fd = -1;
    p->out_cap = spec->out_cap;
    p->err_cap = spec->err_cap;
    p->err_tail = spec->err_tail;
    p->own_group = spec->own_group;
    p->cancelled = spec->cancelled;
    p->out = malloc(1);
    p->err = malloc(1);
    if (!p->out || !p->err)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    p->out[0] = p->err[0] = '\0';
    /* O_CLOEXEC: another thread may spawn at the same time and must not
     * inherit our pipe ends, or EOF would never come. */
    if (pipe2(in, O_CLOEXEC) || pipe2(so, O_CLOEXEC) || pipe2(se, O_CLOEXEC)) {
        sz_fail(err, SZ_INTERNAL, NULL, "pipe: %s", strerror(errno));
        goto fail;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, so[1], 1);
    posix_spawn_file_actions_adddup2(&fa, se[1], 2);
    posix_spawnattr_init(&at);
    /* A server thread may block signals, and we ignore SIGPIPE: the child
     * gets neither (both survive exec). */
    sigset_t none, pipe_sig;
    sigemptyset(&none);
    sigemptyset(&pipe_sig);
    sigaddset(&pipe_sig, SIGPIPE);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &pipe_sig);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (spec->own_group) {
        /* A timeout then kills whatever it started too (ncu runs the program
         * it profiles as a grandchild). */
        posix_spawnattr_setpgroup(&at, 0);
        flags |= POSIX_SPAWN_SETPGROUP;
    }
    posix_spawnattr_setflags(&at, flags);
#ifdef PR_SET_CHILD_SUBREAPER
    static atomic_int subreaper;
    if (atomic_exchange(&subreaper, 1) == 0)
        prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
    snprintf(p->tag, sizeof p->tag, PROC_TAG_VAR "%d_%u=1", (int)getpid(),
             atomic_fetch_add(&run_seq, 1));
    char **env = tagged_env(p->tag);
    char *const *argv = spec->argv;
    int rc = ENOMEM;
    /* Registered before reap_tagged (another thread's) can see it as an orphan. */
    pthread_mutex_lock(&live_lock);
    if (env != NULL)
        rc = strchr(argv[0], '/') ? posix_spawn(&p->pid, argv[0], &fa, &at, argv, env)
                                  : posix_spawnp(&p->pid, argv[0], &fa, &at, argv, env);
    if (rc == 0 && live_add(p->pid) < 0) {
        kill(p->pid, SIGKILL);      /* more children at once than anyone runs */
        waitpid(p->pid, NULL, 0);
        rc = EAGAIN;
    }
    pthread_mutex_unlock(&live_lock);
    char st;
    pid_t pp;
    if (rc == 0 && proc_stat_t(p->pid, &pp, &st, &p->since) < 0)
        p->since = 0;
    free(env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close_fd(&in[0]);
    close_fd(&so[1]);
    close_fd(&se[1]);
    if (rc != 0) {
        p->pid = -1;
        p->spawn_errno = rc;
        sz_fail(err, SZ_INTERNAL, NULL, "cannot start %s: %s", argv[0], strerror(rc));
        goto fail;
    }
    p->in_fd = in[1], p->out_fd = so[0], p->err_fd = se[0];
    fcntl(p->in_fd, F_SETFL, O_NONBLOCK);
    fcntl(p->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(p->err_fd, F_SETFL, O_NONBLOCK);
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

static void kill_child(const struct proc *p)
{
    kill(p->own_group ? -p->pid : p->pid, SIGKILL);
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

/* Has the child exited?  It stays a zombie (WNOWAIT): its pid, and so its
 * process group's id, cannot be reused before we reap it. */
static int has_exited(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
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
        /* Killed before it is reaped: its pid, and so its group, cannot be
         * reused by then. */
        if (p->timed_out || p->was_cancelled)
            kill_child(p);
        else if (p->own_group && (exited || has_exited(p->pid)))
            kill(-p->pid, SIGKILL);     /* what it left behind in its group */
        pid_t w = waitpid(p->pid, &status,
                          p->timed_out || p->was_cancelled || exited ? 0 : WNOHANG);
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
    if (WIFEXITED(status)) {
        p->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        p->exit_code = -1;
        p->signal = WTERMSIG(status);
    }
    close_fd(&p->in_fd);
    close_fd(&p->out_fd);
    close_fd(&p->err_fd);
    live_remove(p->pid);
    p->pid = -1;
    reap_tagged(p->tag, p->since);
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
