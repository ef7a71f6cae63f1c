/* atoms.h - named warp instructions from real MMA and copy atoms: for each
 * lane, the coordinate (relative to an origin) where its access starts, with
 * the instruction's op, width and matrices, and where the mapping comes from.
 * Pure core: no I/O, no allocation; one row of data per atom in atoms.c. */
#ifndef SZ_ATOMS_H
#define SZ_ATOMS_H

#include <stdint.h>

#include "base/error.h"
#include "model/instr.h"

#define ATOM_INACTIVE (-1)

struct atom {
    const char *name;           /* wire name */
    const char *label;
    const char *coords;         /* what the two coordinates are: "(m, k)" */
    const char *source;         /* where the lane -> coordinate map comes from */
    enum instr_op op;
    uint32_t bytes;             /* per lane (ld/st); 16 for matrix ops */
    uint32_t matrices;
    int trans;
    /* lane t -> (c0, c1) for element bytes eb; c0 = ATOM_INACTIVE for an idle lane */
    void (*lane)(int t, uint32_t eb, int32_t *c0, int32_t *c1);
};

/* Every atom; *n is their count. */
const struct atom *atom_list(int *n);

/* The atom called `name`, or NULL. */
const struct atom *atom_find(const char *name);

/* Lane coordinates of `a` for `element_bits`-bit elements, into c[t][0..1]
 * (c[t][0] = ATOM_INACTIVE for an idle lane).  Fails on "atom" when the
 * element does not fit the access (wider than `bytes`). */
int atom_lanes(const struct atom *a, int element_bits, int32_t c[INSTR_LANES][2],
               struct sz_error *err);

#endif
