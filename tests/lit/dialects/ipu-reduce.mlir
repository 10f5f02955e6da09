// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of ipu.reduce, a reduction popops plans (no tile map), in the custom and
// the generic form: a box (a view) of a variable into one element with an update,
// columns of float16 into a vector, inside a loop, with a discardable attribute.

ipu.graph "reductions" arch "ipu2" args ["A", "h"] {
  %A = ipu.variable "A" mapping <0 to 10 x 2> : memref<4x5xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<1xf32>
  %h = ipu.variable "h" mapping <0 to 10 x 2> : memref<4x5xf16>
  %c = ipu.variable "c" mapping <0 to 1 x 5> : memref<5xf16>
  %k = ipu.variable "k" mapping <0 to 1 x 4> : memref<4xi32>
  %m = ipu.variable "m" mapping <0 to 1 x 1> : memref<i32>
  %box = ipu.view %A[1:3, 0:5] : memref<4x5xf32> -> memref<2x5xf32>
  ipu.reduce "Reduce" add %box to %s dims [0, 1] update : memref<2x5xf32>, memref<1xf32>
  ipu.reduce "cols" max %h to %c dims [0] {tag} : memref<4x5xf16>, memref<5xf16>
  ipu.repeat 3 {
    ipu.reduce "least" min %k to %m dims [0] : memref<4xi32>, memref<i32>
  }
}

// CHECK:      ipu.reduce "Reduce" add %box to %s dims [0, 1] update : memref<2x5xf32>, memref<1xf32>
// CHECK-NEXT: ipu.reduce "cols" max %h to %c dims [0] {tag} : memref<4x5xf16>, memref<5xf16>
// CHECK-NEXT: ipu.repeat 3 {
// CHECK-NEXT:   ipu.reduce "least" min %k to %m dims [0] : memref<4xi32>, memref<i32>

// GENERIC: "ipu.reduce"(%box, %s) <{label = "Reduce", kind = "add", dims = array<i64: 0, 1>, update}> : (memref<2x5xf32>, memref<1xf32>) -> ()
