/* test_sha256.c - sha256.c against the FIPS 180-2 appendix B / NIST CAVP
 * example messages, every length across the padding's block boundaries
 * against coreutils' sha256sum, and base64.c against RFC 4648 section 10.
 * Pure: no server. */
#define _GNU_SOURCE 1   /* popen under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base64.h"
#include "base/sha256.h"
#include "check.h"

static void hex(const unsigned char *d, char *out)
{
    for (int i = 0; i < SHA256_BYTES; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_fips(void)
{
    static const struct {
        const char *msg, *digest;
    } cases[] = {
        /* FIPS 180-2 appendix B.1: one block */
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        /* the empty message (NIST CAVP SHA256ShortMsg, Len = 0) */
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        /* B.2: the 448-bit message, whose padding needs a second block */
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        /* the 896-bit message (NIST's example set) */
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrl"
         "mnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned char d[SHA256_BYTES];
        char h[2 * SHA256_BYTES + 1];
        sha256_digest(cases[i].msg, strlen(cases[i].msg), d);
        hex(d, h);
        CHECK(strcmp(h, cases[i].digest) == 0, "sha256(\"%.20s\"): %s, want %s", cases[i].msg, h,
              cases[i].digest);
    }
    /* B.3: one million 'a' (many whole blocks, the length past 2^23 bits) */
    size_t n = 1000000;
    char *m = malloc(n);
    if (m == NULL)
        abort();
    memset(m, 'a', n);
    unsigned char d[SHA256_BYTES];
    char h[2 * SHA256_BYTES + 1];
    sha256_digest(m, n, d);
    hex(d, h);
    CHECK(strcmp(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0,
          "sha256(a x 10^6): %s", h);
    free(m);
}

/* Every length 0..200 (the tail's 55/56 and 63/64 edges, twice over) of a
 * message with every byte value, against sha256sum (coreutils). */
static void test_lengths(void)
{
    char path[] = "/tmp/swz-sha256-XXXXXX";
    int fails = 0;
    unsigned char msg[200];
    for (int i = 0; i < 200; i++)
        msg[i] = (unsigned char)(i * 37 + 11);
    for (size_t len = 0; len <= sizeof msg; len++) {
        int fd = mkstemp(path);
        FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
        if (f == NULL)
            abort();
        fwrite(msg, 1, len, f);
        fclose(f);
        char cmd[96], want[80] = "";
        snprintf(cmd, sizeof cmd, "sha256sum %s", path);
        FILE *p = popen(cmd, "r");
        if (p == NULL || fscanf(p, "%64s", want) != 1)
            abort();
        pclose(p);
        unlink(path);
        strcpy(path, "/tmp/swz-sha256-XXXXXX");
        unsigned char d[SHA256_BYTES];
        char h[2 * SHA256_BYTES + 1];
        sha256_digest(msg, len, d);
        hex(d, h);
        CHECK_QUIET(fails, strcmp(h, want) == 0, "length %zu: %s, sha256sum %s", len, h, want);
    }
    CHECK(fails == 0, "sha256 agrees with sha256sum at every length 0..200");
}

static void test_base64(void)
{
    static const char *const cases[][2] = {
        {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[16];
        size_t n = base64_encode((const unsigned char *)cases[i][0], strlen(cases[i][0]), out);
        CHECK(strcmp(out, cases[i][1]) == 0 && n == strlen(cases[i][1]) &&
              n == BASE64_LEN(strlen(cases[i][0])), "base64(\"%s\"): %s, want %s", cases[i][0],
              out, cases[i][1]);
    }
    /* a digest as a CSP hash-source spells it: sha256("") */
    unsigned char d[SHA256_BYTES];
    char b[BASE64_LEN(SHA256_BYTES) + 1];
    sha256_digest("", 0, d);
    base64_encode(d, sizeof d, b);
    CHECK(strcmp(b, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=") == 0, "base64(sha256('')): %s", b);
}

int main(void)
{
    test_fips();
    test_lengths();
    test_base64();
    return check_summary("test_sha256");
}
