// RUN: ipu-opt %s -p convert-ipu-to-poplar | filecheck %s

// convert-ipu-to-poplar on control programs: the ops of each region (converted) move
// before the loop or branch, and the programs they make become the sequence it runs:
// ipu.repeat is poplar.repeat, ipu.repeat_while poplar.repeat_while_true (its condition
// region the cond program), ipu.if poplar.if (an empty else region an empty sequence);
// dynamic slices and updates become their poplar ops.

ipu.graph "loops" arch "ipu2" args ["A"] {
  %A = ipu.variable "A" mapping <0 to 2 x 6> : memref<4x3xf32>
  %row = ipu.variable "row" mapping <0 to 1 x 3> : memref<3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %p = ipu.variable "p" mapping <0 to 1 x 1> : memref<i1>
  ipu.from_host %A : memref<4x3xf32>
  ipu.repeat 3 {
    ipu.compute_set "first" {}
    ipu.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : memref<4x3xf32>, memref<3xf32>
  }
  ipu.repeat_while %p : memref<i1> {
    ipu.compute_set "cond" {}
  } do {
    ipu.if %p : memref<i1> {
      ipu.dynamic_update %A at [%t] dims [0] sizes [1] from %row : memref<4x3xf32>, memref<3xf32>
    } else {
      ipu.copy %row[0:3] to %A[0:3] : memref<3xf32>, memref<4x3xf32>
    }
  }
  ipu.to_host %A : memref<4x3xf32>
}

// CHECK-LABEL: poplar.host_program @loops arch "ipu2" args ["A"] : [memref<4x3xf32>] build {
// CHECK-NEXT:     %A = poplar.add_variable "A" : !poplar.tensor<4x3xf32>
// CHECK-NEXT:     poplar.map_tensor %A over <0 to 2 x 6> : !poplar.tensor<4x3xf32>
// CHECK-NEXT:     %row = poplar.add_variable "row" : !poplar.tensor<3xf32>
// CHECK-NEXT:     poplar.map_tensor %row over <0 to 1 x 3> : !poplar.tensor<3xf32>
// CHECK-NEXT:     %t = poplar.add_variable "t" : !poplar.tensor<i32>
// CHECK-NEXT:     poplar.map_tensor %t over <0 to 1 x 1> : !poplar.tensor<i32>
// CHECK-NEXT:     %p = poplar.add_variable "p" : !poplar.tensor<i1>
// CHECK-NEXT:     poplar.map_tensor %p over <0 to 1 x 1> : !poplar.tensor<i1>
// CHECK-NEXT:     poplar.create_host_write "write_A" to %A : !poplar.tensor<4x3xf32>
// CHECK-NEXT:     %0 = poplar.add_compute_set "first"
// CHECK-NEXT:     %1 = poplar.execute %0
// CHECK-NEXT:     %2 = poplar.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : !poplar.tensor<4x3xf32>, !poplar.tensor<3xf32>
// CHECK-NEXT:     %3 = poplar.sequence(%1, %2)
// CHECK-NEXT:     %4 = poplar.repeat 3 times %3
// CHECK-NEXT:     %5 = poplar.add_compute_set "cond"
// CHECK-NEXT:     %6 = poplar.execute %5
// CHECK-NEXT:     %7 = poplar.sequence(%6)
// CHECK-NEXT:     %8 = poplar.dynamic_update %A at [%t] dims [0] sizes [1] from %row : !poplar.tensor<4x3xf32>, !poplar.tensor<3xf32>
// CHECK-NEXT:     %9 = poplar.sequence(%8)
// CHECK-NEXT:     %10 = poplar.flatten %A : !poplar.tensor<4x3xf32> -> !poplar.tensor<12xf32>
// CHECK-NEXT:     %11 = poplar.slice %10[0 : 3] : !poplar.tensor<12xf32> -> !poplar.tensor<3xf32>
// CHECK-NEXT:     %12 = poplar.copy %row to %11 : !poplar.tensor<3xf32>, !poplar.tensor<3xf32>
// CHECK-NEXT:     %13 = poplar.sequence(%12)
// CHECK-NEXT:     %14 = poplar.if %p : !poplar.tensor<i1> then %9 else %13
// CHECK-NEXT:     %15 = poplar.sequence(%14)
// CHECK-NEXT:     %16 = poplar.repeat_while_true %p : !poplar.tensor<i1> cond %7 body %15
// CHECK-NEXT:     poplar.create_host_read "read_A" from %A : !poplar.tensor<4x3xf32>
// CHECK-NEXT:     %17 = poplar.sequence(%4, %16)
// CHECK-NEXT:     poplar.engine %17
// CHECK-NEXT:   } run {
