// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// ipu.matmul's own checks (the shape and type rules are shared with sdfg.matmul,
// each tested in sdfg-matmul-invalid.mlir; one here shows ipu.matmul runs them): its
// operands are variables, it is a program step, and its result is not an operand, a
// view of one included.

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %C = memref.alloc() : memref<4x4xf32>
  ipu.matmul "mm" %A, %A to %C : memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>
}

// CHECK: ipu-matmul-invalid.mlir:[[# @LINE - 3]]:3: error: operand must be the result of an ipu.variable or an ipu.view of one

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %C = ipu.variable "C" mapping <0 to 1 x 16> : memref<4x4xf32>
  ipu.codelet @c() {
    ipu.matmul "mm" %A, %A to %C : memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>
  }
}

// CHECK: ipu-matmul-invalid.mlir:[[# @LINE - 4]]:5: error: 'ipu.matmul' expects parent op to be one of 'ipu.graph', 'ipu.repeat', 'ipu.repeat_while', 'ipu.if'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %row = ipu.view %A[0, 0:4] : memref<4x4xf32> -> memref<4xf32>
  ipu.matmul "vm" %x, %A to %row : memref<4xf32>, memref<4x4xf32>, memref<4xf32>
}

// CHECK: ipu-matmul-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.matmul' result must not be one of its operands

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %C = ipu.variable "C" mapping <0 to 1 x 12> : memref<4x3xf32>
  ipu.matmul "mm" %A, %A to %C : memref<4x4xf32>, memref<4x4xf32>, memref<4x3xf32>
}

// CHECK: ipu-matmul-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.matmul' result memref<4x3xf32> must have shape 4 x 4
