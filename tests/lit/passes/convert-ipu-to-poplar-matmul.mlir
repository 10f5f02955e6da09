// RUN: ipu-opt %s --split-input-file -p convert-ipu-to-poplar | filecheck %s

// convert-ipu-to-poplar on products: ipu.matmul becomes poplar.matmul of the tensors
// (poplin::matMulWithOutput), a program of the sequence like a copy; inside a loop it
// is part of the loop's body. Then (second case) alpha, beta and the transposes stay
// on the op, and a view operand becomes Poplar's views (slice_box, reshape).

ipu.graph "products" arch "ipu2" args ["A", "B", "x", "C", "y"] {
  %A = ipu.variable "A" mapping <0 to 10 x 2> : memref<4x5xf32>
  %B = ipu.variable "B" mapping <0 to 15 x 2> : memref<5x6xf32>
  %x = ipu.variable "x" mapping <0 to 2 x 2, 2 to 3 x 1> : memref<5xf32>
  %C = ipu.variable "C" mapping <0 to 12 x 2> : memref<4x6xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 2> : memref<4xf32>
  ipu.from_host %A : memref<4x5xf32>
  ipu.from_host %B : memref<5x6xf32>
  ipu.from_host %x : memref<5xf32>
  ipu.matmul "mm" %A, %B to %C : memref<4x5xf32>, memref<5x6xf32>, memref<4x6xf32>
  ipu.repeat 2 {
    ipu.matmul "mv" %A, %x to %y : memref<4x5xf32>, memref<5xf32>, memref<4xf32>
  }
  ipu.to_host %C : memref<4x6xf32>
  ipu.to_host %y : memref<4xf32>
}

// CHECK:      %0 = poplar.matmul "mm" %A, %B to %C : !poplar.tensor<4x5xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
// CHECK:      %1 = poplar.matmul "mv" %A, %x to %y : !poplar.tensor<4x5xf32>, !poplar.tensor<5xf32>, !poplar.tensor<4xf32>
// CHECK-NEXT: %2 = poplar.sequence(%1)
// CHECK-NEXT: %3 = poplar.repeat 2 times %2
// CHECK:      %{{.*}} = poplar.sequence(%0, %3)
// CHECK-NEXT: poplar.engine

// -----

ipu.graph "blas" arch "ipu2" args ["A", "B", "C"] {
  %A = ipu.variable "A" mapping <0 to 10 x 2> : memref<5x4xf32>
  %B = ipu.variable "B" mapping <0 to 15 x 2> : memref<5x6xf32>
  %C = ipu.variable "C" mapping <0 to 12 x 2> : memref<4x6xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  ipu.from_host %A : memref<5x4xf32>
  ipu.from_host %B : memref<5x6xf32>
  ipu.from_host %C : memref<4x6xf32>
  %col = ipu.view %B[0:5, 2] : memref<5x6xf32> -> memref<5xf32>
  %row = ipu.view %A[0:5, 1] : memref<5x4xf32> -> memref<5xf32>
  ipu.matmul "gemm" transpose %A, %B to %C alpha 2.000000e+00 beta -5.000000e-01 : memref<5x4xf32>, memref<5x6xf32>, memref<4x6xf32>
  ipu.matmul "dot" %row, %col to %s : memref<5xf32>, memref<5xf32>, memref<f32>
  ipu.to_host %C : memref<4x6xf32>
}

// CHECK:      %col = poplar.slice_box %B [0, 2] to [5, 3] : !poplar.tensor<5x6xf32> -> !poplar.tensor<5x1xf32>
// CHECK-NEXT: %col_1 = poplar.reshape %col : !poplar.tensor<5x1xf32> -> !poplar.tensor<5xf32>
// CHECK:      %{{.*}} = poplar.matmul "gemm" transpose %A, %B to %C alpha 2.000000e+00 beta -5.000000e-01 : !poplar.tensor<5x4xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
// CHECK-NEXT: %{{.*}} = poplar.matmul "dot" %row_1, %col_1 to %s : !poplar.tensor<5xf32>, !poplar.tensor<5xf32>, !poplar.tensor<f32>
