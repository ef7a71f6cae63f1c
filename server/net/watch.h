/* watch.h - a server's open sockets as seen from outside its HTTP library: a
 * deadline on receiving each request, head and body (slowloris), and a lingering close
 * for a socket closed while its client may still be sending (so that the
 * client reads the answer instead of a reset).
 *
 * One thread per watcher.  It never reads a socket its owner still holds (it
 * may only shut one down) and closes only descriptors it duplicated itself. */
#ifndef SZ_WATCH_H
#define SZ_WATCH_H

#include "base/error.h"

/* A closed socket is drained for at most this long, this long without a byte,
 * or this many bytes, whichever comes first; then it is closed (a client still
 * sending then gets a reset).  nginx's lingering close bounds by time alone
 * (30 s, 5 s idle); bytes are bounded too because loopback is fast. */
#define WATCH_LINGER_MS 10000
#define WATCH_LINGER_IDLE_MS 2000
#define WATCH_LINGER_BYTES ((long long)64 << 20)
/* Sockets drained at once; past this, a closed socket is closed at once. */
#define WATCH_MAX_DRAINS 64

struct watch;
struct watch_conn;

/* Start the thread.  `head_ms` bounds the time from a connection's accept (or
 * its previous answer, on a kept-alive one) to its next request's complete
 * head and body (watch_received); 0 means no bound.  Fails with SZ_INTERNAL when out of memory or
 * threads. */
int watch_start(unsigned head_ms, struct watch **out, struct sz_error *err);

/* A connection was accepted on socket `fd`: its head clock starts.  NULL when
 * out of memory (the connection then goes unwatched: no deadline, no drain). */
struct watch_conn *watch_open(struct watch *w, int fd);

/* Its request is all in (head and body), or answered early: the clock
 * stops.  NULL is a no-op; any thread. */
void watch_received(struct watch_conn *c);

/* Its request is answered; on a kept-alive connection the next head's clock
 * starts now.  NULL is a no-op; any thread. */
void watch_request_done(struct watch_conn *c);

/* The answer was queued with the request's body unread: drain at close even
 * if nothing is pending then.  NULL is a no-op; any thread. */
void watch_linger(struct watch_conn *c);

/* Its owner is about to close the socket (call before the close): forget the
 * connection and, if marked by watch_linger or input is pending, keep a
 * duplicate of the socket to half-close and drain.  Frees `c`; NULL is a no-op. */
void watch_close(struct watch *w, struct watch_conn *c);

/* Stop the thread, close every socket still draining, free `w`.  Every
 * connection must have been closed first.  NULL is a no-op. */
void watch_stop(struct watch *w);

#endif
