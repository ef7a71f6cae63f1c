/* sha256.h - SHA-256 (FIPS 180-4) of a byte string held whole in memory: the
 * CSP hash-source of an inline script the server writes into a page.
 * Not a streaming or keyed hash, and not for secrets (no constant-time care). */
#ifndef SZ_SHA256_H
#define SZ_SHA256_H

#include <stddef.h>

#define SHA256_BYTES 32

/* The 32-byte digest of data[0..len) into out.  Any len, data may be NULL when
 * len is 0; never fails. */
void sha256_digest(const void *data, size_t len, unsigned char out[SHA256_BYTES]);

#endif
