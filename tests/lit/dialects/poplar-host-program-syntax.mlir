// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s

// The custom form of poplar.host_program, which is what ipu-opt prints, parses back:
// with no arguments and an empty run region (written `^bb0:`, a region needs its
// block), with a scalar argument and an attribute dictionary, on every architecture,
// and two host programs in one module (the dialect allows it; poplar-cpp does not).

poplar.host_program @empty arch "ipu21" args [] : [] build {
  %p = poplar.sequence()
  poplar.engine %p
} run {
^bb0:
}
poplar.host_program @scalars arch "ipu1" args ["n", "h"] : [memref<i32>, memref<3xf16>] attributes {note = 1 : i32} build {
  %n = poplar.add_variable "n" : !poplar.tensor<i32>
  poplar.map_tensor %n over <1215 to 1216 x 1> : !poplar.tensor<i32>
  poplar.create_host_write "write_n" to %n : !poplar.tensor<i32>
  %h = poplar.add_variable "h" : !poplar.tensor<3xf16>
  poplar.map_tensor %h over <0 to 3 x 1> : !poplar.tensor<3xf16>
  poplar.create_host_read "read_h" from %h : !poplar.tensor<3xf16>
  %p = poplar.sequence()
  poplar.engine %p
} run {
  poplar.write_tensor "write_n" from "n"
  poplar.run 0
  poplar.read_tensor "read_h" to "h"
}

// CHECK:      poplar.host_program @empty arch "ipu21" args [] : [] build {
// CHECK-NEXT:   %p = poplar.sequence()
// CHECK-NEXT:   poplar.engine %p
// CHECK-NEXT: } run {
// CHECK-NEXT: }
// CHECK-NEXT: poplar.host_program @scalars arch "ipu1" args ["n", "h"] : [memref<i32>, memref<3xf16>] attributes {note = 1 : i32} build {
// CHECK-NEXT:   %n = poplar.add_variable "n" : !poplar.tensor<i32>
// CHECK-NEXT:   poplar.map_tensor %n over <1215 to 1216 x 1> : !poplar.tensor<i32>
// CHECK-NEXT:   poplar.create_host_write "write_n" to %n : !poplar.tensor<i32>
// CHECK-NEXT:   %h = poplar.add_variable "h" : !poplar.tensor<3xf16>
// CHECK-NEXT:   poplar.map_tensor %h over <0 to 3 x 1> : !poplar.tensor<3xf16>
// CHECK-NEXT:   poplar.create_host_read "read_h" from %h : !poplar.tensor<3xf16>
// CHECK-NEXT:   %p = poplar.sequence()
// CHECK-NEXT:   poplar.engine %p
// CHECK-NEXT: } run {
// CHECK-NEXT:   poplar.write_tensor "write_n" from "n"
// CHECK-NEXT:   poplar.run 0
// CHECK-NEXT:   poplar.read_tensor "read_h" to "h"
// CHECK-NEXT: }
