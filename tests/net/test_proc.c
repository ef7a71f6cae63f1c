/* test_proc.c - the one child-process runner (server/base/proc.c) on its own, with
 * sh and coreutils as children: stdin fed in full or abandoned, stdout capped,
 * stderr's head or tail, exit codes and signals, the deadline (the child, its
 * process group, one that lingers after closing its pipes), descendants that
 * leave the session, clear their environment or are orphaned (none outlives
 * its run, and two runs at once never kill each other's), PATH search and a
 * clean signal state in the child.  test_measure (the server running the
 * tool) and test_tool (the tool running ncu) test its two callers. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/proc.h"
#include "check.h"

static struct proc run(char **argv, const char *input, size_t len, size_t out_cap,
                       size_t err_cap, int tail, int group, double timeout_s)
{
    struct proc_spec spec = {.argv = argv, .input = input, .input_len = len,
                             .out_cap = out_cap, .err_cap = err_cap, .err_tail = tail,
                             .own_group = group};
    struct proc p;
    struct sz_error err;
    if (proc_run(&spec, timeout_s, &p, &err) < 0)
        fprintf(stderr, "proc_run: %s\n", err.message);
    return p;
}

static void test_io(void)
{
    size_t n = 3u << 20;
    char *in = malloc(n);
    for (size_t i = 0; i < n; i++)
        in[i] = (char)('a' + i % 26);
    char *cat[] = {"cat", NULL};
    struct proc p = run(cat, in, n, 4u << 20, 100, 0, 0, 20);
    CHECK(p.exit_code == 0 && p.out_len == n && memcmp(p.out, in, n) == 0 && !p.out_truncated,
          "3 MiB through cat: exit %d, %zu bytes", p.exit_code, p.out_len);
    proc_free(&p);

    p = run(cat, in, n, 1u << 20, 100, 0, 1, 20);
    CHECK(p.exit_code == 0 && p.out_len == 1u << 20 && p.out_truncated && p.out[p.out_len] == 0 &&
          memcmp(p.out, in, p.out_len) == 0, "stdout capped at 1 MiB: %zu", p.out_len);
    proc_free(&p);

    /* A child that reads nothing: no SIGPIPE for us, its own exit for it. */
    char *t[] = {"true", NULL};
    p = run(t, in, n, 100, 100, 0, 0, 20);
    CHECK(p.exit_code == 0 && !p.timed_out && p.out_len == 0 && p.out[0] == '\0',
          "input not read: exit %d", p.exit_code);
    proc_free(&p);
    free(in);

    char *err_sh[] = {"sh", "-c", "printf 0123456789 >&2; printf END >&2", NULL};
    p = run(err_sh, NULL, 0, 100, 8, 1, 0, 20);
    CHECK(p.err_len == 8 && strcmp(p.err, "56789END") == 0 && p.err_truncated,
          "stderr tail: '%s'", p.err);
    proc_free(&p);
    p = run(err_sh, NULL, 0, 100, 4, 0, 0, 20);
    CHECK(p.err_len == 4 && strcmp(p.err, "0123") == 0 && p.err_truncated, "stderr head: '%s'",
          p.err);
    proc_free(&p);
    char *big_err[] = {"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x >&2; echo WHY >&2",
                       NULL};
    p = run(big_err, NULL, 0, 100, 400, 1, 0, 20);
    CHECK(p.err_len == 400 && strcmp(p.err + 396, "WHY\n") == 0, "tail of a flood: %zu",
          p.err_len);
    proc_free(&p);
}

/* `pid`'s state letter (R, S, Z...), or 0 when it is gone. */
static char state_of(int pid)
{
    char path[64], line[256], st = 0;
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "State:", 6) == 0)
            sscanf(line + 6, " %c", &st);
    fclose(f);
    return st;
}

