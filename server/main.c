/* main.c - command line, signals, start and stop.  The only file that may exit
 * the process or print to the terminal; everything else reports sz_errors. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "net/http.h"
#include "base/measure.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void *probe_main(void *arg)
{
    (void)arg;
    api_measure_probe();
    return NULL;
}

static void usage(FILE *f)
{
    fputs("usage: swizzlescope [--port N] [--bind ADDR] [--static DIR] [--threads N]\n"
          "                    [--max-connections N] [--measure-tool PATH|none]\n"
          "                    [--embed-origins LIST] [--help]\n"
          "\n"
          "Serves the swizzlescope page and JSON API.\n"
          "  --port N       TCP port, 0..65535 (default 8080; 0 picks a free one)\n"
          "  --bind ADDR    numeric IPv4/IPv6 address to listen on (default 127.0.0.1);\n"
          "                 anything but loopback exposes the server to the network\n"
          "  --static DIR   directory of the page's files (default ./static)\n"
          "  --examples DIR the page's example kernels, served as /kernels/ (default:\n"
          "                 the test corpus, DIR/../tests/data/ptx/corpus of --static)\n"
          "  --threads N    worker threads, 2..64 (default: two per online CPU,\n"
          "                 at least 2; 8 past 32 CPUs)\n"
          "  --max-connections N\n"
          "                 open connections at once, 1..65535 (default 1024); past\n"
          "                 it new ones wait in the listen queue.  A request (head\n"
          "                 and body) must arrive within 10 s, so a slow client\n"
          "                 holds one for 10 s at most\n"
          "  --embed-origins LIST\n"
          "                 origins that may frame the pages (slides: ?embed=1), e.g.\n"
          "                 'https://slides.example.org http://localhost:8000'; up to 8,\n"
          "                 scheme://host[:port] each.  Default: no framing at all\n"
          "  --measure-tool PATH\n"
          "                 the GPU measurement program (default: swizzlescope-measure\n"
          "                 beside this binary); 'none' disables measurement\n"
          "  -h, --help     this text\n",
          f);
}

/* A decimal in 0..65535, digits only (no sign, no spaces): ports and thread counts. */
static int parse_u16(const char *s, unsigned *out)
{
    if (s == NULL || *s == '\0' || strspn(s, "0123456789") != strlen(s) || strlen(s) > 5)
        return -1;
    unsigned long v = strtoul(s, NULL, 10);
    if (v > 65535)
        return -1;
    *out = (unsigned)v;
    return 0;
}

int main(int argc, char **argv)
{
    struct http_config cfg = {.bind = "127.0.0.1", .port = 8080, .static_dir = "static"};
    const char *tool = NULL;
    int tool_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--port") == 0) {
            unsigned p;
            if (parse_u16(v, &p) < 0) {
                fprintf(stderr, "swizzlescope: --port needs a number in 0..65535\n");
                return 2;
            }
            cfg.port = (uint16_t)p;
            i++;
        } else if (strcmp(a, "--bind") == 0 && v) {
            cfg.bind = v;
            i++;
        } else if (strcmp(a, "--threads") == 0) {
            unsigned n;
            if (parse_u16(v, &n) < 0 || n < 2 || n > 64) {
                fprintf(stderr, "swizzlescope: --threads needs a number in 2..64\n");
                return 2;
            }
            cfg.threads = n;
            i++;
        } else if (strcmp(a, "--max-connections") == 0) {
            unsigned n;
            if (parse_u16(v, &n) < 0 || n < 1) {
                fprintf(stderr, "swizzlescope: --max-connections needs a number in 1..65535\n");
                return 2;
            }
            cfg.max_connections = n;
            i++;
        } else if (strcmp(a, "--measure-tool") == 0 && v) {
            tool = strcmp(v, "none") == 0 ? NULL : v;
            tool_given = 1;
            i++;
        } else if (strcmp(a, "--embed-origins") == 0 && v) {
            cfg.embed_origins = v;   /* checked by http_start */
            i++;
        } else if (strcmp(a, "--static") == 0 && v) {
            cfg.static_dir = v;
            i++;
        } else if (strcmp(a, "--examples") == 0 && v) {
            cfg.examples_dir = v;
            i++;
        } else {
            fprintf(stderr, "swizzlescope: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }

    /* The tool is built next to the server (build/), wherever we are run from. */
    char default_tool[4096];
    if (!tool_given) {
        ssize_t n = readlink("/proc/self/exe", default_tool, sizeof default_tool - 32);
        if (n > 0) {
            default_tool[n] = '\0';
            char *slash = strrchr(default_tool, '/');
            strcpy(slash ? slash + 1 : default_tool, "swizzlescope-measure");
            tool = default_tool;
        }
    }
    struct api_config acfg = {.measure_tool = tool, .measure_timeout_ms = 30000,
                              .info_timeout_ms = 15000};
    api_measure_setup(&acfg);

    /* Block the stop signals before the daemon's threads start so that they
     * inherit the mask and only this thread, in sigsuspend, receives them. */
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &old);

    struct http_server *srv;
    struct sz_error err;
    if (http_start(&cfg, &srv, &err) < 0) {
        fprintf(stderr, "swizzlescope: %s\n", err.message);
        return 1;
    }
    if (!http_is_loopback(srv))
        fprintf(stderr, "swizzlescope: WARNING: listening on %s, not loopback: "
                "anyone who can reach this address can use the API\n", cfg.bind);
    const char *host = strchr(cfg.bind, ':') ? NULL : cfg.bind;
    if (host)
        printf("swizzlescope serving http://%s:%u/\n", host, (unsigned)http_port(srv));
    else
        printf("swizzlescope serving http://[%s]:%u/\n", cfg.bind, (unsigned)http_port(srv));
    fflush(stdout);

    /* Listen first, then ask the tool which GPU it sees (up to 15 s) on a
     * thread of its own; its line is printed when it comes. */
    pthread_t probe;
    int probing = pthread_create(&probe, NULL, probe_main, NULL) == 0;
    if (!probing)
        api_measure_probe();
    int told = 0;
    while (!stop_requested) {
        if (!told && api_measure_probed()) {
            char health[1024];
            api_measure_status(health, sizeof health);
            printf("%s\n", health);
            fflush(stdout);
            told = 1;
        }
        struct timespec tick = {0, told ? 0 : 50 * 1000 * 1000};
        if (told)
            sigsuspend(&old);
        else if (sigtimedwait(&block, NULL, &tick) > 0)
            stop_requested = 1;
    }
    /* A measurement may have up to 30 s left, the probe 15 s: end them now,
     * so that http_stop (which lets in-flight answers finish) returns within
     * a second. */
    measure_cancel_all();
    if (probing)
        pthread_join(probe, NULL);
    http_stop(srv);
    printf("swizzlescope stopped\n");
    return 0;
}
