// RUN: ipu-opt %s --split-input-file -p ipu-select-vertices | filecheck %s
// RUN: ipu-opt %s --split-input-file -p 'ipu-select-vertices{prefer=codelet}' | filecheck %s --check-prefix=CODELET
// RUN: ipu-opt %s --split-input-file -p 'ipu-select-vertices{prefer=poplibs}' | filecheck %s --check-prefix=POPLIBS

// Each placement whose codelet does one poplibs call's work gets `vertex_choice`: the
// call, its operands (`fields`, positions in the placement, in the call's order), our
// codelet's estimate (cost_model.VertexCost of its body) and poplibs' (its estimator
// for the vertex the call uses, ipu_lower/poplibs_estimates.py), both for the busiest
// tile, and the implementation: the cheaper under auto, the forced one otherwise. A chain
// of ops is priced as poplibs would run it, one call per op and a sync between them, and
// stays our codelet under every preference. Nothing is recorded for work poplibs has no
// vertex for.

// saxpy, y = a * x + y over 100 floats, 2 per tile: the fma of the scalar a (field 0)
// and x (field 1) into y (field 2) is popops::scaledAddTo(y, x, a). ScaledAddSupervisor
// for 2 floats: 21 + 11 + 7 + 12 + 6 supervisor, then per worker 15 + 2 + 1 and the one
// that takes the leftover vector 1 more: 57 + 6 * 19 = 171 cycles, against 215 for the
// codelet: poplibs under auto.
// CHECK:      ipu.vertices @saxpy_Mult_map {{.*}} {vertex_choice = {impl = "poplibs", call = "scaledAddTo", codelet_cycles = 215 : i64, poplibs_cycles = 171 : i64, fields = array<i64: 2, 1, 0>}}
// CODELET:    ipu.vertices @saxpy_Mult_map {{.*}} {vertex_choice = {impl = "codelet", call = "scaledAddTo", codelet_cycles = 215 : i64, poplibs_cycles = 171 : i64, fields = array<i64: 2, 1, 0>}}
// POPLIBS:    ipu.vertices @saxpy_Mult_map {{.*}} {vertex_choice = {impl = "poplibs", call = "scaledAddTo", codelet_cycles = 215 : i64, poplibs_cycles = 171 : i64, fields = array<i64: 2, 1, 0>}}

// z = x + y: mapWithOutput(ADD, x, y, z), BinaryOp1D: 11 + 6 * (29 + 1 * (1 + 2)) = 203.
// CHECK:      ipu.vertices @add_Add_map {{.*}} {vertex_choice = {impl = "codelet", call = "mapWithOutput", codelet_cycles = 197 : i64, poplibs_cycles = 203 : i64, ops = ["ADD"], fields = array<i64: 0, 1, 2>}}
// CODELET:    ipu.vertices @add_Add_map {{.*}} {vertex_choice = {impl = "codelet"
// POPLIBS:    ipu.vertices @add_Add_map {{.*}} {vertex_choice = {impl = "poplibs"

// h = x as float16, 4 per tile: popops::cast(x, h), Cast1D: 12 + 6 * (19 + 2 * 0 + 2
// remainder checks + 2 for the one element + 18) = 258.
// CHECK:      ipu.vertices @tohalf_tohalf_23 {{.*}} {vertex_choice = {impl = "codelet", call = "cast", codelet_cycles = 233 : i64, poplibs_cycles = 258 : i64, fields = array<i64: 0, 1>}}
// CODELET:    ipu.vertices @tohalf_tohalf_23 {{.*}} {vertex_choice = {impl = "codelet"
// POPLIBS:    ipu.vertices @tohalf_tohalf_23 {{.*}} {vertex_choice = {impl = "poplibs"

