/* ptxrun.h: the measurement tool's --ptx mode (ptxrun.cu): a PTX module's entry launched as
 * given, measured under Nsight Compute per kind, per source line and per SASS instruction.
 * Host code of the tool only; probe.cu's main hands the whole command line over. */
#ifndef SZ_PTXRUN_H
#define SZ_PTXRUN_H

/* Runs the --ptx mode over the tool's command line and returns 0 after printing the answer
 * (JSON with --json, else a table). Bad input ends the process with exit 2, no device with
 * 3, a CUDA failure with 4, --require-ncu without counters with 6 (the message on stderr,
 * and as {"error":...} on stdout with --json); a profiler failure is a reason in the answer. */
int ptxrun_main(int argc, char **argv);

#endif
