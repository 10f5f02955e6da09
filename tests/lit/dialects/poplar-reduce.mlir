// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of poplar.reduce (popops::reduceWithOutput, a program) in the custom and
// the generic form: a slice of a tensor into one element with an update, columns of
// float16, an int32 product, with a discardable attribute.

poplar.host_program @reductions arch "ipu2" args ["A"] : [memref<4x5xf32>] build {
  %A = poplar.add_variable "A" : !poplar.tensor<4x5xf32>
  poplar.map_tensor %A over <0 to 10 x 2> : !poplar.tensor<4x5xf32>
  %s = poplar.add_variable "s" : !poplar.tensor<1xf32>
  poplar.map_tensor %s over <0 to 1 x 1> : !poplar.tensor<1xf32>
  %h = poplar.add_variable "h" : !poplar.tensor<4x5xf16>
  poplar.map_tensor %h over <0 to 10 x 2> : !poplar.tensor<4x5xf16>
  %c = poplar.add_variable "c" : !poplar.tensor<5xf16>
  poplar.map_tensor %c over <0 to 1 x 5> : !poplar.tensor<5xf16>
  %k = poplar.add_variable "k" : !poplar.tensor<4xi32>
  poplar.map_tensor %k over <0 to 1 x 4> : !poplar.tensor<4xi32>
  %m = poplar.add_variable "m" : !poplar.tensor<i32>
  poplar.map_tensor %m over <0 to 1 x 1> : !poplar.tensor<i32>
  %box = poplar.slice_box %A[1, 0] to [3, 5] : !poplar.tensor<4x5xf32> -> !poplar.tensor<2x5xf32>
  %0 = poplar.reduce "Reduce" add %box to %s dims [0, 1] update : !poplar.tensor<2x5xf32>, !poplar.tensor<1xf32>
  %1 = poplar.reduce "cols" max %h to %c dims [0] {tag} : !poplar.tensor<4x5xf16>, !poplar.tensor<5xf16>
  %2 = poplar.reduce "product" mul %k to %m dims [0] : !poplar.tensor<4xi32>, !poplar.tensor<i32>
  %3 = poplar.sequence(%0, %1, %2)
  poplar.engine %3
} run {
  poplar.run 0
}

// CHECK:      %0 = poplar.reduce "Reduce" add %box to %s dims [0, 1] update : !poplar.tensor<2x5xf32>, !poplar.tensor<1xf32>
// CHECK-NEXT: %1 = poplar.reduce "cols" max %h to %c dims [0] {tag} : !poplar.tensor<4x5xf16>, !poplar.tensor<5xf16>
// CHECK-NEXT: %2 = poplar.reduce "product" mul %k to %m dims [0] : !poplar.tensor<4xi32>, !poplar.tensor<i32>

// GENERIC: %0 = "poplar.reduce"(%box, %s) <{label = "Reduce", kind = "add", dims = array<i64: 0, 1>, update}> : (!poplar.tensor<2x5xf32>, !poplar.tensor<1xf32>) -> !poplar.program
