"""sass_excerpt.py - the SASS excerpt collect.py and collect_stagger.py write (issue 41):
the nine measured forms' atomic kernels (guard none, the lane's value) of the tool's
cuobjdump -sass -arch sm_90 dump, encodings and NOPs dropped, into sass_sm90.txt.  It
copies what cuobjdump printed; it models nothing."""
import os
import re

WANT = re.compile(r'F_(ATOM|RED)_(ADD_U32|ADD_S32|MIN_U32|MIN_S32|EXCH_B32)Lb0')


def write(dump_path, here, stamp):
    """Writes here/sass_sm90.txt from the dump at dump_path; returns its line count."""
    keep, on = [], False
    for line in open(dump_path):
        if 'Function :' in line:
            on = bool(WANT.search(line))
        if on and not re.match(r'^\s*/\* [0-9a-f]+ \*/\s*$', line) and 'NOP;' not in line:
            keep.append(re.sub(r'\s*/\* 0x[0-9a-f]+ \*/', '', line.rstrip()))
    with open(os.path.join(here, 'sass_sm90.txt'), 'w') as f:
        f.write('# cuobjdump -sass -arch sm_90 swizzlescope-measure (the tool that measured the '
                'rows; nvcc 13.0), the nine measured forms (guard none, the lane\'s value), %s\n'
                % stamp)
        f.write('\n'.join(keep) + '\n')
    return len(keep)
