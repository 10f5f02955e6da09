// RUN: ipu-opt %s --split-input-file -p convert-ipu-to-poplar | filecheck %s

// A placement ipu-select-vertices gave to poplibs becomes its call in place of its
// compute set: popops::scaledAddTo(y, x, a) for saxpy, mapWithOutput(ADD, x, y, z),
// cast(x, h), mapInPlace(SUBTRACT, y, x), the operands in the order of the decision's
// `fields`, the decision kept on the call; their codelets, which no vertex places, go.
// A placement that stays our codelet (the chain w = x * y + z) keeps its add_vertices,
// the decision on it.

// CHECK-NOT:  poplar.codelet @saxpy_Mult_map
// CHECK:      %0 = poplar.scaled_add "saxpy_Mult_map" %y, %x, %a {vertex_choice = {impl = "poplibs", call = "scaledAddTo", {{.*}}} : !poplar.tensor<100xf32>, !poplar.tensor<100xf32>, !poplar.tensor<f32>
// CHECK-NEXT: poplar.create_host_read "read_y" from %y
// CHECK-NEXT: %1 = poplar.sequence(%0)

// CHECK-NOT:  poplar.codelet @add_Add_map
// CHECK:      %0 = poplar.map "add_Add_map" "ADD"(%x, %y) to %z {vertex_choice = {impl = "poplibs", call = "mapWithOutput", {{.*}}} : !poplar.tensor<12xf32>, !poplar.tensor<12xf32> -> !poplar.tensor<12xf32>

// CHECK-NOT:  poplar.codelet @tohalf_tohalf_23
// CHECK:      %0 = poplar.cast "tohalf_tohalf_23" %x to %h {vertex_choice = {impl = "poplibs", call = "cast", {{.*}}} : !poplar.tensor<12xf32>, !poplar.tensor<12xf16>

// CHECK:      poplar.codelet @fma3_Mult_map(
// CHECK:      %0 = poplar.add_compute_set "fma3_Mult_map"
// CHECK-NEXT: poplar.add_vertices %0 @fma3_Mult_map over <0 to 6 x 2> ["x" = %x block, "y" = %y block, "z" = %z block, "w" = %w block] cycles [209] {vertex_choice = {impl = "codelet", call = "map", {{.*}}}
// CHECK-NEXT: poplar.execute %0

// CHECK-NOT:  poplar.codelet @accumulate_Sub_map
// CHECK:      %0 = poplar.map "accumulate_Sub_map" "SUBTRACT"(%y, %x) to %y {vertex_choice = {impl = "poplibs", call = "mapInPlace", {{.*}}} : !poplar.tensor<12xf32>, !poplar.tensor<12xf32> -> !poplar.tensor<12xf32>

ipu.graph "saxpy" arch "ipu2" args ["a", "x", "y"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 50 x 2> : memref<100xf32>
  %y = ipu.variable "y" mapping <0 to 50 x 2> : memref<100xf32>
  ipu.codelet @saxpy_Mult_map(%a_1: memref<f32> input "a", %x_1: memref<?xf32> input "x", %y_1: memref<?xf32> inout "y") {
    %0 = arith.constant 0 : index
    %n = memref.dim %x_1, %0 : memref<?xf32>
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    %1 = memref.load %a_1[] : memref<f32>
    %2 = arith.constant 2 : index
    %units = arith.divui %n, %2 : index
    %a_v = vector.broadcast %1 : f32 to vector<2xf32>
    scf.for %u = %worker to %units step %workers {
      %first = arith.muli %u, %2 : index
      %3 = vector.load %x_1[%first] : memref<?xf32>, vector<2xf32>
      %4 = vector.load %y_1[%first] : memref<?xf32>, vector<2xf32>
      %5 = vector.fma %a_v, %3, %4 : vector<2xf32>
      vector.store %5, %y_1[%first] : memref<?xf32>, vector<2xf32>
    }
  }
  ipu.from_host %a : memref<f32>
  ipu.from_host %x : memref<100xf32>
  ipu.from_host %y : memref<100xf32>
  ipu.compute_set "saxpy_Mult_map" {
    ipu.vertices @saxpy_Mult_map over <0 to 50 x 2> (%a whole, %x block, %y block : memref<f32>, memref<100xf32>, memref<100xf32>) {vertex_choice = {impl = "poplibs", call = "scaledAddTo", codelet_cycles = 215 : i64, poplibs_cycles = 171 : i64, fields = array<i64: 2, 1, 0>}}
  }
  ipu.to_host %y : memref<100xf32>
}

