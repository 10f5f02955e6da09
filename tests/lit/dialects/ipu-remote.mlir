// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Remote buffers at the tile level: an array in streaming memory cut into repeats, a
// host transfer of all of it, and copies of one repeat at a counter into a variable
// and back.

ipu.graph "rows" arch "ipu2" args ["A"] {
  %A = ipu.remote_buffer "A" repeats 4 : memref<12x4xf32>
  %L = ipu.variable "L" mapping <0 to 6 x 2> : memref<3x4xf32>
  %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<i32>
  ipu.from_host %A : memref<12x4xf32>
  ipu.repeat 4 {
    ipu.remote_load %A at %c into %L : memref<12x4xf32>, memref<i32>, memref<3x4xf32>
    ipu.remote_store %L into %A at %c : memref<12x4xf32>, memref<i32>, memref<3x4xf32>
  }
  ipu.to_host %A : memref<12x4xf32>
}

// CHECK:      ipu.graph "rows" arch "ipu2" args ["A"] {
// CHECK-NEXT:   %A = ipu.remote_buffer "A" repeats 4 : memref<12x4xf32>
// CHECK-NEXT:   %L = ipu.variable "L" mapping <0 to 6 x 2> : memref<3x4xf32>
// CHECK-NEXT:   %c = ipu.variable "c" mapping <0 to 1 x 1> : memref<i32>
// CHECK-NEXT:   ipu.from_host %A : memref<12x4xf32>
// CHECK-NEXT:   ipu.repeat 4 {
// CHECK-NEXT:     ipu.remote_load %A at %c into %L : memref<12x4xf32>, memref<i32>, memref<3x4xf32>
// CHECK-NEXT:     ipu.remote_store %L into %A at %c : memref<12x4xf32>, memref<i32>, memref<3x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host %A : memref<12x4xf32>
// CHECK-NEXT: }

// GENERIC: %A = "ipu.remote_buffer"() <{var_name = "A", repeats = 4 : i64}> : () -> memref<12x4xf32>
// GENERIC: "ipu.remote_load"(%A, %c, %L) : (memref<12x4xf32>, memref<i32>, memref<3x4xf32>) -> ()
// GENERIC: "ipu.remote_store"(%A, %c, %L) : (memref<12x4xf32>, memref<i32>, memref<3x4xf32>) -> ()
