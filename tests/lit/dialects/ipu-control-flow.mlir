// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the control programs and dynamic slices of the ipu dialect, in their
// custom and generic forms: ipu.repeat (a count; an empty body), ipu.repeat_while (a
// bool predicate variable, a condition region and a body), ipu.if (an integer
// predicate; with and without else), ipu.dynamic_slice and ipu.dynamic_update (a box at
// offsets read from scalar i32 variables, into or from a variable holding its
// elements). Program steps (maps, copies, slices) stand in their regions.

ipu.graph "loops" arch "ipu2" args ["A"] {
  %A = ipu.variable "A" mapping <0 to 2 x 6> : memref<4x3xf32>
  %row = ipu.variable "row" mapping <0 to 1 x 3> : memref<3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %u = ipu.variable "u" mapping <0 to 1 x 1> : memref<i32>
  %p = ipu.variable "p" mapping <0 to 1 x 1> : memref<i1>
  %k = ipu.variable "k" mapping <0 to 1 x 1> : memref<i32>
  %e = ipu.variable "e" mapping <0 to 1 x 1> : memref<f32>
  ipu.repeat 3 {
    ipu.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : memref<4x3xf32>, memref<3xf32>
    ipu.dynamic_update %A at [%t, %u] dims [0, 1] sizes [1, 1] from %e {note} : memref<4x3xf32>, memref<f32>
  }
  ipu.repeat 0 {}
  ipu.repeat_while %p : memref<i1> attributes {loop} {
    ipu.tiled_map "cond" over <0 to 1 x 1> ins(%t whole : memref<i32>) outs(%p whole : memref<i1>) {
    ^bb0(%vt: memref<i32>):
      %c = ipu.access %vt[] : memref<i32>
      %ten = arith.constant 10 : i32
      %less = arith.cmpi slt, %c, %ten : i32
      ipu.yield %less : i1
    }
  } do {
    ipu.if %k : memref<i32> {
      ipu.copy %row[0:3] to %A[3:6] : memref<3xf32>, memref<4x3xf32>
    } else {
      ipu.repeat 2 {}
    }
    ipu.if %p : memref<i1> {}
  }
}

// CHECK-LABEL: ipu.graph "loops" arch "ipu2" args ["A"] {
// CHECK:         ipu.repeat 3 {
// CHECK-NEXT:      ipu.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : memref<4x3xf32>, memref<3xf32>
// CHECK-NEXT:      ipu.dynamic_update %A at [%t, %u] dims [0, 1] sizes [1, 1] from %e {note} : memref<4x3xf32>, memref<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.repeat 0 {
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.repeat_while %p : memref<i1> attributes {loop} {
// CHECK-NEXT:      ipu.tiled_map "cond" over <0 to 1 x 1> ins(%t whole : memref<i32>) outs(%p whole : memref<i1>) {
// CHECK:           }
// CHECK-NEXT:    } do {
// CHECK-NEXT:      ipu.if %k : memref<i32> {
// CHECK-NEXT:        ipu.copy %row[0:3] to %A[3:6] : memref<3xf32>, memref<4x3xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        ipu.repeat 2 {
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      ipu.if %p : memref<i1> {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC:      "ipu.repeat"() <{count = 3 : i64}> ({
// GENERIC-NEXT:   "ipu.dynamic_slice"(%{{.*}}, %{{.*}}, %{{.*}}) <{dims = array<i64: 0>, sizes = array<i64: 1>}> : (memref<4x3xf32>, memref<i32>, memref<3xf32>) -> ()
// GENERIC-NEXT:   "ipu.dynamic_update"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dims = array<i64: 0, 1>, sizes = array<i64: 1, 1>}> {note} : (memref<4x3xf32>, memref<i32>, memref<i32>, memref<f32>) -> ()
// GENERIC:      "ipu.repeat_while"(%{{.*}}) ({
// GENERIC:      }, {
// GENERIC:        "ipu.if"(%{{.*}}) ({
// GENERIC:        }, {
