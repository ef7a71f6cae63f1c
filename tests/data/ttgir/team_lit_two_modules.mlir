// team-written (swizzlescope, issue 39): two modules in lit split-input-file form, each defining #blocked and #shared
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @first(%a: tensor<64x64xf16, #blocked>) {
    %A = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, ttg.target = "cuda:90"} {
  tt.func @second(%a: tensor<128x32xf32, #blocked>) {
    %A = ttg.local_alloc %a : (tensor<128x32xf32, #blocked>) -> !ttg.memdesc<128x32xf32, #shared, #smem>
    %x = ttg.local_load %A : !ttg.memdesc<128x32xf32, #shared, #smem> -> tensor<128x32xf32, #blocked>
    tt.return
  }
}
