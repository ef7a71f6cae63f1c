/* test_ptx_cli.c - build/swizzlescope-ptx as CI runs it: the table, --json,
 * and the exit status (0 done, 1 over --max-excess, 2 bad input or a kernel
 * fault, with file:line:column for malformed PTX).  Writes its PTX under
 * build/test/ and runs the command through the shell (make test builds it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"

#define BIN "build/swizzlescope-ptx"
#define DIR "build/test/ptx_cli"

/* Rows of `row` bytes: 128 (naive, 32-way column read) or 132 (padded). */
static const char *const ptx_fmt =
    ".version 9.0\n.target sm_90a\n.address_size 64\n"
    ".visible .entry t(.param .u64 out)\n{\n"
    "\t.reg .b32 %%r<12>;\n\t.reg .f32 %%f<3>;\n"
    "\t.shared .align 4 .b8 tile[4224];\n"
    "\t.loc 1 4 5\n"
    "\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, %%tid.y;\n\tmov.u32 %%r5, tile;\n"
    "\tmad.lo.u32 %%r6, %%r2, %u, %%r5;\n\tshl.b32 %%r7, %%r1, 2;\n"
    "\tadd.u32 %%r8, %%r6, %%r7;\n\tst.shared.f32 [%%r8], %%f1;\n"
    "\tbar.sync 0;\n"
    "\t.loc 1 6 5\n"
    "\tmad.lo.u32 %%r9, %%r1, %u, %%r5;\n\tshl.b32 %%r11, %%r2, 2;\n"
    "\tadd.u32 %%r4, %%r9, %%r11;\n\tld.shared.f32 %%f2, [%%r4];\n"
    "\tret;\n}\n\t.file 1 \"t.cu\"\n";

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The exit status of `args` run on BIN, its stdout and stderr in DIR/out, DIR/err. */
static int run(const char *args)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, BIN " %s >" DIR "/out 2>" DIR "/err", args);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int file_has(const char *path, const char *needle)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

int main(void)
{
    if (system("mkdir -p " DIR) != 0) {
        CHECK(0, "mkdir " DIR);
        return check_summary("test_ptx_cli");
    }
    char text[2048];
    snprintf(text, sizeof text, ptx_fmt, 128u, 128u);
    put(DIR "/naive.ptx", text);
    snprintf(text, sizeof text, ptx_fmt, 132u, 132u);
    put(DIR "/padded.ptx", text);
    put(DIR "/bad.ptx", ".version 9.0\n.target sm_90a\n.visible .entry k()\n{\n\tbra NOWHERE;\n}\n");

    /* what it prints and its exit status: 32 warps x 31 excess wavefronts of
     * the column read make 992 */
    static const struct {
        const char *args;
        int status;
        const char *says;
    } done[] = {
        {DIR "/naive.ptx --block 32,32 --param null", 0, "t.cu:6"},
        {DIR "/naive.ptx --block 32,32 --param null", 0, "992"},
        {DIR "/naive.ptx --block 32,32 --param null --max-excess 991", 1, "excess wavefronts 992"},
        {DIR "/naive.ptx --block 32,32 --param null --max-excess 992", 0, "exact: yes"},
        {DIR "/padded.ptx --block 32,32 --max-excess 0", 0, "ld     executions 32"},
        {DIR "/padded.ptx --block 32,32 --json", 0, "\"totals\":{\"ld\":{\"executions\":32,"},
    };
    for (size_t i = 0; i < sizeof done / sizeof done[0]; i++) {
        int st = run(done[i].args);
        CHECK(st == done[i].status && file_has(DIR "/out", done[i].says),
              "%s: exit %d (want %d), stdout lacks \"%s\"", done[i].args, st, done[i].status,
              done[i].says);
    }
    /* bad input: exit 2 and what stderr says */
    static const char *const refused[][2] = {
        {DIR "/bad.ptx --block 1", "bad.ptx:5:6: invalid_argument"},
        {DIR "/nosuch.ptx --block 1", "nosuch.ptx"},
        {DIR "/padded.ptx --block 32,32 --param 1 --param 2", "takes 1 parameters"},
        {DIR "/padded.ptx --block 2000", "1..1024 threads"},
        {DIR "/padded.ptx --block 32 --bogus 1", "unknown option --bogus"},
        {DIR "/padded.ptx", "usage"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        int st = run(refused[i][0]);
        CHECK(st == 2 && file_has(DIR "/err", refused[i][1]), "%s: exit %d, stderr lacks \"%s\"",
              refused[i][0], st, refused[i][1]);
    }
    return check_summary("test_ptx_cli");
}