// -----

ipu.graph "add" arch "ipu2" args ["x", "y", "z"] {
  %x = ipu.variable "x" mapping <0 to 6 x 2> : memref<12xf32>
  %y = ipu.variable "y" mapping <0 to 6 x 2> : memref<12xf32>
  %z = ipu.variable "z" mapping <0 to 6 x 2> : memref<12xf32>
  ipu.codelet @add_Add_map(%x_1: memref<?xf32> input "x", %y_1: memref<?xf32> input "y", %z_1: memref<?xf32> output "z") {
    %0 = arith.constant 0 : index
    %n = memref.dim %x_1, %0 : memref<?xf32>
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    %1 = arith.constant 2 : index
    %units = arith.divui %n, %1 : index
    scf.for %u = %worker to %units step %workers {
      %first = arith.muli %u, %1 : index
      %2 = vector.load %x_1[%first] : memref<?xf32>, vector<2xf32>
      %3 = vector.load %y_1[%first] : memref<?xf32>, vector<2xf32>
      %4 = arith.addf %2, %3 : vector<2xf32>
      vector.store %4, %z_1[%first] : memref<?xf32>, vector<2xf32>
    }
  }
  ipu.from_host %x : memref<12xf32>
  ipu.from_host %y : memref<12xf32>
  ipu.compute_set "add_Add_map" {
    ipu.vertices @add_Add_map over <0 to 6 x 2> (%x block, %y block, %z block : memref<12xf32>, memref<12xf32>, memref<12xf32>) {vertex_choice = {impl = "poplibs", call = "mapWithOutput", codelet_cycles = 167 : i64, poplibs_cycles = 203 : i64, ops = ["ADD"], fields = array<i64: 0, 1, 2>}}
  }
  ipu.to_host %z : memref<12xf32>
}

// -----

ipu.graph "tohalf" arch "ipu2" args ["x", "h"] {
  %x = ipu.variable "x" mapping <0 to 3 x 4> : memref<12xf32>
  %h = ipu.variable "h" mapping <0 to 3 x 4> : memref<12xf16>
  ipu.codelet @tohalf_tohalf_23(%x_1: memref<?xf32> input "x", %h_1: memref<?xf16> output "h") {
    %0 = arith.constant 0 : index
    %n = memref.dim %x_1, %0 : memref<?xf32>
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    %1 = arith.constant 2 : index
    %units = arith.divui %n, %1 : index
    %2 = arith.constant 1 : index
    scf.for %u = %worker to %units step %workers {
      %first = arith.muli %u, %1 : index
      scf.for %k = %0 to %1 step %2 {
        %i = arith.addi %first, %k : index
        %3 = memref.load %x_1[%i] : memref<?xf32>
        %4 = arith.truncf %3 : f32 to f16
        memref.store %4, %h_1[%i] : memref<?xf16>
      }
    }
  }
  ipu.from_host %x : memref<12xf32>
  ipu.compute_set "tohalf_tohalf_23" {
    ipu.vertices @tohalf_tohalf_23 over <0 to 3 x 4> (%x block, %h block : memref<12xf32>, memref<12xf16>) {vertex_choice = {impl = "poplibs", call = "cast", codelet_cycles = 209 : i64, poplibs_cycles = 258 : i64, fields = array<i64: 0, 1>}}
  }
  ipu.to_host %h : memref<12xf16>
}