/* Gone, or a zombie its new parent has not reaped yet: within a second. */
static int dead(int pid)
{
    for (int i = 0; i < 100; i++) {
        char st = state_of(pid);
        if (st == 0 || st == 'Z' || st == 'X')
            return 1;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* The pid a child wrote to `path`, waiting up to 2 s for it; 0 when none. */
static int pid_from(const char *path)
{
    for (int i = 0; i < 200; i++) {
        FILE *f = fopen(path, "r");
        int pid = 0;
        if (f) {
            if (fscanf(f, "%d", &pid) != 1)
                pid = 0;
            fclose(f);
        }
        if (pid > 0)
            return pid;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* Whether `pid` is gone, not even a zombie (so: reaped), within 1 s. */
static int reaped(int pid)
{
    for (int i = 0; i < 100; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d", pid);
        if (access(path, F_OK) != 0)
            return 1;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static void test_endings(void)
{
    char *ex[] = {"sh", "-c", "exit 7", NULL};
    struct proc p = run(ex, NULL, 0, 100, 100, 0, 0, 20);
    CHECK(p.exit_code == 7 && p.signal == 0 && !p.timed_out, "exit 7: %d", p.exit_code);
    proc_free(&p);
    char *seg[] = {"sh", "-c", "kill -SEGV $$", NULL};
    p = run(seg, NULL, 0, 100, 100, 0, 0, 20);
    CHECK(p.exit_code == -1 && p.signal == SIGSEGV, "signal: %d %d", p.exit_code, p.signal);
    proc_free(&p);

    /* The deadline, with a grandchild that holds stdout: the group dies whole. */
    char pidfile[] = "/tmp/swz-proc-XXXXXX";
    int fd = mkstemp(pidfile);
    close(fd);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "sleep 30 & echo $! > %s; wait", pidfile);
    char *hang[] = {"sh", "-c", cmd, NULL};
    double t0 = proc_now();
    p = run(hang, NULL, 0, 100, 100, 0, 1, 0.5);
    double dt = proc_now() - t0;
    CHECK(p.timed_out && p.signal == SIGKILL && dt < 2.0, "hang killed at 0.5 s: %.2f s", dt);
    proc_free(&p);
    int gc = pid_from(pidfile);
    unlink(pidfile);
    CHECK(gc > 0 && dead(gc), "the grandchild %d died with its group", gc);

    /* In our group (the tool's ncu): the child alone is killed. */
    char *sl[] = {"sleep", "30", NULL};
    t0 = proc_now();
    p = run(sl, NULL, 0, 100, 100, 0, 0, 0.3);
    CHECK(p.timed_out && p.signal == SIGKILL && proc_now() - t0 < 2.0, "sleep killed");
    proc_free(&p);

    /* Pipes closed, process still there: the same deadline ends it. */
    char *linger[] = {"sh", "-c", "exec >&- 2>&-; sleep 30", NULL};
    t0 = proc_now();
    p = run(linger, NULL, 0, 100, 100, 0, 1, 0.5);
    CHECK(p.timed_out && proc_now() - t0 < 2.0, "lingering child killed: %.2f s",
          proc_now() - t0);
    proc_free(&p);
}

/* Issue 28: a grandchild that calls setsid leaves the process group and
 * survived every kill of it.  It must die (and be reaped) whether the child
 * exits on its own, is killed at the deadline, or runs in our group. */
static void test_setsid_descendants(void)
{
    for (int mode = 0; mode < 4; mode++) {
        char pidfile[] = "/tmp/swz-proc-XXXXXX";
        int fd = mkstemp(pidfile);
        close(fd);
        char cmd[400];
        /* setsid(1) forks when its caller leads a group; the pid written is
         * the one that sleeps, whatever it did.  A great-grandchild too. */
        if (mode == 3)      /* one that exits on its own: an orphan zombie, reaped */
            snprintf(cmd, sizeof cmd, "setsid sh -c 'echo $$ > %s' </dev/null >/dev/null 2>&1 "
                     "& sleep 0.3; exit 0", pidfile);
        else
            snprintf(cmd, sizeof cmd,
                     "setsid sh -c 'sleep 30 & echo $$ > %s; exec sleep 30' "
                     "</dev/null >/dev/null 2>&1 & sleep 0.2; %s", pidfile,
                     mode == 1 ? "sleep 30" : "exit 0");
        char *sh[] = {"sh", "-c", cmd, NULL};
        double t0 = proc_now();
        struct proc p = run(sh, NULL, 0, 100, 100, 0, mode != 2, mode == 1 ? 1.0 : 20);
        double dt = proc_now() - t0;
        int gc = pid_from(pidfile);
        unlink(pidfile);
        CHECK(gc > 0 && reaped(gc) && dt < 3.0,
              "mode %d: the setsid grandchild %d outlived its run (%.2f s)", mode, gc, dt);
        if (gc > 0)
            kill(gc, SIGKILL);
        proc_free(&p);
    }
}

static int alive(int pid)
{
    char st = state_of(pid);
    return st != 0 && st != 'Z' && st != 'X';
}

/* Leave nothing behind, whatever a check said. */
static void bury(int a, int b)
{
    if (a > 0)
        kill(a, SIGKILL);
    if (b > 0)
        kill(b, SIGKILL);
}

/* Issue 36: a descendant that clears its environment (env -i) and leaves the
 * session sheds every mark a child can carry; one started by a subshell that
 * exits at once (a double fork) is an orphan before the child ends.  Both
 * must be dead and reaped when proc_wait returns: when the child exits, at
 * the deadline, in its own group or in ours. */
static void envless_cmd(char *cmd, size_t cap, const char *f1, const char *f2, const char *end)
{
    snprintf(cmd, cap,
             "env -i setsid sh -c 'echo $$ > %s; exec sleep 300' </dev/null >/dev/null 2>&1 & "
             "(env -i setsid sh -c 'echo $$ > %s; exec sleep 300' </dev/null >/dev/null 2>&1 &); "
             "while [ ! -s %s ] || [ ! -s %s ]; do sleep 0.02; done; %s", f1, f2, f1, f2, end);
}

/* Whether `pid` is gone, not even a zombie, now. */
static int gone_now(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d", pid);
    return access(path, F_OK) != 0;
}

static void test_envless_descendants(void)
{
    for (int mode = 0; mode < 4; mode++) {
        char f1[] = "/tmp/swz-proc-XXXXXX", f2[] = "/tmp/swz-proc-XXXXXX", cmd[1200];
        close(mkstemp(f1));
        close(mkstemp(f2));
        int timeout = mode >= 2;
        envless_cmd(cmd, sizeof cmd, f1, f2, timeout ? "sleep 30" : "exit 0");
        char *sh[] = {"sh", "-c", cmd, NULL};
        double t0 = proc_now();
        struct proc p = run(sh, NULL, 0, 100, 100, 0, mode % 2, timeout ? 1.0 : 20);
        double dt = proc_now() - t0;
        int a = pid_from(f1), b = pid_from(f2);
        CHECK(a > 0 && b > 0 && gone_now(a) && gone_now(b) && p.timed_out == timeout &&
              dt < 3.0, "mode %d: env -i setsid %d and double-forked %d outlived the run "
              "(timed out %d, %.2f s)", mode, a, b, p.timed_out, dt);
        bury(a, b);
        unlink(f1);
        unlink(f2);
        proc_free(&p);
    }
}

/* Two runs at once: the end of one kills its own envless descendants, never
 * the other's, which die when their own run ends. */
struct bg_run {
    char f1[32], f2[32], release[32];   /* it ends once `release` exists */
    struct proc p;
};

static void *bg_main(void *arg)
{
    struct bg_run *r = arg;
    char cmd[1200], end[100];
    snprintf(end, sizeof end, "while [ ! -e %s ]; do sleep 0.02; done", r->release);
    envless_cmd(cmd, sizeof cmd, r->f1, r->f2, end);
    char *sh[] = {"sh", "-c", cmd, NULL};
    r->p = run(sh, NULL, 0, 100, 100, 0, 1, 20);
    return NULL;
}

static void test_concurrent_runs(void)
{
    struct bg_run bg;
    snprintf(bg.f1, sizeof bg.f1, "/tmp/swz-proc-XXXXXX");
    snprintf(bg.f2, sizeof bg.f2, "/tmp/swz-proc-XXXXXX");
    snprintf(bg.release, sizeof bg.release, "/tmp/swz-proc-XXXXXX");
    close(mkstemp(bg.f1));
    close(mkstemp(bg.f2));
    close(mkstemp(bg.release));
    unlink(bg.release);
    pthread_t t;
    pthread_create(&t, NULL, bg_main, &bg);
    int ba = pid_from(bg.f1), bb = pid_from(bg.f2);
    char f1[] = "/tmp/swz-proc-XXXXXX", f2[] = "/tmp/swz-proc-XXXXXX", cmd[1200];
    close(mkstemp(f1));
    close(mkstemp(f2));
    envless_cmd(cmd, sizeof cmd, f1, f2, "exit 0");
    char *sh[] = {"sh", "-c", cmd, NULL};
    for (int group = 0; group < 2; group++) {
        unlink(f1);
        unlink(f2);
        struct proc p = run(sh, NULL, 0, 100, 100, 0, group, 20);
        int a = pid_from(f1), b = pid_from(f2);
        CHECK(a > 0 && b > 0 && gone_now(a) && gone_now(b),
              "group %d: the quick run's descendants %d %d outlived it", group, a, b);
        CHECK(ba > 0 && bb > 0 && alive(ba) && alive(bb),
              "group %d: the quick run killed the other run's descendants %d %d", group, ba,
              bb);
        proc_free(&p);
        bury(a, b);
    }
    FILE *rel = fopen(bg.release, "w");
    if (rel)
        fclose(rel);
    pthread_join(t, NULL);
    CHECK(bg.p.exit_code == 0 && !bg.p.timed_out && gone_now(ba) && gone_now(bb),
          "the slow run (exit %d) left %d %d behind", bg.p.exit_code, ba, bb);
    proc_free(&bg.p);
    bury(ba, bb);
    unlink(f1);
    unlink(f2);
    unlink(bg.f1);
    unlink(bg.f2);
    unlink(bg.release);
}

static void test_start(void)
{
    char *none[] = {"swz-no-such-program", NULL};
    struct proc_spec spec = {.argv = none, .out_cap = 100, .err_cap = 100};
    struct proc p;
    struct sz_error err;
    CHECK(proc_start(&p, &spec, &err) < 0 && p.spawn_errno == ENOENT && p.pid == -1 &&
          strstr(err.message, "cannot start"), "missing program: %s", err.message);
    proc_wait(&p, proc_now() + 1);  /* a no-op on a child that never started */
    proc_free(&p);
    char *abs[] = {"/nonexistent/tool", NULL};
    spec.argv = abs;
    CHECK(proc_start(&p, &spec, &err) < 0 && p.spawn_errno == ENOENT, "missing path");
    proc_free(&p);

    char path[512];
    CHECK(proc_which("sh", NULL, path, sizeof path) == 0 && access(path, X_OK) == 0 &&
          strstr(path, "/sh"), "which sh: %s", path);
    static const char *const fb[] = {"/nonexistent/x", "/bin/sh", NULL};
    CHECK(proc_which("swz-no-such-program", fb, path, sizeof path) == 0 &&
          strcmp(path, "/bin/sh") == 0, "fallback: %s", path);
    CHECK(proc_which("swz-no-such-program", NULL, path, sizeof path) < 0, "not found");

    /* We ignore SIGPIPE and may block signals; the child must do neither. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, &old);
    char *st[] = {"cat", "/proc/self/status", NULL};
    p = run(st, NULL, 0, 1 << 16, 100, 0, 0, 20);
    sigprocmask(SIG_SETMASK, &old, NULL);
    const char *ign = strstr(p.out, "SigIgn:"), *blk = strstr(p.out, "SigBlk:");
    unsigned long long ig = ign ? strtoull(ign + 7, NULL, 16) : ~0ull;
    unsigned long long bl = blk ? strtoull(blk + 7, NULL, 16) : ~0ull;
    CHECK(!(ig & (1ull << (SIGPIPE - 1))) && bl == 0, "child SigIgn %llx SigBlk %llx", ig, bl);
    proc_free(&p);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);   /* proc.h's contract */
    test_io();
    test_endings();
    test_setsid_descendants();
    test_envless_descendants();
    test_concurrent_runs();
    test_start();
    return check_summary("test_proc");
}
