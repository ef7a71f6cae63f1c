/* watch.c - the head deadline and the lingering close (watch.h), on one thread
 * that wakes four times a second or when a socket is handed over to drain.
 * Must not read or close a socket its owner still holds: a late head is only
 * shut down (the owner then sees end-of-file and closes it itself). */
#define _GNU_SOURCE 1   /* MSG_DONTWAIT, pipe2 under -std=c11 */
#include "watch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WATCH_TICK_MS 250

struct watch_conn {
    struct watch_conn *prev, *next;     /* under watch.lock */
    int fd;
    int shut;                           /* under watch.lock */
    /* Written by the daemon's threads, read by the watcher: when the head
     * clock started (ms, monotonic), 0 while it is stopped. */
    _Atomic int64_t head_since;
    atomic_int linger;
};

struct drain {
    int fd;
    int64_t since, last;
    long long bytes;
};

struct watch {
    pthread_mutex_t lock;
    pthread_t thread;
    int wake[2];                /* a byte here: a new drain, or stop */
    int stop;                   /* under lock */
    int64_t head_ms;
    struct watch_conn *conns;   /* under lock */
    struct drain drains[WATCH_MAX_DRAINS];
    int ndrains;                /* under lock */
    char sink[1 << 16];         /* drained bytes, never read back */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the daemon's side ----------------------------------------------------------- */

struct watch_conn *watch_open(struct watch *w, int fd)
{
    struct watch_conn *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->fd = fd;
    atomic_store(&c->head_since, now_ms());
    pthread_mutex_lock(&w->lock);
    c->next = w->conns;
    if (w->conns)
        w->conns->prev = c;
    w->conns = c;
    pthread_mutex_unlock(&w->lock);
    return c;
}

void watch_received(struct watch_conn *c)
{
    if (c)
        atomic_store(&c->head_since, 0);
}

void watch_request_done(struct watch_conn *c)
{
    if (c)
        atomic_store(&c->head_since, now_ms());
}

void watch_linger(struct watch_conn *c)
{
    if (c)
        atomic_store(&c->linger, 1);
}

void watch_close(struct watch *w, struct watch_conn *c)
{
    if (c == NULL)
        return;
    /* Closing a socket with unread input makes the kernel send a reset, and a
     * client still writing its body (or pipelined requests) then loses the
     * answer already sent.  A duplicate keeps the socket open after the owner
     * closes its descriptor, so the drain decides when it really closes. */
    int pending = 0;
    int drain = atomic_load(&c->linger) ||
                (ioctl(c->fd, FIONREAD, &pending) == 0 && pending > 0);
    int dup_fd = drain ? fcntl(c->fd, F_DUPFD_CLOEXEC, 0) : -1;
    pthread_mutex_lock(&w->lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        w->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    int added = 0;
    if (dup_fd >= 0 && w->ndrains < WATCH_MAX_DRAINS && !w->stop) {
        int64_t t = now_ms();
        w->drains[w->ndrains++] = (struct drain){.fd = dup_fd, .since = t, .last = t};
        added = 1;
    }
    pthread_mutex_unlock(&w->lock);
    free(c);
    if (dup_fd >= 0 && !added) {
        close(dup_fd);
    } else if (added) {
        /* The answer is all in the kernel's send queue: FIN after it, so the
         * client sees the end of the answer while we read what it still sends. */
        shutdown(dup_fd, SHUT_WR);
        char b = 1;
        ssize_t r = write(w->wake[1], &b, 1);
        (void)r;    /* a full pipe already holds a wake-up */
    }
}

/* ---- the watcher's thread ------------------------------------------------------------ */

/* Shut down each connection whose request (head or body) is late.  Its owner's next read sees
 * end-of-file and closes it without an answer, as nginx does at
 * client_header_timeout. */
static void enforce_deadlines(struct watch *w, int64_t t)
{
    if (w->head_ms == 0)
        return;
    pthread_mutex_lock(&w->lock);
    for (struct watch_conn *c = w->conns; c; c = c->next) {
        int64_t since = atomic_load(&c->head_since);
        if (since != 0 && !c->shut && t - since > w->head_ms) {
            shutdown(c->fd, SHUT_RDWR);
            c->shut = 1;
        }
    }
    pthread_mutex_unlock(&w->lock);
}

/* Read what is pending on drain `d`; 1 when it is finished with. */
static int drain_read(struct watch *w, struct drain *d, int64_t t)
{
    for (;;) {
        ssize_t n = recv(d->fd, w->sink, sizeof w->sink, MSG_DONTWAIT);
        if (n > 0) {
            d->bytes += n;
            d->last = t;
            if (d->bytes > WATCH_LINGER_BYTES)
                return 1;
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n < 0 && errno == EINTR)
            continue;
        return 1;   /* end of file or an error: the client is done */
    }
    return t - d->since > WATCH_LINGER_MS || t - d->last > WATCH_LINGER_IDLE_MS;
}

static void *watch_main(void *arg)
{
    struct watch *w = arg;
    struct pollfd pfd[WATCH_MAX_DRAINS + 1];
    struct drain mine[WATCH_MAX_DRAINS];
    int done[WATCH_MAX_DRAINS];
    int64_t next_tick = now_ms();
    for (;;) {
        /* Only this thread removes drains and others only append, so the
         * first n stay where they are while the lock is released to read. */
        pthread_mutex_lock(&w->lock);
        int stop = w->stop, n = w->ndrains;
        for (int i = 0; i < n; i++) {
            mine[i] = w->drains[i];
            pfd[i] = (struct pollfd){.fd = mine[i].fd, .events = POLLIN};
        }
        pthread_mutex_unlock(&w->lock);
        if (stop)
            return NULL;
        pfd[n] = (struct pollfd){.fd = w->wake[0], .events = POLLIN};
        int64_t t = now_ms();
        poll(pfd, (nfds_t)n + 1, next_tick > t ? (int)(next_tick - t) : 0);
        if (pfd[n].revents & POLLIN) {
            char b[64];
            ssize_t r = read(w->wake[0], b, sizeof b);
            (void)r;
        }
        t = now_ms();
        for (int i = 0; i < n; i++) {
            done[i] = drain_read(w, &mine[i], t);
            if (done[i])
                close(mine[i].fd);
        }
        pthread_mutex_lock(&w->lock);
        int k = 0;
        for (int i = 0; i < w->ndrains; i++)
            if (i >= n || !done[i])
                w->drains[k++] = i < n ? mine[i] : w->drains[i];
        w->ndrains = k;
        pthread_mutex_unlock(&w->lock);
        if (t >= next_tick) {
            enforce_deadlines(w, t);
            next_tick = t + WATCH_TICK_MS;
        }
    }
}

int watch_start(unsigned head_ms, struct watch **out, struct sz_error *err)
{
    struct watch *w = calloc(1, sizeof *w);
    if (w == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    w->head_ms = head_ms;
    if (pipe2(w->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        free(w);
        return sz_fail(err, SZ_INTERNAL, NULL, "cannot create the watcher's pipe");
    }
    pthread_mutex_init(&w->lock, NULL);
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        close(w->wake[0]);
        close(w->wake[1]);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return sz_fail(err, SZ_INTERNAL, NULL, "cannot start the watcher's thread");
    }
    *out = w;
    return 0;
}

void watch_stop(struct watch *w)
{
    if (w == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_mutex_unlock(&w->lock);
    char b = 1;
    ssize_t r = write(w->wake[1], &b, 1);
    (void)r;
    pthread_join(w->thread, NULL);
    for (int i = 0; i < w->ndrains; i++)
        close(w->drains[i].fd);
    close(w->wake[0]);
    close(w->wake[1]);
    pthread_mutex_destroy(&w->lock);
    free(w);
}
