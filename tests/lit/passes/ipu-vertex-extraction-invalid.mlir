// RUN: ipu-opt %s --split-input-file --verify-diagnostics -p ipu-vertex-extraction | filecheck %s
// RUN: rm -rf %t && not ipu-opt %s -p ipu-vertex-extraction -o %t.mlir 2>&1 | filecheck %s --check-prefix=CLI
// RUN: test ! -e %t.mlir

// A tiled map whose neighbour reads have no planned halo (ipu-plan-exchange was not
// run) is reported at its place; nothing is extracted.

ipu.graph "g" arch "ipu2" args ["A"] {
  %A = ipu.variable "A" mapping <0 to 2 x 4> : memref<8xf32>
  %B = ipu.variable "B" mapping <0 to 2 x 4> : memref<8xf32>
  ipu.tiled_map "m" over <from 1: 0 to 1 x 3, 1 to 2 x 3> ins(%A neighbours : memref<8xf32>) outs(%B block : memref<8xf32>) {
  ^bb0(%a: memref<8xf32>):
    %l = ipu.access %a[-1] : memref<8xf32>
    %r = ipu.access %a[1] : memref<8xf32>
    %s = arith.addf %l, %r : f32
    ipu.yield %s : f32
  }
}

// CHECK: ipu-vertex-extraction-invalid.mlir:[[# @LINE - 9]]:3: error: tiled map 'm' reads 'A' from its neighbours with no planned halo; run ipu-plan-exchange first
// CLI: ipu-opt: {{.*}}ipu-vertex-extraction-invalid.mlir:[[# @LINE - 10]]:3: error: tiled map 'm' reads 'A' from its neighbours with no planned halo; run ipu-plan-exchange first
// CLI-NOT: {{.}}
