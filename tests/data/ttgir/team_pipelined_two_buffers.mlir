// team-written (swizzlescope, issue 39): a 2-stage pipelined loop, A and B buffers of one type through memdesc_index and scf.for iter_args
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedT = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @team_pipelined(%pa: tensor<64x32x!tt.ptr<f16>, #blocked>, %pb: tensor<64x32x!tt.ptr<f16>, #blockedT>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %abuf = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %bbuf = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %a0 = ttg.memdesc_index %abuf[%c0] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %bbuf[%c0] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%as = %a0, %bs = %b0) -> (!ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>)  : i32 {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %pb : tensor<64x32x!tt.ptr<f16>, #blockedT>
      ttg.local_store %x, %as : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      ttg.local_store %y, %bs : tensor<64x32xf16, #blockedT> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      %av = ttg.local_load %as : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bv = ttg.local_load %bs : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #blocked>
      %an = ttg.memdesc_index %abuf[%c1] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      %bn = ttg.memdesc_index %bbuf[%c1] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      scf.yield %an, %bn : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
}
