// RUN: ipu-opt %s -p ipu-vertex-extraction --split-input-file | filecheck %s

// Tiled reductions become fold codelets placed by one ipu.vertices each, in a compute
// set of their own (passes/vertex_extraction_reductions.py).

// A whole-array sum in three levels. `vectors` sees each block as rows of one float2
// (fold <1 x ? x 2>): worker w adds vectors w, w + 6, ... (vector.load, addf on
// vector<2xf32>) and stores its float2 of partial results at 2 w (partials<12>: 6
// workers x 2 lanes); slots of workers that do not run (on SDK 2 style vertices) get the
// identity. `scalars` does the same a float at a time (partials<6>). `last` accumulates
// into s: the one result starts from s's value (inout) and folds its column of 12.

ipu.graph "tree" arch "ipu2" args ["x", "s"] {
  %x = ipu.variable "x" mapping <0 to 3 x 16, 3 to 4 x 12> : memref<60xf32>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  %p = ipu.variable "p" mapping <0 to 4 x 12> : memref<48xf32>
  %q = ipu.variable "q" mapping <0 to 2 x 6> : memref<12xf32>
  ipu.tiled_reduce "vectors" add over <0 to 3 x 16, 3 to 4 x 12> fold <1 x ? x 2> split folded ins(%x block : memref<60xf32>) outs(%p partials<12> : memref<48xf32>) {
  ^bb0(%x_1: memref<60xf32>):
    %0 = ipu.access %x_1[0] : memref<60xf32>
    ipu.yield %0 : f32
  }
  ipu.tiled_reduce "scalars" add over <0 to 2 x 24> fold <1 x ? x 1> split folded ins(%p block : memref<48xf32>) outs(%q partials<6> : memref<12xf32>) {
  ^bb0(%p_1: memref<48xf32>):
    %0 = ipu.access %p_1[0] : memref<48xf32>
    ipu.yield %0 : f32
  }
  ipu.tiled_reduce "last" add over <0 to 1 x 1> fold <1 x 12 x ?> split outputs accumulate ins(%q columns<1> : memref<12xf32>) outs(%s whole : memref<f32>) {
  ^bb0(%q_1: memref<12xf32>):
    %0 = ipu.access %q_1[0] : memref<12xf32>
    ipu.yield %0 : f32
  }
}

