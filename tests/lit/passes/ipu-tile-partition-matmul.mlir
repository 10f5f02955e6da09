// RUN: ipu-opt %s -p ipu-tile-partition | filecheck %s

// ipu-tile-partition on products: sdfg.matmul becomes ipu.matmul of the variables,
// with no tile map (poplin splits the work itself). A product ties no layouts: its
// operands and result keep the balanced blocks planned for them, so the map after it
// reads the product where it lies (bias + ReLU of a dense layer). A product's result
// is written, so an argument it writes goes back to the host.

sdfg.sdfg @dense args ["A", "W", "b", "x", "C", "y"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<4 x 5 x f32>
  %W = sdfg.container "W" : !sdfg.array<5 x 6 x f32>
  %b = sdfg.container "b" : !sdfg.array<6 x f32>
  %x = sdfg.container "x" : !sdfg.array<5 x f32>
  %C = sdfg.container "C" : !sdfg.array<4 x 6 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<4 x 6 x f32>
  sdfg.state "s0" {
    sdfg.matmul "mm" %A, %W to %t : !sdfg.array<4 x 5 x f32>, !sdfg.array<5 x 6 x f32>, !sdfg.array<4 x 6 x f32>
    sdfg.map "bias" (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
      %0 = sdfg.read %t[%i, %j] : !sdfg.array<4 x 6 x f32>
      %1 = sdfg.read %b[%j] : !sdfg.array<6 x f32>
      %2 = sdfg.tasklet "relu" ins(a = %0, c = %1) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%u: f32, %z: f32):
        %s = arith.addf %u, %z : f32
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %s, %zero : f32
        sdfg.yield %r : f32
      }
      sdfg.write %2 to %C[%i, %j] : !sdfg.array<4 x 6 x f32>
    }
    sdfg.matmul "mv" %A, %x to %y : !sdfg.array<4 x 5 x f32>, !sdfg.array<5 x f32>, !sdfg.array<4 x f32>
  }
}

// CHECK:      %A = ipu.variable "A" mapping <0 to 10 x 2> : memref<4x5xf32>
// CHECK-NEXT: %W = ipu.variable "W" mapping <0 to 15 x 2> : memref<5x6xf32>
// CHECK:      %t = ipu.variable "t" mapping <0 to 12 x 2> : memref<4x6xf32>
// CHECK:      ipu.matmul "mm" %A, %W to %t : memref<4x5xf32>, memref<5x6xf32>, memref<4x6xf32>
// CHECK:      ipu.tiled_map "bias" over <0 to 12 x 2> ins(%t block, %b_view block : memref<4x6xf32>, memref<4x6xf32>) outs(%C block : memref<4x6xf32>) {
// CHECK:      ipu.matmul "mv" %A, %x to %y : memref<4x5xf32>, memref<5xf32>, memref<4xf32>
// CHECK-NEXT: ipu.to_host %C : memref<4x6xf32>
// CHECK-NEXT: ipu.to_host %y : memref<4xf32>
