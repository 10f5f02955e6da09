// RUN: ipu-opt %s -p convert-ipu-to-poplar | filecheck %s

// convert-ipu-to-poplar on products: ipu.matmul becomes poplar.matmul of the tensors
// (poplin::matMulWithOutput), a program of the sequence like a copy; inside a loop it
// is part of the loop's body.

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
