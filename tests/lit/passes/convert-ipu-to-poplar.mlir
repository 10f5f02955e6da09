// RUN: ipu-opt %s -p convert-ipu-to-poplar | filecheck %s

// Variables get their tile mappings slice by slice (2-D tensors through a flattened
// view), each vertex is mapped, connected and given a perf estimate, copies and
// compute sets become programs in order, and host I/O becomes handles used by `run`.

ipu.graph "scale" arch "ipu21" args ["a", "x", "y"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<2x4xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<2x4xf32>
  ipu.codelet @scale_m fields [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<output "y" vector f32>] {
  ^bb0(%va: f32, %vx: f32):
    %p = arith.mulf %va, %vx : f32
    ipu.yield %p : f32
  }
  ipu.from_host %a : memref<f32>
  ipu.from_host %x : memref<2x4xf32>
  ipu.compute_set "scale_m" {
    ipu.vertex @scale_m tile 0 (%a, %x[0:4], %y[0:4]) : memref<f32>, memref<2x4xf32>, memref<2x4xf32>
    ipu.vertex @scale_m tile 1 (%a, %x[4:8], %y[4:8]) : memref<f32>, memref<2x4xf32>, memref<2x4xf32>
  }
  ipu.copy %y[0:4] to %x[4:8] : memref<2x4xf32>, memref<2x4xf32>
  ipu.to_host %x : memref<2x4xf32>
  ipu.to_host %y : memref<2x4xf32>
}

// CHECK:      poplar.codelet @scale_m fields [#ipu.field<input "a" scalar f32>, #ipu.field<input "x" vector f32>, #ipu.field<output "y" vector f32>] {
// CHECK-NEXT: ^{{.*}}([[VA:%.*]]: f32, [[VX:%.*]]: f32):
// CHECK-NEXT:   [[P:%.*]] = arith.mulf [[VA]], [[VX]] : f32
// CHECK-NEXT:   poplar.yield [[P]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: poplar.host_program @scale arch "ipu21" args ["a", "x", "y"] : [memref<f32>, memref<2x4xf32>, memref<2x4xf32>] build {
// CHECK-NEXT:   [[A:%.*]] = poplar.add_variable "a" f32 []
// CHECK-NEXT:   poplar.set_tile_mapping [[A]] to 0 : !poplar.tensor
// CHECK-NEXT:   [[X:%.*]] = poplar.add_variable "x" f32 [2, 4]
// CHECK-NEXT:   [[XF:%.*]] = poplar.flatten [[X]]
// CHECK-NEXT:   [[X0:%.*]] = poplar.slice [[XF]][0 : 4]
// CHECK-NEXT:   poplar.set_tile_mapping [[X0]] to 0 : !poplar.tensor
// CHECK-NEXT:   [[X1:%.*]] = poplar.slice [[XF]][4 : 8]
// CHECK-NEXT:   poplar.set_tile_mapping [[X1]] to 1 : !poplar.tensor
// CHECK-NEXT:   [[Y:%.*]] = poplar.add_variable "y" f32 [2, 4]
// CHECK-NEXT:   [[YF:%.*]] = poplar.flatten [[Y]]
// CHECK:        poplar.create_host_write "write_a" to [[A]]
// CHECK-NEXT:   poplar.create_host_write "write_x" to [[X]]
// CHECK-NEXT:   [[CS:%.*]] = poplar.add_compute_set "scale_m"
// CHECK-NEXT:   [[V0:%.*]] = poplar.add_vertex [[CS]] "scale_m"
// CHECK-NEXT:   poplar.set_tile_mapping [[V0]] to 0 : !poplar.vertex
// CHECK-NEXT:   poplar.connect [[V0]]["a"] to [[A]]
// CHECK-NEXT:   [[S0:%.*]] = poplar.slice [[XF]][0 : 4]
// CHECK-NEXT:   poplar.connect [[V0]]["x"] to [[S0]]
// CHECK-NEXT:   [[S1:%.*]] = poplar.slice [[YF]][0 : 4]
// CHECK-NEXT:   poplar.connect [[V0]]["y"] to [[S1]]
// CHECK-NEXT:   poplar.set_perf_estimate [[V0]] cycles {{[0-9]+}}
// CHECK-NEXT:   [[V1:%.*]] = poplar.add_vertex [[CS]] "scale_m"
// CHECK-NEXT:   poplar.set_tile_mapping [[V1]] to 1 : !poplar.vertex
// CHECK:        [[E:%.*]] = poplar.execute [[CS]]
// CHECK-NEXT:   [[C0:%.*]] = poplar.slice [[YF]][0 : 4]
// CHECK-NEXT:   [[C1:%.*]] = poplar.slice [[XF]][4 : 8]
// CHECK-NEXT:   [[C:%.*]] = poplar.copy [[C0]] to [[C1]]
// CHECK-NEXT:   poplar.create_host_read "read_x" from [[X]]
// CHECK-NEXT:   poplar.create_host_read "read_y" from [[Y]]
// CHECK-NEXT:   [[SEQ:%.*]] = poplar.sequence([[E]], [[C]])
// CHECK-NEXT:   poplar.engine [[SEQ]]
// CHECK-NEXT: } run {
// CHECK-NEXT:   poplar.write_tensor "write_a" from "a"
// CHECK-NEXT:   poplar.write_tensor "write_x" from "x"
// CHECK-NEXT:   poplar.run 0
// CHECK-NEXT:   poplar.read_tensor "read_x" to "x"
// CHECK-NEXT:   poplar.read_tensor "read_y" to "y"
// CHECK-NEXT: }
