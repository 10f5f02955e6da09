// RUN: ipu-opt %s | ipu-opt | filecheck %s

// Known bug: the custom form of poplar.host_program, which is what ipu-opt prints, does
// not parse. Its second region is called `build`, and that field shadows the class method
// `IRDLOperation.build` that the declarative assembly format calls to create the op, so
// parsing stops with "internal error (AttributeError: 'NoneType' object has no attribute
// and let poplar.mlir feed its custom output back into ipu-opt.

poplar.host_program @p arch "ipu2" args ["x"] : [memref<2xf32>] build {
  %x = poplar.add_variable "x" f32 [2]
  poplar.create_host_write "write_x" to %x
  %cs = poplar.add_compute_set "cs"
  %p = poplar.execute %cs
  poplar.engine %p
} run {
  poplar.write_tensor "write_x" from "x"
  poplar.run 0
}

// CHECK:      poplar.host_program @p arch "ipu2" args ["x"] : [memref<2xf32>] build {
// CHECK-NEXT:   [[X:%.*]] = poplar.add_variable "x" f32 [2]
// CHECK-NEXT:   poplar.create_host_write "write_x" to [[X]]
// CHECK-NEXT:   [[CS:%.*]] = poplar.add_compute_set "cs"
// CHECK-NEXT:   [[P:%.*]] = poplar.execute [[CS]]
// CHECK-NEXT:   poplar.engine [[P]]
// CHECK-NEXT: } run {
// CHECK-NEXT:   poplar.write_tensor "write_x" from "x"
// CHECK-NEXT:   poplar.run 0
// CHECK-NEXT: }
