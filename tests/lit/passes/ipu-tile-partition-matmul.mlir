// RUN: ipu-opt %s --split-input-file -p ipu-tile-partition | filecheck %s

// ipu-tile-partition on products: sdfg.matmul becomes ipu.matmul of the variables,
// with no tile map (poplin splits the work itself). A product ties no layouts: its
// operands and result keep the balanced blocks planned for them, so the map after it
// reads the product where it lies (bias + ReLU of a dense layer). A product's result
// is written, so an argument it writes goes back to the host. Then (second case)
// alpha, beta and the transposes stay on the op, and each box of a container becomes an
// ipu.view of its variable (a fixed index drops its dimension), made before the loop
// that uses it.

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

// -----

sdfg.sdfg @blas args ["A", "B", "C", "r"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<5 x 4 x f32>
  %B = sdfg.container "B" : !sdfg.array<5 x 6 x f32>
  %C = sdfg.container "C" : !sdfg.array<4 x 6 x f32>
  %r = sdfg.container "r" : !sdfg.array<3 x f32>
  %G = sdfg.container "G" transient : !sdfg.array<2 x 3 x 5 x f16>
  %P = sdfg.container "P" transient : !sdfg.array<2 x 3 x 3 x f16>
  sdfg.state "s0" {
    sdfg.matmul "gemm" transpose %A, %B to %C alpha 2.0 beta -0.5 : !sdfg.array<5 x 4 x f32>, !sdfg.array<5 x 6 x f32>, !sdfg.array<4 x 6 x f32>
    sdfg.matmul "bmm" %G, transpose %G to %P : !sdfg.array<2 x 3 x 5 x f16>, !sdfg.array<2 x 3 x 5 x f16>, !sdfg.array<2 x 3 x 3 x f16>
  }
  sdfg.for "loop" %t = 0 to 2 step 1 {
    sdfg.state "body" {
      sdfg.matmul "dot" %A[0:5, 1], %B[0:5, 2] to %r[1] beta 1 : !sdfg.array<5 x 4 x f32>, !sdfg.array<5 x 6 x f32>, !sdfg.array<3 x f32>
    }
  }
}

// CHECK:      ipu.matmul "gemm" transpose %A, %B to %C alpha 2.000000e+00 beta -5.000000e-01 : memref<5x4xf32>, memref<5x6xf32>, memref<4x6xf32>
// CHECK-NEXT: ipu.matmul "bmm" %G, transpose %G to %P : memref<2x3x5xf16>, memref<2x3x5xf16>, memref<2x3x3xf16>
// CHECK-NEXT: %A_box = ipu.view %A[0:5, 1] : memref<5x4xf32> -> memref<5xf32>
// CHECK-NEXT: %B_box = ipu.view %B[0:5, 2] : memref<5x6xf32> -> memref<5xf32>
// CHECK-NEXT: %r_box = ipu.view %r[1] : memref<3xf32> -> memref<f32>
// CHECK-NEXT: ipu.repeat 2 {
// CHECK-NEXT:   ipu.matmul "dot" %A_box, %B_box to %r_box beta 1.000000e+00 : memref<5xf32>, memref<5xf32>, memref<f32>
