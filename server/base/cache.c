/* cache.c - direct-mapped cache of response bodies: one slot per hash, the
 * newcomer replaces the old entry (no LRU bookkeeping on the hot path).
 * One mutex: a lookup holds it only for a hash compare and a memcpy.
 * Must not grow without bound: total bytes are capped at CACHE_MAX_BYTES. */
#include "cache.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct slot {
    char *key;
    char *body;
    size_t len;
};

static struct slot slots[CACHE_SLOTS];
static size_t total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* FNV-1a: keys are short query strings; this spreads them well enough. */
static size_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)(h & (CACHE_SLOTS - 1));
}

int cache_get(const char *key, char **body, size_t *len)
{
    struct slot *sl = &slots[hash(key)];
    int hit = 0;
    pthread_mutex_lock(&lock);
    if (sl->key && strcmp(sl->key, key) == 0) {
        char *copy = malloc(sl->len + 1);
        if (copy) {
            memcpy(copy, sl->body, sl->len + 1);
            *body = copy;
            *len = sl->len;
            hit = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return hit;
}

static void drop(struct slot *sl)
{
    total -= sl->len;
    free(sl->key);
    free(sl->body);
    sl->key = sl->body = NULL;
    sl->len = 0;
}

void cache_put(const char *key, const char *body, size_t len)
{
    if (len > CACHE_MAX_BODY)
        return;
    size_t klen = strlen(key);
    /* Copies made outside the lock: only the swap happens under it. */
    char *k = malloc(klen + 1), *b = malloc(len + 1);
    if (k == NULL || b == NULL) {
        free(k);
        free(b);
        return;
    }
    memcpy(k, key, klen + 1);
    memcpy(b, body, len);
    b[len] = '\0';
    struct slot *sl = &slots[hash(key)];
    struct slot old = {0};
    pthread_mutex_lock(&lock);
    if (total - sl->len + len <= CACHE_MAX_BYTES) {
        old = *sl;
        total = total - sl->len + len;
        sl->key = k;
        sl->body = b;
        sl->len = len;
        k = b = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(old.key);
    free(old.body);
    free(k);
    free(b);
}

void cache_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < CACHE_SLOTS; i++)
        if (slots[i].key)
            drop(&slots[i]);
    pthread_mutex_unlock(&lock);
}