// CHECK-LABEL: ipu.graph "tree" arch "ipu2" args ["x", "s"] {
// CHECK:        ipu.codelet @tree_vectors(%x_1: memref<?xf32> input "x", %p_1: memref<?xf32> output "p") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %x_1, %0 : memref<?xf32>
// CHECK-NEXT:     %1 = arith.constant 2 : index
// CHECK-NEXT:     %m = arith.divui %n, %1 : index
// CHECK-NEXT:     %2 = arith.constant 1 : index
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     %3 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %identity = vector.broadcast %3 : f32 to vector<2xf32>
// CHECK-NEXT:     %total = scf.for %u = %worker to %m step %workers iter_args(%acc = %identity) -> (vector<2xf32>) {
// CHECK-NEXT:       %first = arith.muli %u, %1 : index
// CHECK-NEXT:       %4 = vector.load %x_1[%first] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:       %5 = arith.addf %acc, %4 : vector<2xf32>
// CHECK-NEXT:       scf.yield %5 : vector<2xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %6 = arith.muli %worker, %1 : index
// CHECK-NEXT:     vector.store %total, %p_1[%6] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:     %7 = arith.addi %workers, %worker : index
// CHECK-NEXT:     %8 = arith.constant 6 : index
// CHECK-NEXT:     scf.for %slot = %7 to %8 step %workers {
// CHECK-NEXT:       %9 = arith.muli %slot, %1 : index
// CHECK-NEXT:       vector.store %identity, %p_1[%9] : memref<?xf32>, vector<2xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK:        ipu.codelet @tree_scalars(%p_1: memref<?xf32> input "p", %q_1: memref<?xf32> output "q") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %p_1, %0 : memref<?xf32>
// CHECK-NEXT:     %1 = arith.constant 1 : index
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     %2 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %total = scf.for %i = %worker to %n step %workers iter_args(%acc = %2) -> (f32) {
// CHECK-NEXT:       %3 = memref.load %p_1[%i] : memref<?xf32>
// CHECK-NEXT:       %4 = arith.addf %acc, %3 : f32
// CHECK-NEXT:       scf.yield %4 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     memref.store %total, %q_1[%worker] : memref<?xf32>
// CHECK-NEXT:     %5 = arith.addi %workers, %worker : index
// CHECK-NEXT:     %6 = arith.constant 6 : index
// CHECK-NEXT:     scf.for %slot = %5 to %6 step %workers {
// CHECK-NEXT:       %7 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:       memref.store %7, %q_1[%slot] : memref<?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK:        ipu.codelet @tree_last(%q_1: memref<?xf32> input "q", %s_1: memref<f32> inout "s") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %q_1, %0 : memref<?xf32>
// CHECK-NEXT:     %1 = arith.constant 12 : index
// CHECK-NEXT:     %results = arith.divui %n, %1 : index
// CHECK-NEXT:     %2 = arith.constant 1 : index
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     scf.for %r = %worker to %results step %workers {
// CHECK-NEXT:       %3 = memref.load %s_1[] : memref<f32>
// CHECK-NEXT:       %total = scf.for %j = %0 to %1 step %2 iter_args(%acc = %3) -> (f32) {
// CHECK-NEXT:         %4 = arith.muli %j, %results : index
// CHECK-NEXT:         %i = arith.addi %r, %4 : index
// CHECK-NEXT:         %5 = memref.load %q_1[%i] : memref<?xf32>
// CHECK-NEXT:         %6 = arith.addf %acc, %5 : f32
// CHECK-NEXT:         scf.yield %6 : f32
// CHECK-NEXT:       }
// CHECK-NEXT:       memref.store %total, %s_1[] : memref<f32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK:        ipu.compute_set "tree_vectors" {
// CHECK-NEXT:     ipu.vertices @tree_vectors over <0 to 3 x 16, 3 to 4 x 12> (%x block, %p partials<12> : memref<60xf32>, memref<48xf32>)
// CHECK-NEXT:   }
// CHECK:        ipu.compute_set "tree_scalars" {
// CHECK-NEXT:     ipu.vertices @tree_scalars over <0 to 2 x 24> (%p block, %q partials<6> : memref<48xf32>, memref<12xf32>)
// CHECK-NEXT:   }
// CHECK:        ipu.compute_set "tree_last" {
// CHECK-NEXT:     ipu.vertices @tree_last over <0 to 1 x 1> (%q columns<1>, %s whole : memref<12xf32>, memref<f32>)
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Row minima of an int16 matrix scaled by a scalar: the scalar's load and what depends
// only on it are hoisted; each result folds in i32 (accumulator_type) from the value r
// holds, and is truncated on store; workers take whole 32-bit words of results (2 int16),
// so no two workers store into one word.

ipu.graph "rowmin" arch "ipu2" args ["A", "a", "r"] {
  %A = ipu.variable "A" mapping <0 to 7 x 4, 7 to 8 x 2> : memref<6x5xi16>
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<i16>
  %r = ipu.variable "r" mapping <0 to 1 x 4, 1 to 2 x 2> : memref<6xi16>
  ipu.tiled_reduce "m" min over <0 to 1 x 4, 1 to 2 x 2> fold <? x 5 x 1> split outputs accumulate ins(%A rows<5>, %a whole : memref<6x5xi16>, memref<i16>) outs(%r block : memref<6xi16>) {
  ^bb0(%A_1: memref<6x5xi16>, %a_1: memref<i16>):
    %0 = ipu.access %A_1[0, 0] : memref<6x5xi16>
    %1 = ipu.access %a_1[] : memref<i16>
    %2 = arith.addi %1, %1 : i16
    %3 = arith.muli %0, %2 : i16
    ipu.yield %3 : i16
  }
}

// CHECK-LABEL: ipu.graph "rowmin" arch "ipu2" args ["A", "a", "r"] {
// CHECK:        ipu.codelet @rowmin_m(%A_1: memref<?xi16> input "A", %a_1: memref<i16> input "a", %r_1: memref<?xi16> inout "r") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %A_1, %0 : memref<?xi16>
// CHECK-NEXT:     %1 = arith.constant 5 : index
// CHECK-NEXT:     %results = arith.divui %n, %1 : index
// CHECK-NEXT:     %2 = arith.constant 1 : index
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     %3 = memref.load %a_1[] : memref<i16>
// CHECK-NEXT:     %4 = arith.addi %3, %3 : i16
// CHECK-NEXT:     %5 = arith.constant 2 : index
// CHECK-NEXT:     %units = arith.ceildivui %results, %5 : index
// CHECK-NEXT:     scf.for %u = %worker to %units step %workers {
// CHECK-NEXT:       %6 = arith.muli %u, %5 : index
// CHECK-NEXT:       scf.for %7 = %0 to %5 step %2 {
// CHECK-NEXT:         %r_2 = arith.addi %6, %7 : index
// CHECK-NEXT:         %8 = arith.cmpi ult, %r_2, %results : index
// CHECK-NEXT:         scf.if %8 {
// CHECK-NEXT:           %9 = memref.load %r_1[%r_2] : memref<?xi16>
// CHECK-NEXT:           %10 = arith.extsi %9 : i16 to i32
// CHECK-NEXT:           %11 = arith.muli %r_2, %1 : index
// CHECK-NEXT:           %total = scf.for %j = %0 to %1 step %2 iter_args(%acc = %10) -> (i32) {
// CHECK-NEXT:             %i = arith.addi %11, %j : index
// CHECK-NEXT:             %12 = memref.load %A_1[%i] : memref<?xi16>
// CHECK-NEXT:             %13 = arith.muli %12, %4 : i16
// CHECK-NEXT:             %14 = arith.extsi %13 : i16 to i32
// CHECK-NEXT:             %15 = arith.minsi %acc, %14 : i32
// CHECK-NEXT:             scf.yield %15 : i32
// CHECK-NEXT:           }
// CHECK-NEXT:           %16 = arith.trunci %total : i32 to i16
// CHECK-NEXT:           memref.store %16, %r_1[%r_2] : memref<?xi16>
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK:        ipu.compute_set "rowmin_m" {
// CHECK-NEXT:     ipu.vertices @rowmin_m over <0 to 1 x 4, 1 to 2 x 2> (%A rows<5>, %a whole, %r block : memref<6x5xi16>, memref<i16>, memref<6xi16>)
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A float16 sum accumulates in float32 (extf each value, truncf the result).

ipu.graph "half" arch "ipu2" args ["x", "s"] {
  %x = ipu.variable "x" mapping <0 to 4 x 8> : memref<32xf16>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<1xf16>
  ipu.tiled_reduce "m" add over <0 to 1 x 1> fold <1 x 32 x ?> split outputs accumulate ins(%x columns<1> : memref<32xf16>) outs(%s block : memref<1xf16>) {
  ^bb0(%x_1: memref<32xf16>):
    %0 = ipu.access %x_1[0] : memref<32xf16>
    ipu.yield %0 : f16
  }
}

// CHECK-LABEL: ipu.graph "half" arch "ipu2" args ["x", "s"] {
// CHECK:        ipu.codelet @half_m(%x_1: memref<?xf16> input "x", %s_1: memref<?xf16> inout "s") {
// CHECK-NEXT:     %0 = arith.constant 0 : index
// CHECK-NEXT:     %n = memref.dim %x_1, %0 : memref<?xf16>
// CHECK-NEXT:     %1 = arith.constant 32 : index
// CHECK-NEXT:     %results = arith.divui %n, %1 : index
// CHECK-NEXT:     %2 = arith.constant 1 : index
// CHECK-NEXT:     %worker = ipu.worker_id
// CHECK-NEXT:     %workers = ipu.num_workers
// CHECK-NEXT:     %3 = arith.constant 2 : index
// CHECK-NEXT:     %units = arith.ceildivui %results, %3 : index
// CHECK-NEXT:     scf.for %u = %worker to %units step %workers {
// CHECK-NEXT:       %4 = arith.muli %u, %3 : index
// CHECK-NEXT:       scf.for %5 = %0 to %3 step %2 {
// CHECK-NEXT:         %r = arith.addi %4, %5 : index
// CHECK-NEXT:         %6 = arith.cmpi ult, %r, %results : index
// CHECK-NEXT:         scf.if %6 {
// CHECK-NEXT:           %7 = memref.load %s_1[%r] : memref<?xf16>
// CHECK-NEXT:           %8 = arith.extf %7 : f16 to f32
// CHECK-NEXT:           %total = scf.for %j = %0 to %1 step %2 iter_args(%acc = %8) -> (f32) {
// CHECK-NEXT:             %9 = arith.muli %j, %results : index
// CHECK-NEXT:             %i = arith.addi %r, %9 : index
// CHECK-NEXT:             %10 = memref.load %x_1[%i] : memref<?xf16>
// CHECK-NEXT:             %11 = arith.extf %10 : f16 to f32
// CHECK-NEXT:             %12 = arith.addf %acc, %11 : f32
// CHECK-NEXT:             scf.yield %12 : f32
// CHECK-NEXT:           }
// CHECK-NEXT:           %13 = arith.truncf %total : f32 to f16
// CHECK-NEXT:           memref.store %13, %s_1[%r] : memref<?xf16>
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK:        ipu.compute_set "half_m" {
// CHECK-NEXT:     ipu.vertices @half_m over <0 to 1 x 1> (%x columns<1>, %s block : memref<32xf16>, memref<1xf16>)
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// An unsigned maximum: arith computes on signless integers, so each uint16 is cast to i16
// and extended as unsigned (extui) to i32, compared with maxui, and cast back on store.

ipu.graph "umax" arch "ipu2" args ["x", "s"] {
  %x = ipu.variable "x" mapping <0 to 2 x 8> : memref<16xui16>
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<ui16>
  ipu.tiled_reduce "m" max over <0 to 1 x 1> fold <1 x 16 x ?> split outputs accumulate ins(%x columns<1> : memref<16xui16>) outs(%s whole : memref<ui16>) {
  ^bb0(%x_1: memref<16xui16>):
    %0 = ipu.access %x_1[0] : memref<16xui16>
    ipu.yield %0 : ui16
  }
}

// CHECK-LABEL: ipu.graph "umax"
// CHECK:         %3 = memref.load %s_1[] : memref<ui16>
// CHECK-NEXT:    %4 = builtin.unrealized_conversion_cast %3 : ui16 to i16
// CHECK-NEXT:    %5 = arith.extui %4 : i16 to i32
// CHECK-NEXT:    %total = scf.for %j = %0 to %1 step %2 iter_args(%acc = %5) -> (i32) {
// CHECK:           %7 = memref.load %x_1[%i] : memref<?xui16>
// CHECK-NEXT:      %8 = builtin.unrealized_conversion_cast %7 : ui16 to i16
// CHECK-NEXT:      %9 = arith.extui %8 : i16 to i32
// CHECK-NEXT:      %10 = arith.maxui %acc, %9 : i32
// CHECK-NEXT:      scf.yield %10 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %11 = arith.trunci %total : i32 to i16
// CHECK-NEXT:    %12 = builtin.unrealized_conversion_cast %11 : i16 to ui16
// CHECK-NEXT:    memref.store %12, %s_1[] : memref<ui16>
