// RUN: ipu-opt %s -p convert-ipu-to-poplar | filecheck %s

// convert-ipu-to-poplar on popops reductions: ipu.reduce becomes poplar.reduce of the
// tensors (popops::reduceWithOutput), a program of the sequence like a copy, its box a
// Poplar slice; inside a loop it is part of the loop's body.

ipu.graph "sums" arch "ipu2" args ["A", "s", "r"] {
  %A = ipu.variable "A" mapping <0 to 12 x 2> : memref<4x6xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<1xf32>
  %r = ipu.variable "r" mapping <0 to 9 x 2> : memref<3x6xf32>
  ipu.from_host %A : memref<4x6xf32>
  ipu.from_host %r : memref<3x6xf32>
  ipu.reduce "whole" add %A to %s dims [0, 1] : memref<4x6xf32>, memref<1xf32>
  %A_box = ipu.view %A[1:3, 0:6] : memref<4x6xf32> -> memref<2x6xf32>
  %r_box = ipu.view %r[2:3, 0:6] : memref<3x6xf32> -> memref<1x6xf32>
  ipu.repeat 2 {
    ipu.reduce "interior" add %A_box to %r_box dims [0] update : memref<2x6xf32>, memref<1x6xf32>
  }
  ipu.to_host %s : memref<1xf32>
  ipu.to_host %r : memref<3x6xf32>
}

// CHECK:      %0 = poplar.reduce "whole" add %A to %s dims [0, 1] : !poplar.tensor<4x6xf32>, !poplar.tensor<1xf32>
// CHECK-NEXT: %A_box = poplar.slice_box %A [1, 0] to [3, 6] : !poplar.tensor<4x6xf32> -> !poplar.tensor<2x6xf32>
// CHECK-NEXT: %r_box = poplar.slice_box %r [2, 0] to [3, 6] : !poplar.tensor<3x6xf32> -> !poplar.tensor<1x6xf32>
// CHECK-NEXT: %1 = poplar.reduce "interior" add %A_box to %r_box dims [0] update : !poplar.tensor<2x6xf32>, !poplar.tensor<1x6xf32>
// CHECK-NEXT: %2 = poplar.sequence(%1)
// CHECK-NEXT: %3 = poplar.repeat 2 times %2
// CHECK:      %{{.*}} = poplar.sequence(%0, %3)
// CHECK-NEXT: poplar.engine
