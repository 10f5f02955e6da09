// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// ipu.reduce's own checks (the rules of the reduction are shared with sdfg.reduce,
// each tested in sdfg-reduce-invalid.mlir; one here shows ipu.reduce runs them): its
// operands are variables or views of them, it is a program step, it does not write a
// broadcast view, and its output is not its input, through a view included.

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %s = memref.alloc() : memref<f32>
  ipu.reduce "r" add %A to %s dims [0, 1] : memref<4x4xf32>, memref<f32>
}

// CHECK: ipu-reduce-invalid.mlir:[[# @LINE - 3]]:3: error: operand must be the result of an ipu.variable or an ipu.view of one

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  ipu.codelet @c() {
    ipu.reduce "r" add %A to %s dims [0, 1] : memref<4x4xf32>, memref<f32>
  }
}

// CHECK: ipu-reduce-invalid.mlir:[[# @LINE - 4]]:5: error: 'ipu.reduce' expects parent op to be one of 'ipu.graph', 'ipu.repeat', 'ipu.repeat_while', 'ipu.if'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %b = ipu.view %x[0:4] dims [*, 0] : memref<4xf32> -> memref<1x4xf32>
  ipu.reduce "r" add %A to %b dims [0] : memref<4x4xf32>, memref<1x4xf32>
}

// CHECK: ipu-reduce-invalid.mlir:[[# @LINE - 3]]:3: error: ipu.reduce writes a broadcast view of 'x', which holds elements several times

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %row = ipu.view %A[0, 0:4] : memref<4x4xf32> -> memref<4xf32>
  ipu.reduce "r" add %A to %row dims [0] : memref<4x4xf32>, memref<4xf32>
}

// CHECK: ipu-reduce-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.reduce' output must not be its input

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 1 x 16> : memref<4x4xf32>
  %c = ipu.variable "c" mapping <0 to 1 x 3> : memref<3xf32>
  ipu.reduce "r" add %A to %c dims [0] : memref<4x4xf32>, memref<3xf32>
}

// CHECK: ipu-reduce-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.reduce' output of shape 3 does not hold the kept input dimensions (4)
