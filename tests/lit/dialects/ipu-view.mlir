// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of ipu.view in its custom and generic form: a row, a column, a transpose,
// a box, a row repeated over rows and a column over columns (broadcasts, `*`), and
// views read by a tiled map and copied by ipu.copy.

ipu.graph "views" arch "ipu2" args ["A", "y"] {
  %A = ipu.variable "A" mapping <0 to 5 x 7> : memref<5x7xf32>
  %y = ipu.variable "y" mapping <0 to 7 x 1> : memref<7xf32>
  %t = ipu.variable "t" mapping <0 to 7 x 5> : memref<7x5xf32>
  %row = ipu.view %A[3, 0:7] : memref<5x7xf32> -> memref<7xf32>
  %column = ipu.view %A[0:5, 2] : memref<5x7xf32> -> memref<5xf32>
  %transposed = ipu.view %A[0:5, 0:7] dims [1, 0] : memref<5x7xf32> -> memref<7x5xf32>
  %box = ipu.view %A[1:3, 2:4] {note} : memref<5x7xf32> -> memref<2x2xf32>
  %rows = ipu.view %A[3, 0:7] dims [*, 1] : memref<5x7xf32> -> memref<4x7xf32>
  %columns = ipu.view %A[0:5, 2] dims [0, *] : memref<5x7xf32> -> memref<5x3xf32>
  ipu.tiled_map "row" over <from 1: 0 to 6 x 1> ins(%row halo<1, 0> : memref<7xf32>) outs(%y block : memref<7xf32>) {
  ^bb0(%r: memref<7xf32>):
    %v = ipu.access %r[-1] : memref<7xf32>
    ipu.yield %v : f32
  }
  ipu.tiled_map "transpose" over <0 to 7 x 5> ins(%transposed block : memref<7x5xf32>) outs(%t block : memref<7x5xf32>) {
  ^bb0(%r: memref<7x5xf32>):
    %v = ipu.access %r[0, 0] : memref<7x5xf32>
    ipu.yield %v : f32
  }
  ipu.copy %box[0:4] to %column[1:5] : memref<2x2xf32>, memref<5xf32>
}

// CHECK:      %row = ipu.view %A[3, 0:7] : memref<5x7xf32> -> memref<7xf32>
// CHECK-NEXT: %column = ipu.view %A[0:5, 2] : memref<5x7xf32> -> memref<5xf32>
// CHECK-NEXT: %transposed = ipu.view %A[0:5, 0:7] dims [1, 0] : memref<5x7xf32> -> memref<7x5xf32>
// CHECK-NEXT: %box = ipu.view %A[1:3, 2:4] {note} : memref<5x7xf32> -> memref<2x2xf32>
// CHECK-NEXT: %rows = ipu.view %A[3, 0:7] dims [*, 1] : memref<5x7xf32> -> memref<4x7xf32>
// CHECK-NEXT: %columns = ipu.view %A[0:5, 2] dims [0, *] : memref<5x7xf32> -> memref<5x3xf32>
// CHECK:      ipu.tiled_map "row" over <from 1: 0 to 6 x 1> ins(%row halo<1, 0> : memref<7xf32>) outs(%y block : memref<7xf32>)
// CHECK:      ipu.tiled_map "transpose" over <0 to 7 x 5> ins(%transposed block : memref<7x5xf32>)
// CHECK:      ipu.copy %box[0:4] to %column[1:5] : memref<2x2xf32>, memref<5xf32>

// GENERIC: %row = "ipu.view"(%A) <{begin = array<i64: 3, 0>, end = array<i64: 4, 7>, dims = array<i64: 1>}> : (memref<5x7xf32>) -> memref<7xf32>
// GENERIC: %transposed = "ipu.view"(%A) <{begin = array<i64: 0, 0>, end = array<i64: 5, 7>, dims = array<i64: 1, 0>}> : (memref<5x7xf32>) -> memref<7x5xf32>
// GENERIC: %rows = "ipu.view"(%A) <{begin = array<i64: 3, 0>, end = array<i64: 4, 7>, dims = array<i64: -1, 1>}> : (memref<5x7xf32>) -> memref<4x7xf32>
