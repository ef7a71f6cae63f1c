#!/usr/bin/env python3
"""bench/ttgir_alias_chain.py - issue 36 item 4's crafted /api/ttgir body: a
1,020-alias chain (#a0 = #a1 = ... = a blocked encoding) and 510 ops that fail
(an unknown alias) between ops that walk the whole chain, padded with comment
lines to about 1.9 MB.  Prints the JSON request body on stdout."""
import json

N_ALIAS, N_FAIL = 1020, 510
lines = ["#a%d = #a%d" % (i, i + 1) for i in range(N_ALIAS - 1)]
lines.append("#a%d = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
             "warpsPerCTA = [4, 1], order = [1, 0]}>" % (N_ALIAS - 1))
lines.append("#s = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>")
lines.append("#smem = #ttg.shared_memory")
pad = "// " + "x" * 3000
for i in range(N_FAIL):
    lines.append(pad)
    lines.append("%%%d = ttg.local_load %%0 : !ttg.memdesc<64x64xf16, #nope%d, #smem> -> "
                 "tensor<64x64xf16, #a0>" % (i + 1, i))
lines.append("%%x = ttg.local_load %%0 : !ttg.memdesc<64x64xf16, #s, #smem> -> "
             "tensor<64x64xf16, #a0>")
print(json.dumps({"text": "\n".join(lines) + "\n"}))
