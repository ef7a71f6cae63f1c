/* proc.c: child processes with a deadline (proc.h). POSIX only.
 * Must not leave a child behind on any path: every proc_start is matched by
 * a reap in proc_wait, which kills at the deadline. */
#define _GNU_SOURCE 1 /* pipe2 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

int proc_start(struct proc *p, char *const argv[], const char *input, size_t input_len,
               char *msg, size_t cap)
{
    int in[2] = {-1, -1}, so[2] = {-1, -1}, se[2] = {-1, -1};
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->in_fd = p->out_fd = p->err_fd = -1;
    p->out = (char *)malloc(1);
    p->err = (char *)malloc(1);
    if (!p->out || !p->err) {
        snprintf(msg, cap, "out of memory");
        return -1;
    }
    p->out[0] = p->err[0] = '\0';
    if (pipe2(in, O_CLOEXEC) || pipe2(so, O_CLOEXEC) || pipe2(se, O_CLOEXEC)) {
        snprintf(msg, cap, "pipe: %s", strerror(errno));
        goto fail;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, so[1], 1);
    posix_spawn_file_actions_adddup2(&fa, se[1], 2);
    int rc = strchr(argv[0], '/') ? posix_spawn(&p->pid, argv[0], &fa, NULL, argv, environ)
                                   : posix_spawnp(&p->pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]), close(so[1]), close(se[1]);
    in[0] = so[1] = se[1] = -1;
    if (rc != 0) {
        p->pid = -1;
        snprintf(msg, cap, "cannot start %s: %s", argv[0], strerror(rc));
        goto fail;
    }
    p->in_fd = in[1], p->out_fd = so[0], p->err_fd = se[0];
    fcntl(p->in_fd, F_SETFL, O_NONBLOCK);
    fcntl(p->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(p->err_fd, F_SETFL, O_NONBLOCK);
    p->input = input;
    p->input_len = input_len;
    if (input_len == 0) {
        close(p->in_fd);
        p->in_fd = -1;
    }
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0) close(in[i]);
        if (so[i] >= 0) close(so[i]);
        if (se[i] >= 0) close(se[i]);
    }
    return -1;
}

/* Appends what is readable on fd to *buf; past PROC_MAX_OUTPUT the bytes are
 * dropped so that the child never blocks on a full pipe. 0 at EOF. */
static int drain(int fd, char **buf, size_t *len)
{
    char tmp[16384];
    ssize_t n = read(fd, tmp, sizeof tmp);
    if (n < 0)
        return errno == EAGAIN || errno == EINTR;
    if (n == 0)
        return 0;
    size_t take = *len + (size_t)n > PROC_MAX_OUTPUT ? PROC_MAX_OUTPUT - *len : (size_t)n;
    if (take) {
        char *nb = (char *)realloc(*buf, *len + take + 1);
        if (nb) {
            memcpy(nb + *len, tmp, take);
            *len += take;
            nb[*len] = '\0';
            *buf = nb;
        }
    }
    return 1;
}

void proc_wait(struct proc *p, double deadline)
{
    if (p->pid < 0)
        return;
    signal(SIGPIPE, SIG_IGN); /* a child that quits early must not kill us */
    while (p->out_fd >= 0 || p->err_fd >= 0) {
        double left = deadline - proc_now();
        if (left <= 0) {
            p->timed_out = 1;
            break;
        }
        struct pollfd fds[3];
        int nf = 0, ii = -1, io = -1, ie = -1;
        if (p->in_fd >= 0)
            fds[ii = nf++] = (struct pollfd){p->in_fd, POLLOUT, 0};
        if (p->out_fd >= 0)
            fds[io = nf++] = (struct pollfd){p->out_fd, POLLIN, 0};
        if (p->err_fd >= 0)
            fds[ie = nf++] = (struct pollfd){p->err_fd, POLLIN, 0};
        int ms = left > 1000.0 ? 1000000 : (int)(left * 1000.0) + 1;
        if (poll(fds, (nfds_t)nf, ms) < 0 && errno != EINTR)
            break;
        if (ii >= 0 && fds[ii].revents) {
            ssize_t n = write(p->in_fd, p->input + p->written, p->input_len - p->written);
            if (n > 0)
                p->written += (size_t)n;
            if (p->written == p->input_len || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                close(p->in_fd);
                p->in_fd = -1;
            }
        }
        if (io >= 0 && fds[io].revents && !drain(p->out_fd, &p->out, &p->out_len)) {
            close(p->out_fd);
            p->out_fd = -1;
        }
        if (ie >= 0 && fds[ie].revents && !drain(p->err_fd, &p->err, &p->err_len)) {
            close(p->err_fd);
            p->err_fd = -1;
        }
    }
    int status = 0;
    for (;;) {
        if (p->timed_out)
            kill(p->pid, SIGKILL);
        pid_t w = waitpid(p->pid, &status, p->timed_out ? 0 : WNOHANG);
        if (w == p->pid || (w < 0 && errno != EINTR))
            break;
        if (w == 0 && proc_now() >= deadline) {
            p->timed_out = 1; /* pipes closed, but it lingers */
            continue;
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    if (WIFEXITED(status))
        p->exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        p->exit_code = -1, p->signal = WTERMSIG(status);
    if (p->in_fd >= 0) close(p->in_fd);
    if (p->out_fd >= 0) close(p->out_fd);
    if (p->err_fd >= 0) close(p->err_fd);
    p->in_fd = p->out_fd = p->err_fd = -1;
    p->pid = -1;
}

void proc_free(struct proc *p)
{
    free(p->out);
    free(p->err);
    p->out = p->err = NULL;
}
