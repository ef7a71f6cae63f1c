// team-written (swizzlescope, issue 39): an MMAv2 f16 accumulator stored on sm_90, to a 128B-swizzled buffer and to an unswizzled one
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @team_epilogue(%acc: tensor<64x64xf16, #mma>) {
    %c = ttg.local_alloc %acc : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #sw, #smem>
    %d = ttg.local_alloc %acc : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #plain, #smem>
    tt.return
  }
}
