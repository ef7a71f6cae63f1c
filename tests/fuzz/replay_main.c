/* replay_main.c - a main() for the fuzz targets without libFuzzer: feed every
 * file named on the command line (or found directly in a named directory) to
 * LLVMFuzzerTestOneInput once.  `make fuzz-replay` links it with ASan+UBSan
 * builds of the targets, so the committed corpora act as regression tests on
 * any compiler.  It prints "<target>: N passed, 0 failed"; a failing input
 * aborts in the target, which is the failure report. */
#define _DEFAULT_SOURCE 1   /* opendir, readdir and d_type under -std=c11 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define HAVE_DEATH_CALLBACK 1
#endif
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* The input being run, named when the target aborts or a sanitizer kills
 * the process, so that a failure says which corpus file to look at. */
static char current[4096];

static void name_current(void)
{
    static const char pre[] = "replay: failing input: ";
    ssize_t rc = write(2, pre, sizeof pre - 1);
    rc = write(2, current, strlen(current));
    rc = write(2, "\n", 1);
    (void)rc;
}

static void on_abort(int sig)
{
    name_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int replay_file(const char *path)
{
    snprintf(current, sizeof current, "%s", path);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (buf == NULL) {
        fprintf(stderr, "replay: out of memory on %s\n", path);
        return -1;
    }
    /* An exact-size copy, so ASan catches a read one past the input. */
    uint8_t *exact = malloc(n ? n : 1);
    if (exact == NULL)
        return -1;
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    signal(SIGABRT, on_abort);
#ifdef HAVE_DEATH_CALLBACK
    __sanitizer_set_death_callback(name_current);
#endif
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    const char *name = strrchr(argv[0], '/');
    name = name ? name + 1 : argv[0];
    int count = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            bad++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad += replay_file(argv[i]) < 0;
            count++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
            if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
                continue;
            bad += replay_file(path) < 0;
            count++;
        }
        if (d)
            closedir(d);
    }
    printf("%s: %d passed, %d failed\n", name, count - bad, bad);
    return bad ? 1 : 0;
}