// w = x * y + z: poplibs would run MULTIPLY then ADD, two BinaryOp1D (203 each) and a
// sync (150): 556 against 209 for the fused codelet, which reads each input once.
// CHECK:      ipu.vertices @fma3_Mult_map {{.*}} {vertex_choice = {impl = "codelet", call = "map", codelet_cycles = 209 : i64, poplibs_cycles = 556 : i64, ops = ["MULTIPLY", "ADD"]}}
// CODELET:    ipu.vertices @fma3_Mult_map {{.*}} {vertex_choice = {impl = "codelet"
// POPLIBS:    ipu.vertices @fma3_Mult_map {{.*}} {vertex_choice = {impl = "codelet"

// y = y - x in place: mapInPlace(SUBTRACT, y, x), BinaryOp1DInPlace: 11 + 6 * (58 + 3) = 377.
// CHECK:      ipu.vertices @accumulate_Sub_map {{.*}} {vertex_choice = {impl = "codelet", call = "mapInPlace", codelet_cycles = 197 : i64, poplibs_cycles = 377 : i64, ops = ["SUBTRACT"], fields = array<i64: 0, 1>}}
// CODELET:    ipu.vertices @accumulate_Sub_map {{.*}} {vertex_choice = {impl = "codelet"
// POPLIBS:    ipu.vertices @accumulate_Sub_map {{.*}} {vertex_choice = {impl = "poplibs"

// z[i] = exp(x[i + 1]) reads x away from the stored index: no poplibs vertex, no choice.
// CHECK:      ipu.vertices @shift_map over <0 to 6 x 2> (%x halo<0, 1>, %z block : memref<13xf32>, memref<12xf32>){{$}}
// CODELET:    ipu.vertices @shift_map over <0 to 6 x 2> (%x halo<0, 1>, %z block : memref<13xf32>, memref<12xf32>){{$}}
// POPLIBS:    ipu.vertices @shift_map over <0 to 6 x 2> (%x halo<0, 1>, %z block : memref<13xf32>, memref<12xf32>){{$}}

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
    ipu.vertices @saxpy_Mult_map over <0 to 50 x 2> (%a whole, %x block, %y block : memref<f32>, memref<100xf32>, memref<100xf32>)
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
    ipu.vertices @add_Add_map over <0 to 6 x 2> (%x block, %y block, %z block : memref<12xf32>, memref<12xf32>, memref<12xf32>)
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
    ipu.vertices @tohalf_tohalf_23 over <0 to 3 x 4> (%x block, %h block : memref<12xf32>, memref<12xf16>)
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
    ipu.vertices @fma3_Mult_map over <0 to 6 x 2> (%x block, %y block, %z block, %w block : memref<12xf32>, memref<12xf32>, memref<12xf32>, memref<12xf32>)
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
    ipu.vertices @accumulate_Sub_map over <0 to 6 x 2> (%y block, %x block : memref<12xf32>, memref<12xf32>)
  }
  ipu.to_host %y : memref<12xf32>
}

// -----

ipu.graph "shift" arch "ipu2" args ["x", "z"] {
  %x = ipu.variable "x" mapping <0 to 6 x 2, 6 to 7 x 1> : memref<13xf32>
  %z = ipu.variable "z" mapping <0 to 6 x 2> : memref<12xf32>
  ipu.codelet @shift_map(%x_1: memref<?xf32> input "x", %z_1: memref<?xf32> output "z") {
    %0 = arith.constant 0 : index
    %1 = arith.constant 1 : index
    %n = memref.dim %z_1, %0 : memref<?xf32>
    scf.for %i = %0 to %n step %1 {
      %j = arith.addi %i, %1 : index
      %v = memref.load %x_1[%j] : memref<?xf32>
      %e = math.exp %v : f32
      memref.store %e, %z_1[%i] : memref<?xf32>
    }
  }
  ipu.from_host %x : memref<13xf32>
  ipu.compute_set "shift" {
    ipu.vertices @shift_map over <0 to 6 x 2> (%x halo<0, 1>, %z block : memref<13xf32>, memref<12xf32>)
  }
  ipu.to_host %z : memref<12xf32>
}
