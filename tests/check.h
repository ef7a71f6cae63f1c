/* check.h - the smallest test harness that does the job: CHECK counts a pass or
 * prints the failing expression with its location; check_summary prints
 * "N passed, N failed" last and gives the exit status.  Header-only, C11. */
#ifndef SZ_CHECK_H
#define SZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (cond) {                                                         \
            check_passed++;                                                 \
        } else {                                                            \
            check_failed++;                                                 \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

/* CHECK for sweeps: counts one pass per sweep, reports at most 5 failures. */
#define CHECK_QUIET(failures, cond, ...)                                    \
    do {                                                                    \
        if (!(cond) && (failures)++ < 5) {                                  \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

/* TEST_SMALL=1: the suite's long sweeps run small (make test's sanitized
 * run of a suite it also runs whole on the plain build: tests/run_all.sh
 * SWEEPS). */
static inline int check_small(void)
{
    const char *s = getenv("TEST_SMALL");
    return s != NULL && strcmp(s, "1") == 0;
}

static int check_summary(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
