// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of ipu.view, and the ops that take variables but not views.

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = "ipu.view"(%A) <{begin = array<i64: 0>, end = array<i64: 5>, dims = array<i64: 0>}> : (memref<5x7xf32>) -> memref<5xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: view of 'A' needs one begin and one end per dimension of memref<5x7xf32>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[0:5, 3:8] : memref<5x7xf32> -> memref<5x5xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: view of 'A': dimension 1 range [3:8] is empty or outside [0:7]

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[2:2, 0:7] : memref<5x7xf32> -> memref<0x7xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: view of 'A': dimension 0 range [2:2] is empty or outside [0:5]

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = "ipu.view"(%A) <{begin = array<i64: 1, 0>, end = array<i64: 3, 7>, dims = array<i64: 1>}> : (memref<5x7xf32>) -> memref<7xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: view of 'A' drops dimension 0, which must then be one index, not [1:3]

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[0:5, 0:7] dims [1, 1] : memref<5x7xf32> -> memref<7x7xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: view of 'A': dims [1, 1] must be distinct dimensions of memref<5x7xf32>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[3, 0:7] : memref<5x7xf32> -> memref<5xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: view of 'A' is memref<7xf32>, not memref<5xf32>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[3, 0:7] : memref<5x7xf32> -> memref<7xf32>
  %w = ipu.view %v[1:3] : memref<7xf32> -> memref<2xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: ipu.view must view an ipu.variable

// -----

// A view has no host data: host transfers move whole variables.
ipu.graph "g" arch "ipu2" args ["A"] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[3, 0:7] : memref<5x7xf32> -> memref<7xf32>
  ipu.to_host %v : memref<7xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: host transfers move whole variables, not views

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[3, 0:7] : memref<5x7xf32> -> memref<7xf32>
  ipu.copy %v[0:8] to %A[0:8] : memref<7xf32>, memref<5x7xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: copy range [0:8] of 'A' is empty or out of bounds

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[3, 0:7] dims [*, 1, *] : memref<5x7xf32> -> memref<2x7xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: view of 'A' has 3 dimensions, not those of memref<2x7xf32>

// -----

// A broadcast view holds elements several times: nothing may write it.
ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[3, 0:7] dims [*, 1] : memref<5x7xf32> -> memref<4x7xf32>
  ipu.copy %A[0:28] to %v[0:28] : memref<5x7xf32>, memref<4x7xf32>
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 3]]:3: error: ipu.copy writes a broadcast view of 'A', which holds elements several times

// -----

ipu.graph "g" arch "ipu2" args [] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[3, 0:7] dims [*, 1] : memref<5x7xf32> -> memref<4x7xf32>
  ipu.tiled_map "m" over <0 to 4 x 7> ins() outs(%v block : memref<4x7xf32>) {
    %c = arith.constant 1.0 : f32
    ipu.yield %c : f32
  }
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 6]]:3: error: tiled map 'm' writes a broadcast view of 'A', which holds elements several times

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @fill(%y: memref<?xf32> output "y") {
  }
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %v = ipu.view %A[3, 0:7] dims [*, 1] : memref<5x7xf32> -> memref<4x7xf32>
  ipu.compute_set "cs" {
    ipu.vertices @fill over <0 to 4 x 7> (%v block : memref<4x7xf32>)
  }
}

// CHECK: ipu-view-invalid.mlir:[[# @LINE - 4]]:5: error: ipu.vertices of @fill writes a broadcast view of 'A', which holds elements several times
