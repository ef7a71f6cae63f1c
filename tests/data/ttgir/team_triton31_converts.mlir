// team-written (swizzlescope, issue 39 item 3): Triton 3.0/3.1 convert_layout through its padded scratch
#blocked = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedT = #triton_gpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#cols = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#rows = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#small = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #triton_gpu.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32, triton_gpu.target = "cuda:80", "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func public @team_cvt31(%t: tensor<64x64xf32, #blockedT>, %c: tensor<32x32xf32, #cols>, %x: tensor<128x64xf32, #blocked>, %m: tensor<64x64xf32, #mma>) {
    %a = triton_gpu.convert_layout %t : tensor<64x64xf32, #blockedT> -> tensor<64x64xf32, #blocked>
    %b = triton_gpu.convert_layout %c : tensor<32x32xf32, #cols> -> tensor<32x32xf32, #rows>
    %r = triton_gpu.convert_layout %x : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #small>
    %n = triton_gpu.convert_layout %m : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %s = triton_gpu.convert_layout %x : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #blocked>
    tt.return
  }
}
