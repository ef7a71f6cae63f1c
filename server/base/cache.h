/* cache.h - a bounded, thread-safe cache of response bodies keyed by request.
 *
 * The GET routes are pure functions of their query, and a classroom asks the
 * same few views over and over: answering a repeat with a copy of the bytes
 * is what lets the API keep pace with a static file server.  The cache knows
 * nothing of HTTP or JSON; it never holds more than CACHE_MAX_BYTES. */
#ifndef SZ_CACHE_H
#define SZ_CACHE_H

#include <stddef.h>

#define CACHE_SLOTS 512                 /* entries, a power of two */
#define CACHE_MAX_BODY (256u * 1024)    /* larger answers are rebuilt each time */
#define CACHE_MAX_BYTES (32u * 1024 * 1024)

/* Copy the body stored under `key` into a fresh malloc'd buffer (*body, *len;
 * caller frees).  Returns 1 on a hit, 0 on a miss or when memory runs out. */
int cache_get(const char *key, char **body, size_t *len);

/* Store a copy of `body` under `key`, replacing whatever held its slot; a body
 * over CACHE_MAX_BODY, or one that would push the total past CACHE_MAX_BYTES,
 * is not stored.  Never fails visibly: a cache may always forget. */
void cache_put(const char *key, const char *body, size_t len);

/* Forget everything (tests, and reconfiguration). */
void cache_clear(void);

#endif
