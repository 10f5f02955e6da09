// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of ipu.matmul, a product poplin plans (no tile map), in the custom and
// the generic form: matrix by matrix, matrix by vector, vector by matrix (float16),
// inside a loop, with a discardable attribute; gemm's alpha, beta and transposes of a
// view (a box of a variable), a dot product and a grouped product.

ipu.graph "products" arch "ipu2" args ["A", "B", "x"] {
  %A = ipu.variable "A" mapping <0 to 10 x 2> : memref<4x5xf32>
  %B = ipu.variable "B" mapping <0 to 15 x 2> : memref<5x6xf32>
  %x = ipu.variable "x" mapping <0 to 2 x 2, 2 to 3 x 1> : memref<5xf32>
  %C = ipu.variable "C" mapping <0 to 12 x 2> : memref<4x6xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 2> : memref<4xf32>
  %h = ipu.variable "h" mapping <0 to 1 x 4> : memref<4xf16>
  %H = ipu.variable "H" mapping <0 to 2 x 4> : memref<4x2xf16>
  %z = ipu.variable "z" mapping <0 to 1 x 2> : memref<2xf16>
  ipu.matmul "mm" %A, %B to %C : memref<4x5xf32>, memref<5x6xf32>, memref<4x6xf32>
  ipu.matmul "mv" %A, %x to %y {tag} : memref<4x5xf32>, memref<5xf32>, memref<4xf32>
  ipu.repeat 3 {
    ipu.matmul "vm" %h, %H to %z : memref<4xf16>, memref<4x2xf16>, memref<2xf16>
  }
  %Bbox = ipu.view %B[0:5, 1:5] : memref<5x6xf32> -> memref<5x4xf32>
  ipu.matmul "gemm" transpose %Bbox, %B to %C alpha 5.000000e-01 beta 2.000000e+00 {tag} : memref<5x4xf32>, memref<5x6xf32>, memref<4x6xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  %row = ipu.view %A[2, 0:5] : memref<4x5xf32> -> memref<5xf32>
  ipu.matmul "dot" %row, %x to %s : memref<5xf32>, memref<5xf32>, memref<f32>
  %G = ipu.variable "G" mapping <0 to 6 x 4> : memref<2x3x4xf16>
  %P = ipu.variable "P" mapping <0 to 6 x 4> : memref<2x3x4xf16>
  %Q = ipu.variable "Q" mapping <0 to 3 x 6> : memref<2x3x3xf16>
  ipu.matmul "bmm" %G, transpose %P to %Q : memref<2x3x4xf16>, memref<2x3x4xf16>, memref<2x3x3xf16>
}

// CHECK:      ipu.matmul "mm" %A, %B to %C : memref<4x5xf32>, memref<5x6xf32>, memref<4x6xf32>
// CHECK-NEXT: ipu.matmul "mv" %A, %x to %y {tag} : memref<4x5xf32>, memref<5xf32>, memref<4xf32>
// CHECK-NEXT: ipu.repeat 3 {
// CHECK-NEXT:   ipu.matmul "vm" %h, %H to %z : memref<4xf16>, memref<4x2xf16>, memref<2xf16>

// CHECK:      ipu.matmul "gemm" transpose %Bbox, %B to %C alpha 5.000000e-01 beta 2.000000e+00 {tag} : memref<5x4xf32>, memref<5x6xf32>, memref<4x6xf32>
// CHECK:      ipu.matmul "dot" %row, %x to %s : memref<5xf32>, memref<5xf32>, memref<f32>
// CHECK:      ipu.matmul "bmm" %G, transpose %P to %Q : memref<2x3x4xf16>, memref<2x3x4xf16>, memref<2x3x3xf16>

// GENERIC: "ipu.matmul"(%A, %B, %C) <{label = "mm"}> : (memref<4x5xf32>, memref<5x6xf32>, memref<4x6xf32>) -> ()
// GENERIC: "ipu.matmul"(%Bbox, %B, %C) <{label = "gemm", alpha = 5.000000e-01 : f64, beta = 2.000000e+00 : f64, transpose_a}> {tag}
// GENERIC: "ipu.matmul"(%G, %P, %Q) <{label = "bmm", transpose_b}>
