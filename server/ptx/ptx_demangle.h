/* ptx_demangle.h - the parameter types of a kernel's mangled entry name
 * (_Z11sgemm_tiledPKfS0_Pfiii: const float *, const float *, float *, int,
 * int, int), as C++ spells them: what the PTX .param list (u64, u32) cannot
 * say.  The Itanium ABI's subset a __global__ function's name uses: built-in
 * types, pointers, references, const/volatile, class names in namespaces,
 * substitutions.  Pure: no I/O, no allocation; it never guesses (a form it
 * lacks is a refusal, not a wrong type). */
#ifndef SZ_PTX_DEMANGLE_H
#define SZ_PTX_DEMANGLE_H

#include <stddef.h>

#define PTX_DEMANGLE_TYPE 96     /* bytes of one type's spelling, NUL included */

/* The types of `mangled`'s parameters into types[0..*n) (void: none).  0, or
 * -1 when it is not a mangled function name (extern "C": the plain name), a
 * type is a form this reader lacks (a template parameter, a function
 * pointer), there are more than max, or a spelling would not fit. */
int ptx_demangle_params(const char *mangled, char types[][PTX_DEMANGLE_TYPE], int max, int *n);

/* The function's own name in `mangled` (_Z15transpose_naivePfPKfi:
 * transpose_naive; _ZN2ns1kEPf: k) into out: 0, or -1 when it is no mangled
 * name this reader knows or the name does not fit. */
int ptx_demangle_name(const char *mangled, char *out, size_t cap);

#endif
