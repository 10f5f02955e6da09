// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The verifiers of ipu.remote_buffer, ipu.remote_load and ipu.remote_store.

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.remote_buffer "A" repeats 5 : memref<12x4xf32>
}

// CHECK: ipu-remote-invalid.mlir:[[# @LINE - 3]]:3: error: remote buffer 'A' of 48 elements cannot be cut into 5 equal repeats

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.remote_buffer "A" repeats 1 : memref<f32>
}

// CHECK: ipu-remote-invalid.mlir:[[# @LINE - 3]]:3: error: remote buffer 'A' must be an array of a static shape, not memref<f32>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.remote_buffer "A" repeats 1 : memref<4xf64>
}

// CHECK: ipu-remote-invalid.mlir:[[# @LINE - 3]]:3: error: remote buffer 'A' has element type f64, which the IPU does not support

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.remote_buffer "A" repeats 4 : memref<12x4xf32>
  %L = ipu.variable "L" mapping <0 to 4 x 2> : memref<2x4xf32>
  %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<i32>
  ipu.remote_load %A at %c into %L : memref<12x4xf32>, memref<i32>, memref<2x4xf32>
}

// CHECK: ipu-remote-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.remote_load' between a repeat of 'A' (12 x f32) and 'L' (8 x f32)

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.remote_buffer "A" repeats 4 : memref<12x4xf32>
  %L = ipu.variable "L" mapping <0 to 6 x 2> : memref<3x4xf32>
  %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<f32>
  ipu.remote_store %L into %A at %c : memref<12x4xf32>, memref<f32>, memref<3x4xf32>
}

// CHECK: ipu-remote-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.remote_store' of 'A' needs a scalar integer offset variable, not memref<f32>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.remote_buffer "A" repeats 4 : memref<12x4xf32>
  %L = ipu.variable "L" mapping <0 to 6 x 2> : memref<12xf32>
  %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<i32>
  %V = ipu.view %L[0:12] dims [0] : memref<12xf32> -> memref<12xf32>
  ipu.remote_load %A at %c into %V : memref<12x4xf32>, memref<i32>, memref<12xf32>
}

// CHECK: ipu-remote-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.remote_load' of 'A' needs a variable, not a view

// -----

ipu.graph "g" arch "ipu2" args [] {
  %B = ipu.variable "B" mapping <0 to 24 x 2> : memref<12x4xf32>
  %L = ipu.variable "L" mapping <0 to 6 x 2> : memref<3x4xf32>
  %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<i32>
  ipu.remote_load %B at %c into %L : memref<12x4xf32>, memref<i32>, memref<3x4xf32>
}

// CHECK: ipu-remote-invalid.mlir:[[# @LINE - 3]]:3: error: operand must be the result of an ipu.remote_buffer
