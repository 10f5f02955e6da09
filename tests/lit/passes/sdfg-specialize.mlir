// RUN: ipu-opt %s -p 'sdfg-specialize{symbols="N=100,M=8"}' | filecheck %s
// RUN: ipu-opt %s --symbols N=100,M=8 -p sdfg-specialize | filecheck %s

// Symbols become integers in shapes, map ranges and subsets; map parameters stay.

sdfg.sdfg @scale args ["x", "y"] symbols ["M", "N"] {
  %x = sdfg.container "x" : !sdfg.array<N x M x f32>
  %y = sdfg.container "y" : !sdfg.array<"N * M" x f32>
  %t = sdfg.container "t" transient : !sdfg.array<"N + 1" x f32>
  sdfg.state "s0" {
    sdfg.map "m" (i, j) = (0, 0) to (N, M) step (1, 1) {
      %v = sdfg.read %x[i, j] : !sdfg.array<N x M x f32>
      %r = sdfg.tasklet "twice" ins(a = %v) outs(b) : (f32) -> (f32) {
      ^bb0(%a: f32):
        %s = arith.addf %a, %a : f32
        sdfg.yield %s : f32
      }
      sdfg.write %r to %y["i * M + j"] : !sdfg.array<"N * M" x f32>
    }
    sdfg.copy %y[0:"N - 1"] to %t[1:N] : !sdfg.array<"N * M" x f32>, !sdfg.array<"N + 1" x f32>
  }
}

// CHECK:      sdfg.sdfg @scale args ["x", "y"] symbols [] {
// CHECK-NEXT:   %{{.*}} = sdfg.container "x" : !sdfg.array<100 x 8 x f32>
// CHECK-NEXT:   %{{.*}} = sdfg.container "y" : !sdfg.array<800 x f32>
// CHECK-NEXT:   %{{.*}} = sdfg.container "t" transient : !sdfg.array<101 x f32>
// CHECK:        sdfg.map "m" (i, j) = (0, 0) to (100, 8) step (1, 1) {
// CHECK:          sdfg.read %{{.*}}[i, j] : !sdfg.array<100 x 8 x f32>
// CHECK:          sdfg.write %{{.*}} to %{{.*}}["i * 8 + j"] : !sdfg.array<800 x f32>
// CHECK:        sdfg.copy %{{.*}}[0:99] to %{{.*}}[1:100]
