// RUN: ipu-opt %s -p convert-ipu-to-poplar | filecheck %s

// The tile-level program spelled as Poplar API calls. Codelets move next to the host
// program unchanged but for the worker ops. Each variable becomes add_variable plus
// one map_tensor over its tile map; each placement one add_vertices over the same
// runs, its fields named, with one cycle estimate per run read from the codelet body
// (ipu_lower/cost_model.py, as emitted): g_m runs 13 points per vertex on tiles 0-1,
// ceil(13 / 6) = 3 iterations for the busiest worker, each 10 cycles (3 loads, 2 stores,
// 3 float ops and the loop decision, 2): 11 + 6 * (18 + 2 + 6 + 3 * 10) = 347 cycles; 2
// points on tile 2 (227). The reduction codelet loops over its whole block on worker 0
// (485 and 221), and over the 3 partials in the combining vertex (245). Copies become flatten/slice views and a
// copy program; host transfers become read/write handles in the build region and
// engine calls in the run region (writes, run, reads); the programs run in order.

ipu.graph "g" arch "ipu2" args ["a", "x", "y", "m", "s"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 14, 2 to 3 x 2> : memref<30xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 13, 2 to 3 x 2> : memref<28xf32>
  %t = ipu.variable "__tmp0" mapping <0 to 2 x 13, 2 to 3 x 2> : memref<28xf32>
  %m = ipu.variable "m" mapping <0 to 3 x 2> : memref<2x3xf32>
  %p = ipu.variable "p" mapping <0 to 3 x 1> : memref<3xf32>
  %total = ipu.variable "s" mapping <0 to 1 x 1> : memref<1xf32>
  ipu.codelet @g_m(%fa: memref<f32> input "a", %fx: memref<?xf32> input "x", %fy: memref<?xf32> inout "y", %ft: memref<?xf32> output "tmp0") {
    %c0 = arith.constant 0 : index
    %n = memref.dim %fy, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    %s = memref.load %fa[] : memref<f32>
    %s2 = arith.mulf %s, %s : f32
    scf.for %i = %w to %n step %nw {
      %x0 = memref.load %fx[%i] : memref<?xf32>
      %c2 = arith.constant 2 : index
      %i2 = arith.addi %i, %c2 : index
      %x2 = memref.load %fx[%i2] : memref<?xf32>
      %y0 = memref.load %fy[%i] : memref<?xf32>
      %sum = arith.addf %x0, %x2 : f32
      %r = arith.mulf %s2, %sum : f32
      %o = arith.addf %r, %y0 : f32
      memref.store %o, %fy[%i] : memref<?xf32>
      memref.store %r, %ft[%i] : memref<?xf32>
    }
  }
  ipu.codelet @total(%v: memref<?xf32> input "v", %out: memref<f32> output "out") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %v, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %first = arith.cmpi eq, %w, %c0 : index
    scf.if %first {
      %zero = arith.constant 0.000000e+00 : f32
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
        %e = memref.load %v[%i] : memref<?xf32>
        %next = arith.addf %acc, %e : f32
        scf.yield %next : f32
      }
      memref.store %sum, %out[] : memref<f32>
    }
  }
  ipu.from_host %a : memref<f32>
  ipu.from_host %x : memref<30xf32>
  ipu.from_host %y : memref<28xf32>
  ipu.compute_set "g_m" {
    ipu.vertices @g_m over <0 to 2 x 13, 2 to 3 x 2> (%a whole, %x halo<0, 2>, %y block, %t block : memref<f32>, memref<30xf32>, memref<28xf32>, memref<28xf32>)
  }
  ipu.compute_set "reduce" {
    ipu.vertices @total over <0 to 2 x 13, 2 to 3 x 2> (%y block, %p partial : memref<28xf32>, memref<3xf32>)
  }
  ipu.compute_set "combine" {
    ipu.vertices @total over <7 to 8 x 1> (%p whole, %total whole : memref<3xf32>, memref<1xf32>)
  }
  ipu.copy %t[0:28] to %y[0:28] : memref<28xf32>, memref<28xf32>
  ipu.copy %t[2:5] to %m[3:6] : memref<28xf32>, memref<2x3xf32>
  ipu.to_host %y : memref<28xf32>
  ipu.to_host %m : memref<2x3xf32>
  ipu.to_host %total : memref<1xf32>
}

