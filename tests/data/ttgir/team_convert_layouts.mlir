// team-written (swizzlescope, issue 39): ttg.convert_layout through shared memory and within warps
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedT = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#blockedL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @team_cvt(%x: tensor<64x64xf32, #blocked>, %m: tensor<64x64xf32, #mma>) {
    %t = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blockedT>
    %b = ttg.convert_layout %m : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %l = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blockedL>
    %s = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked2>
    tt.return
  }
}
