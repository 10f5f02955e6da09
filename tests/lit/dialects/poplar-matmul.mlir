// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of poplar.matmul (poplin::matMulWithOutput, a program) in the custom and
// the generic form: matrix by matrix, matrix by vector, vector by matrix (float16),
// with a discardable attribute; gemm's alpha, beta and transposes of a view, a dot
// product and a grouped product.

poplar.host_program @products arch "ipu2" args ["A"] : [memref<4x5xf32>] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x5xf32>
  poplar.map_tensor %A over <0 to 10 x 2> : !poplar.tensor<4x5xf32>
  %B = poplar.add_variable "B" : !poplar.tensor<5x6xf32>
  poplar.map_tensor %B over <0 to 15 x 2> : !poplar.tensor<5x6xf32>
  %x = poplar.add_variable "x" : !poplar.tensor<5xf32>
  poplar.map_tensor %x over <0 to 1 x 5> : !poplar.tensor<5xf32>
  %C = poplar.add_variable "C" : !poplar.tensor<4x6xf32>
  poplar.map_tensor %C over <0 to 12 x 2> : !poplar.tensor<4x6xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<4xf32>
  poplar.map_tensor %y over <0 to 1 x 4> : !poplar.tensor<4xf32>
  %h = poplar.add_variable "h" : !poplar.tensor<4xf16>
  poplar.map_tensor %h over <0 to 1 x 4> : !poplar.tensor<4xf16>
  %H = poplar.add_variable "H" : !poplar.tensor<4x2xf16>
  poplar.map_tensor %H over <0 to 2 x 4> : !poplar.tensor<4x2xf16>
  %z = poplar.add_variable "z" : !poplar.tensor<2xf16>
  poplar.map_tensor %z over <0 to 1 x 2> : !poplar.tensor<2xf16>
  %0 = poplar.matmul "mm" %A, %B to %C : !poplar.tensor<4x5xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
  %1 = poplar.matmul "mv" %A, %x to %y {tag} : !poplar.tensor<4x5xf32>, !poplar.tensor<5xf32>, !poplar.tensor<4xf32>
  %2 = poplar.matmul "vm" %h, %H to %z : !poplar.tensor<4xf16>, !poplar.tensor<4x2xf16>, !poplar.tensor<2xf16>
  %Bbox = poplar.slice_box %B [0, 1] to [5, 5] : !poplar.tensor<5x6xf32> -> !poplar.tensor<5x4xf32>
  %3 = poplar.matmul "gemm" transpose %Bbox, %B to %C alpha 5.000000e-01 beta 2.000000e+00 : !poplar.tensor<5x4xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
  %s = poplar.add_variable "s" : !poplar.tensor<f32>
  poplar.map_tensor %s over <0 to 1 x 1> : !poplar.tensor<f32>
  %4 = poplar.matmul "dot" %x, %x to %s : !poplar.tensor<5xf32>, !poplar.tensor<5xf32>, !poplar.tensor<f32>
  %G = poplar.add_variable "G" : !poplar.tensor<2x3x4xf16>
  poplar.map_tensor %G over <0 to 6 x 4> : !poplar.tensor<2x3x4xf16>
  %Q = poplar.add_variable "Q" : !poplar.tensor<2x3x3xf16>
  poplar.map_tensor %Q over <0 to 6 x 3> : !poplar.tensor<2x3x3xf16>
  %5 = poplar.matmul "bmm" %G, transpose %G to %Q beta 1.000000e+00 : !poplar.tensor<2x3x4xf16>, !poplar.tensor<2x3x4xf16>, !poplar.tensor<2x3x3xf16>
  %6 = poplar.sequence(%0, %1, %2, %3, %4, %5)
  poplar.engine %6
} run {
  poplar.run 0
}

// CHECK:      %0 = poplar.matmul "mm" %A, %B to %C : !poplar.tensor<4x5xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
// CHECK-NEXT: %1 = poplar.matmul "mv" %A, %x to %y {tag} : !poplar.tensor<4x5xf32>, !poplar.tensor<5xf32>, !poplar.tensor<4xf32>
// CHECK-NEXT: %2 = poplar.matmul "vm" %h, %H to %z : !poplar.tensor<4xf16>, !poplar.tensor<4x2xf16>, !poplar.tensor<2xf16>

// CHECK:      %3 = poplar.matmul "gemm" transpose %Bbox, %B to %C alpha 5.000000e-01 beta 2.000000e+00 : !poplar.tensor<5x4xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>
// CHECK:      %4 = poplar.matmul "dot" %x, %x to %s : !poplar.tensor<5xf32>, !poplar.tensor<5xf32>, !poplar.tensor<f32>
// CHECK:      %5 = poplar.matmul "bmm" %G, transpose %G to %Q beta 1.000000e+00 : !poplar.tensor<2x3x4xf16>, !poplar.tensor<2x3x4xf16>, !poplar.tensor<2x3x3xf16>

// GENERIC: %0 = "poplar.matmul"(%A, %B, %C) <{label = "mm"}> : (!poplar.tensor<4x5xf32>, !poplar.tensor<5x6xf32>, !poplar.tensor<4x6xf32>) -> !poplar.program
// GENERIC: %3 = "poplar.matmul"(%Bbox, %B, %C) <{label = "gemm", alpha = 5.000000e-01 : f64, beta = 2.000000e+00 : f64, transpose_a}>
// GENERIC: %5 = "poplar.matmul"(%G, %G, %Q) <{label = "bmm", beta = 1.000000e+00 : f64, transpose_b}>