// -----

ipu.graph "fma3" arch "ipu2" args ["x", "y", "z", "w"] {
  %x = ipu.variable "x" mapping <0 to 6 x 2> : memref<12xf32>
  %y = ipu.variable "y" mapping <0 to 6 x 2> : memref<12xf32>
  %z = ipu.variable "z" mapping <0 to 6 x 2> : memref<12xf32>
  %w = ipu.variable "w" mapping <0 to 6 x 2> : memref<12xf32>
  ipu.codelet @fma3_Mult_map(%x_1: memref<?xf32> input "x", %y_1: memref<?xf32> input "y", %z_1: memref<?xf32> input "z", %w_1: memref<?xf32> output "w") {
    %0 = arith.constant 0 : index
    %n = memref.dim %x_1, %0 : memref<?xf32>
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    %1 = arith.constant 2 : index
    %units = arith.divui %n, %1 : index
    scf.for %u = %worker to %units step %workers {
      %first = arith.muli %u, %1 : index
      %2 = vector.load %x_1[%first] : memref<?xf32>, vector<2xf32>
      %3 = vector.load %y_1[%first] : memref<?xf32>, vector<2xf32>
      %4 = arith.mulf %2, %3 : vector<2xf32>
      %5 = vector.load %z_1[%first] : memref<?xf32>, vector<2xf32>
      %6 = arith.addf %4, %5 : vector<2xf32>
      vector.store %6, %w_1[%first] : memref<?xf32>, vector<2xf32>
    }
  }
  ipu.from_host %x : memref<12xf32>
  ipu.from_host %y : memref<12xf32>
  ipu.from_host %z : memref<12xf32>
  ipu.compute_set "fma3_Mult_map" {
    ipu.vertices @fma3_Mult_map over <0 to 6 x 2> (%x block, %y block, %z block, %w block : memref<12xf32>, memref<12xf32>, memref<12xf32>, memref<12xf32>) {vertex_choice = {impl = "codelet", call = "map", codelet_cycles = 209 : i64, poplibs_cycles = 556 : i64, ops = ["MULTIPLY", "ADD"]}}
  }
  ipu.to_host %w : memref<12xf32>
}

// -----

ipu.graph "accumulate" arch "ipu2" args ["x", "y"] {
  %x = ipu.variable "x" mapping <0 to 6 x 2> : memref<12xf32>
  %y = ipu.variable "y" mapping <0 to 6 x 2> : memref<12xf32>
  ipu.codelet @accumulate_Sub_map(%y_1: memref<?xf32> inout "y", %x_1: memref<?xf32> input "x") {
    %0 = arith.constant 0 : index
    %n = memref.dim %y_1, %0 : memref<?xf32>
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    %1 = arith.constant 2 : index
    %units = arith.divui %n, %1 : index
    scf.for %u = %worker to %units step %workers {
      %first = arith.muli %u, %1 : index
      %2 = vector.load %y_1[%first] : memref<?xf32>, vector<2xf32>
      %3 = vector.load %x_1[%first] : memref<?xf32>, vector<2xf32>
      %4 = arith.subf %2, %3 : vector<2xf32>
      vector.store %4, %y_1[%first] : memref<?xf32>, vector<2xf32>
    }
  }
  ipu.from_host %x : memref<12xf32>
  ipu.from_host %y : memref<12xf32>
  ipu.compute_set "accumulate_Sub_map" {
    ipu.vertices @accumulate_Sub_map over <0 to 6 x 2> (%y block, %x block : memref<12xf32>, memref<12xf32>) {vertex_choice = {impl = "poplibs", call = "mapInPlace", codelet_cycles = 167 : i64, poplibs_cycles = 377 : i64, ops = ["SUBTRACT"], fields = array<i64: 0, 1>}}
  }
  ipu.to_host %y : memref<12xf32>
}
