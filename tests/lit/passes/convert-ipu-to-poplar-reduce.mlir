// RUN: ipu-opt %s -p convert-ipu-to-poplar | filecheck %s

// The fold codelets and compute sets of a three-level sum (ipu-vertex-extraction's
// output for tests/lit/passes/ipu-vertex-extraction-reduce.mlir) as Poplar calls: one
// compute set per level, executed in order; the partials<n> and columns<n> rules carry
// over; each run's estimate is the cost model's on the codelet: VERTEX_OVERHEAD (11) +
// 6 workers x (WORKER_OVERHEAD (18) + the busiest worker), as emitted. tree_vectors'
// 16-float blocks are 8 float2 (two for the busiest worker, each a load, an add and the
// loop decision: 233), its last block 6 float2 (one: 209).

ipu.graph "tree" arch "ipu2" args ["x", "s"] {
  %x = ipu.variable "x" mapping <0 to 3 x 16, 3 to 4 x 12> : memref<60xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  %p = ipu.variable "p" mapping <0 to 4 x 12> : memref<48xf32>
  %q = ipu.variable "q" mapping <0 to 2 x 6> : memref<12xf32>
  ipu.codelet @tree_vectors(%x_1: memref<?xf32> input "x", %p_1: memref<?xf32> output "p") {
    %0 = arith.constant 0 : index
    %n = memref.dim %x_1, %0 : memref<?xf32>
    %1 = arith.constant 2 : index
    %m = arith.divui %n, %1 : index
    %2 = arith.constant 1 : index
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    %3 = arith.constant 0.000000e+00 : f32
    %identity = vector.broadcast %3 : f32 to vector<2xf32>
    %total = scf.for %u = %worker to %m step %workers iter_args(%acc = %identity) -> (vector<2xf32>) {
      %first = arith.muli %u, %1 : index
      %4 = vector.load %x_1[%first] : memref<?xf32>, vector<2xf32>
      %5 = arith.addf %acc, %4 : vector<2xf32>
      scf.yield %5 : vector<2xf32>
    }
    %6 = arith.muli %worker, %1 : index
    vector.store %total, %p_1[%6] : memref<?xf32>, vector<2xf32>
    %7 = arith.addi %workers, %worker : index
    %8 = arith.constant 6 : index
    scf.for %slot = %7 to %8 step %workers {
      %9 = arith.muli %slot, %1 : index
      vector.store %identity, %p_1[%9] : memref<?xf32>, vector<2xf32>
    }
  }
  ipu.codelet @tree_scalars(%p_1: memref<?xf32> input "p", %q_1: memref<?xf32> output "q") {
    %0 = arith.constant 0 : index
    %n = memref.dim %p_1, %0 : memref<?xf32>
    %1 = arith.constant 1 : index
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    %2 = arith.constant 0.000000e+00 : f32
    %total = scf.for %i = %worker to %n step %workers iter_args(%acc = %2) -> (f32) {
      %3 = memref.load %p_1[%i] : memref<?xf32>
      %4 = arith.addf %acc, %3 : f32
      scf.yield %4 : f32
    }
    memref.store %total, %q_1[%worker] : memref<?xf32>
    %5 = arith.addi %workers, %worker : index
    %6 = arith.constant 6 : index
    scf.for %slot = %5 to %6 step %workers {
      %7 = arith.constant 0.000000e+00 : f32
      memref.store %7, %q_1[%slot] : memref<?xf32>
    }
  }
  ipu.codelet @tree_last(%q_1: memref<?xf32> input "q", %s_1: memref<f32> inout "s") {
    %0 = arith.constant 0 : index
    %n = memref.dim %q_1, %0 : memref<?xf32>
    %1 = arith.constant 12 : index
    %results = arith.divui %n, %1 : index
    %2 = arith.constant 1 : index
    %worker = ipu.worker_id
    %workers = ipu.num_workers
    scf.for %r = %worker to %results step %workers {
      %3 = memref.load %s_1[] : memref<f32>
      %total = scf.for %j = %0 to %1 step %2 iter_args(%acc = %3) -> (f32) {
        %4 = arith.muli %j, %results : index
        %i = arith.addi %r, %4 : index
        %5 = memref.load %q_1[%i] : memref<?xf32>
        %6 = arith.addf %acc, %5 : f32
        scf.yield %6 : f32
      }
      memref.store %total, %s_1[] : memref<f32>
    }
  }
  ipu.compute_set "tree_vectors" {
    ipu.vertices @tree_vectors over <0 to 3 x 16, 3 to 4 x 12> (%x block, %p partials<12> : memref<60xf32>, memref<48xf32>)
  }
  ipu.compute_set "tree_scalars" {
    ipu.vertices @tree_scalars over <0 to 2 x 24> (%p block, %q partials<6> : memref<48xf32>, memref<12xf32>)
  }
  ipu.compute_set "tree_last" {
    ipu.vertices @tree_last over <0 to 1 x 1> (%q columns<1>, %s whole : memref<12xf32>, memref<f32>)
  }
}

// CHECK:      poplar.codelet @tree_vectors(%x: memref<?xf32> input "x", %p: memref<?xf32> output "p") {
// CHECK:      poplar.codelet @tree_last(%q: memref<?xf32> input "q", %s: memref<f32> inout "s") {
// CHECK:      poplar.host_program @tree arch "ipu2" args ["x", "s"] : [memref<60xf32>, memref<f32>] build {
// CHECK:        %p = poplar.add_variable "p" : !poplar.tensor<48xf32>
// CHECK-NEXT:   poplar.map_tensor %p over <0 to 4 x 12> : !poplar.tensor<48xf32>
// CHECK:        [[CS0:%.*]] = poplar.add_compute_set "tree_vectors"
// CHECK-NEXT:   poplar.add_vertices [[CS0]] @tree_vectors over <0 to 3 x 16, 3 to 4 x 12> ["x" = %x block, "p" = %p partials<12>] cycles [233, 209] : !poplar.tensor<60xf32>, !poplar.tensor<48xf32>
// CHECK-NEXT:   [[R0:%.*]] = poplar.execute [[CS0]]
// CHECK-NEXT:   [[CS1:%.*]] = poplar.add_compute_set "tree_scalars"
// CHECK-NEXT:   poplar.add_vertices [[CS1]] @tree_scalars over <0 to 2 x 24> ["p" = %p block, "q" = %q partials<6>] cycles [263] : !poplar.tensor<48xf32>, !poplar.tensor<12xf32>
// CHECK-NEXT:   [[R1:%.*]] = poplar.execute [[CS1]]
// CHECK-NEXT:   [[CS2:%.*]] = poplar.add_compute_set "tree_last"
// CHECK-NEXT:   poplar.add_vertices [[CS2]] @tree_last over <0 to 1 x 1> ["q" = %q columns<1>, "s" = %s whole] cycles [329] : !poplar.tensor<12xf32>, !poplar.tensor<f32>
// CHECK-NEXT:   [[R2:%.*]] = poplar.execute [[CS2]]
// CHECK-NEXT:   {{%.*}} = poplar.sequence([[R0]], [[R1]], [[R2]])