// CHECK:      poplar.codelet @g_m(%fa: memref<f32> input "a", %fx: memref<?xf32> input "x", %fy: memref<?xf32> inout "y", %ft: memref<?xf32> output "tmp0") {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %n = memref.dim %fy, %c0 : memref<?xf32>
// CHECK-NEXT:   %w = poplar.worker_id
// CHECK-NEXT:   %nw = poplar.num_workers
// CHECK-NEXT:   %s = memref.load %fa[] : memref<f32>
// CHECK-NEXT:   %s2 = arith.mulf %s, %s : f32
// CHECK-NEXT:   scf.for %i = %w to %n step %nw {
// CHECK-NEXT:     %x0 = memref.load %fx[%i] : memref<?xf32>
// CHECK-NEXT:     %c2 = arith.constant 2 : index
// CHECK-NEXT:     %i2 = arith.addi %i, %c2 : index
// CHECK-NEXT:     %x2 = memref.load %fx[%i2] : memref<?xf32>
// CHECK-NEXT:     %y0 = memref.load %fy[%i] : memref<?xf32>
// CHECK-NEXT:     %sum = arith.addf %x0, %x2 : f32
// CHECK-NEXT:     %r = arith.mulf %s2, %sum : f32
// CHECK-NEXT:     %o = arith.addf %r, %y0 : f32
// CHECK-NEXT:     memref.store %o, %fy[%i] : memref<?xf32>
// CHECK-NEXT:     memref.store %r, %ft[%i] : memref<?xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: poplar.codelet @total(%v: memref<?xf32> input "v", %out: memref<f32> output "out") {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %n = memref.dim %v, %c0 : memref<?xf32>
// CHECK-NEXT:   %w = poplar.worker_id
// CHECK-NEXT:   %first = arith.cmpi eq, %w, %c0 : index
// CHECK-NEXT:   scf.if %first {
// CHECK-NEXT:     %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
// CHECK-NEXT:       %e = memref.load %v[%i] : memref<?xf32>
// CHECK-NEXT:       %next = arith.addf %acc, %e : f32
// CHECK-NEXT:       scf.yield %next : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     memref.store %sum, %out[] : memref<f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: poplar.host_program @g arch "ipu2" args ["a", "x", "y", "m", "s"] : [memref<f32>, memref<30xf32>, memref<28xf32>, memref<2x3xf32>, memref<1xf32>] build {
// CHECK-NEXT:   %a = poplar.add_variable "a" : !poplar.tensor<f32>
// CHECK-NEXT:   poplar.map_tensor %a over <0 to 1 x 1> : !poplar.tensor<f32>
// CHECK-NEXT:   %x = poplar.add_variable "x" : !poplar.tensor<30xf32>
// CHECK-NEXT:   poplar.map_tensor %x over <0 to 2 x 14, 2 to 3 x 2> : !poplar.tensor<30xf32>
// CHECK-NEXT:   %y = poplar.add_variable "y" : !poplar.tensor<28xf32>
// CHECK-NEXT:   poplar.map_tensor %y over <0 to 2 x 13, 2 to 3 x 2> : !poplar.tensor<28xf32>
// CHECK-NEXT:   %t = poplar.add_variable "__tmp0" : !poplar.tensor<28xf32>
// CHECK-NEXT:   poplar.map_tensor %t over <0 to 2 x 13, 2 to 3 x 2> : !poplar.tensor<28xf32>
// CHECK-NEXT:   %m = poplar.add_variable "m" : !poplar.tensor<2x3xf32>
// CHECK-NEXT:   poplar.map_tensor %m over <0 to 3 x 2> : !poplar.tensor<2x3xf32>
// CHECK-NEXT:   %p = poplar.add_variable "p" : !poplar.tensor<3xf32>
// CHECK-NEXT:   poplar.map_tensor %p over <0 to 3 x 1> : !poplar.tensor<3xf32>
// CHECK-NEXT:   %total = poplar.add_variable "s" : !poplar.tensor<1xf32>
// CHECK-NEXT:   poplar.map_tensor %total over <0 to 1 x 1> : !poplar.tensor<1xf32>
// CHECK-NEXT:   poplar.create_host_write "write_a" to %a : !poplar.tensor<f32>
// CHECK-NEXT:   poplar.create_host_write "write_x" to %x : !poplar.tensor<30xf32>
// CHECK-NEXT:   poplar.create_host_write "write_y" to %y : !poplar.tensor<28xf32>
// CHECK-NEXT:   [[V0:%[0-9]+]] = poplar.add_compute_set "g_m"
// CHECK-NEXT:   poplar.add_vertices [[V0]] @g_m over <0 to 2 x 13, 2 to 3 x 2> ["a" = %a whole, "x" = %x halo<0, 2>, "y" = %y block, "tmp0" = %t block] cycles [347, 227] : !poplar.tensor<f32>, !poplar.tensor<30xf32>, !poplar.tensor<28xf32>, !poplar.tensor<28xf32>
// CHECK-NEXT:   [[V1:%[0-9]+]] = poplar.execute [[V0]]
// CHECK-NEXT:   [[V2:%[0-9]+]] = poplar.add_compute_set "reduce"
// CHECK-NEXT:   poplar.add_vertices [[V2]] @total over <0 to 2 x 13, 2 to 3 x 2> ["v" = %y block, "out" = %p partial] cycles [485, 221] : !poplar.tensor<28xf32>, !poplar.tensor<3xf32>
// CHECK-NEXT:   [[V3:%[0-9]+]] = poplar.execute [[V2]]
// CHECK-NEXT:   [[V4:%[0-9]+]] = poplar.add_compute_set "combine"
// CHECK-NEXT:   poplar.add_vertices [[V4]] @total over <7 to 8 x 1> ["v" = %p whole, "out" = %total whole] cycles [245] : !poplar.tensor<3xf32>, !poplar.tensor<1xf32>
// CHECK-NEXT:   [[V5:%[0-9]+]] = poplar.execute [[V4]]
// CHECK-NEXT:   [[V6:%[0-9]+]] = poplar.copy %t to %y : !poplar.tensor<28xf32>, !poplar.tensor<28xf32>
// CHECK-NEXT:   [[V7:%[0-9]+]] = poplar.slice %t[2 : 5] : !poplar.tensor<28xf32> -> !poplar.tensor<3xf32>
// CHECK-NEXT:   [[V8:%[0-9]+]] = poplar.flatten %m : !poplar.tensor<2x3xf32> -> !poplar.tensor<6xf32>
// CHECK-NEXT:   [[V9:%[0-9]+]] = poplar.slice [[V8]][3 : 6] : !poplar.tensor<6xf32> -> !poplar.tensor<3xf32>
// CHECK-NEXT:   [[V10:%[0-9]+]] = poplar.copy [[V7]] to [[V9]] : !poplar.tensor<3xf32>, !poplar.tensor<3xf32>
// CHECK-NEXT:   poplar.create_host_read "read_y" from %y : !poplar.tensor<28xf32>
// CHECK-NEXT:   poplar.create_host_read "read_m" from %m : !poplar.tensor<2x3xf32>
// CHECK-NEXT:   poplar.create_host_read "read_s" from %total : !poplar.tensor<1xf32>
// CHECK-NEXT:   [[V11:%[0-9]+]] = poplar.sequence([[V1]], [[V3]], [[V5]], [[V6]], [[V10]])
// CHECK-NEXT:   poplar.engine [[V11]]
// CHECK-NEXT: } run {
// CHECK-NEXT:   poplar.write_tensor "write_a" from "a"
// CHECK-NEXT:   poplar.write_tensor "write_x" from "x"
// CHECK-NEXT:   poplar.write_tensor "write_y" from "y"
// CHECK-NEXT:   poplar.run 0
// CHECK-NEXT:   poplar.read_tensor "read_y" to "y"
// CHECK-NEXT:   poplar.read_tensor "read_m" to "m"
// CHECK-NEXT:   poplar.read_tensor "read_s" to "s"
// CHECK-NEXT: }
