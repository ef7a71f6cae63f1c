/* base64.h - the standard base64 alphabet with '=' padding (RFC 4648 section
 * 4), as a CSP hash-source spells a digest.  Encoding only; not the URL-safe
 * alphabet. */
#ifndef SZ_BASE64_H
#define SZ_BASE64_H

#include <stddef.h>

/* The characters base64_encode writes for n bytes, without the NUL. */
#define BASE64_LEN(n) (((n) + 2) / 3 * 4)

/* Write data[0..n) as base64 into out, NUL-terminated: out must hold
 * BASE64_LEN(n) + 1 bytes.  Returns the length written; never fails. */
size_t base64_encode(const unsigned char *data, size_t n, char *out);

#endif
