/* pattern.h: one warp access pattern (the body of POST /api/conflicts) as the
 * measurement tool sees it, and the text format it reads from stdin.
 * Pure C11, usable from C and CUDA host code; no CUDA, no allocation, no I/O.
 * The parser only checks what can be checked without a device; the caller
 * checks offsets against the device's shared-memory limit (probe_validate). */
#ifndef SWZ_PATTERN_H
#define SWZ_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROBE_LANES 32
#define PROBE_NAME_MAX 96
#define PROBE_ERR_MAX 256

/* Largest offset + access size accepted before the device is known. Every
 * CUDA GPU with ldmatrix has at most 228 KiB of shared memory per block. */
#define PROBE_SMEM_HARD_LIMIT (228u * 1024u)

enum probe_op { PROBE_LD = 0, PROBE_ST = 1, PROBE_LDMATRIX = 2, PROBE_STMATRIX = 3 };

/* One pattern. Lane t is active iff bit t of `active` is set. For ld/st an
 * active lane accesses `bytes` bytes at off[t]; inactive lanes have off[t] 0.
 * For ldmatrix/stmatrix (.m8n8.b16, `matrices` = .x1/.x2/.x4) lane t gives
 * the 16-byte row address of row t%8 of matrix t/8; lanes t >= 8*matrices
 * are ignored by the hardware, may be '-' in the input, and are then given
 * the address of lane t % (8*matrices) so that every lane holds a valid one.
 * `active` is all ones for those ops (the instruction is warp-wide). */
typedef struct probe_pattern {
    char name[PROBE_NAME_MAX];
    int op;         /* enum probe_op */
    int bytes;      /* 1, 2, 4, 8, 16; for ldmatrix/stmatrix always 16 (one row) */
    int matrices;   /* 1, 2, 4; ignored (kept as given) for ld/st */
    int trans;      /* 0/1; only ldmatrix/stmatrix may set it */
    uint32_t active;
    uint32_t off[PROBE_LANES];
} probe_pattern;

/* Parses one line `name op bytes matrices trans o0 ... o31` (whitespace
 * separated, '-' for an inactive lane; op is ld|st|ldmatrix|stmatrix, trans is
 * 0|1|true|false). Returns 1 and fills *out on a pattern, 0 on a blank or
 * '#' comment line, -1 on a bad line with a message in err. */
int probe_parse_line(const char *line, probe_pattern *out, char *err, size_t errlen);

/* Completes a pattern whose op, bytes, matrices, trans, active and off are
 * set: for ldmatrix/stmatrix, inactive lanes t >= 8*matrices take the address
 * of lane t % (8*matrices); then probe_validate with PROBE_SMEM_HARD_LIMIT.
 * 0 if valid, else -1 and a message in err. */
int probe_finish(probe_pattern *p, char *err, size_t errlen);

/* Checks alignment (bytes for ld/st, 16 for matrix rows), lane rules and that
 * every access ends at or below smem_limit bytes. 0 if valid, else -1 and a
 * message in err naming the lane. probe_parse_line already calls it with
 * PROBE_SMEM_HARD_LIMIT; call again with the device's own limit. */
int probe_validate(const probe_pattern *p, uint32_t smem_limit, char *err, size_t errlen);

/* Bytes of shared memory the pattern touches: max(offset + size) over active
 * lanes, rounded up to 16; at least 16. */
uint32_t probe_smem_bytes(const probe_pattern *p);

/* Bytes each lane moves: `bytes` for ld/st, 16 for matrix rows. */
int probe_access_bytes(const probe_pattern *p);

/* "ld", "st", "ldmatrix", "stmatrix"; "?" for anything else. */
const char *probe_op_name(int op);

#ifdef __cplusplus
}
#endif

#endif /* SWZ_PATTERN_H */
