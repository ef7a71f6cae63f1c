/* measure.c - the measurement tool as a child process with a deadline, and the
 * single slot that keeps two GPU timing runs from overlapping.
 * Must not parse the tool's output (api.c does) and must not outlive its
 * deadline: a hung GPU program is killed with its whole process group. */
#define _GNU_SOURCE 1   /* pipe2 */
#include "measure.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static atomic_int busy;

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

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Append what is readable on fd to (buf, len) up to cap bytes; past cap the
 * bytes are read and dropped so that the child never blocks on a full pipe.
 * Returns 0 at EOF, 1 while open. */
static int drain(int fd, char *buf, size_t *len, size_t cap, int *truncated)
{
    char tmp[8192];
    ssize_t n = read(fd, tmp, sizeof tmp);
    if (n < 0)
        return errno == EAGAIN || errno == EINTR ? 1 : 0;
    if (n == 0)
        return 0;
    size_t room = cap - *len;
    size_t take = (size_t)n < room ? (size_t)n : room;
    memcpy(buf + *len, tmp, take);
    *len += take;
    if (take < (size_t)n)
        *truncated = 1;
    return 1;
}

int measure_run(char *const argv[], const char *input, size_t input_len, int timeout_ms,
                struct measure_output *out, struct sz_error *err)
{
    memset(out, 0, sizeof *out);
    if (access(argv[0], X_OK) != 0)
        return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL,
                       "the measurement tool %s is not built or not executable (it is "
                       "built by make where nvcc exists)", argv[0]);
    int in[2] = {-1, -1}, so[2] = {-1, -1}, se[2] = {-1, -1};
    /* O_CLOEXEC: another thread may spawn at the same time and must not
     * inherit our pipe ends, or EOF would never come. */
    if (pipe2(in, O_CLOEXEC) || pipe2(so, O_CLOEXEC) || pipe2(se, O_CLOEXEC)) {
        sz_fail(err, SZ_INTERNAL, NULL, "pipe: %s", strerror(errno));
        goto fail_pipes;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, so[1], 1);
    posix_spawn_file_actions_adddup2(&fa, se[1], 2);
    posix_spawnattr_init(&at);
    /* Its own process group, so a timeout kills whatever it started too
     * (ncu runs the program under it as a grandchild). */
    posix_spawnattr_setpgroup(&at, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]), close(so[1]), close(se[1]);
    in[0] = so[1] = se[1] = -1;
    if (rc != 0) {
        sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "cannot start %s: %s", argv[0], strerror(rc));
        goto fail_pipes;
    }

    fcntl(in[1], F_SETFL, O_NONBLOCK);
    fcntl(so[0], F_SETFL, O_NONBLOCK);
    fcntl(se[0], F_SETFL, O_NONBLOCK);
    char *buf = malloc(MEASURE_MAX_OUTPUT + 1);
    char ebuf[4096];
    size_t len = 0, elen = 0, written = 0;
    int trunc = 0, etrunc = 0, out_open = 1, err_open = 1;
    long long deadline = now_ms() + timeout_ms;
    if (input_len == 0) {
        close(in[1]);
        in[1] = -1;
    }
    while ((out_open || err_open) && buf) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            out->timed_out = 1;
            break;
        }
        struct pollfd p[3];
        int np = 0, io = -1, iout = -1, ierr = -1;
        if (in[1] >= 0)
            p[io = np++] = (struct pollfd){.fd = in[1], .events = POLLOUT};
        if (out_open)
            p[iout = np++] = (struct pollfd){.fd = so[0], .events = POLLIN};
        if (err_open)
            p[ierr = np++] = (struct pollfd){.fd = se[0], .events = POLLIN};
        if (poll(p, (nfds_t)np, (int)left) < 0 && errno != EINTR)
            break;
        if (io >= 0 && p[io].revents) {
            ssize_t n = write(in[1], input + written, input_len - written);
            if (n > 0)
                written += (size_t)n;
            /* EPIPE: the tool quit without reading all; its exit code says why */
            if (written == input_len || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                close(in[1]);
                in[1] = -1;
            }
        }
        if (iout >= 0 && p[iout].revents)
            out_open = drain(so[0], buf, &len, MEASURE_MAX_OUTPUT, &trunc);
        if (ierr >= 0 && p[ierr].revents) {
            if (elen > sizeof ebuf / 2) {   /* keep the tail: errors come last */
                memmove(ebuf, ebuf + elen - sizeof ebuf / 4, sizeof ebuf / 4);
                elen = sizeof ebuf / 4;
            }
            err_open = drain(se[0], ebuf, &elen, sizeof ebuf - 1, &etrunc);
        }
    }
    int status = 0;
    if (out->timed_out)
        kill(-pid, SIGKILL);
    for (;;) {
        pid_t w = waitpid(pid, &status, out->timed_out ? 0 : WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        if (w == 0 && now_ms() >= deadline) {
            /* pipes closed but the tool lingers: same deadline, same end */
            out->timed_out = 1;
            kill(-pid, SIGKILL);
            continue;
        }
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (out->timed_out)
        kill(-pid, SIGKILL);    /* stragglers left in its group */
    if (in[1] >= 0)
        close(in[1]);
    close(so[0]);
    close(se[0]);
    if (buf == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    buf[len] = '\0';
    ebuf[elen] = '\0';
    out->out = buf;
    out->len = len;
    snprintf(out->err, sizeof out->err, "%.400s", elen > 400 ? ebuf + elen - 400 : ebuf);
    if (WIFEXITED(status)) {
        out->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        out->exit_code = -1;
        out->signal = WTERMSIG(status);
    }
    out->truncated = trunc;
    return 0;

fail_pipes:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0)
            close(in[i]);
        if (so[i] >= 0)
            close(so[i]);
        if (se[i] >= 0)
            close(se[i]);
    }
    return -1;
}
