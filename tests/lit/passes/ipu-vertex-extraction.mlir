// RUN: ipu-opt %s -p ipu-vertex-extraction | filecheck %s

// Each tiled map becomes a codelet and a compute set holding one ipu.vertices over the
// map's tile map, whatever the tile count. The codelet has one field per tensor: the
// scalar a is a scalar input (memref<f32>), x a vector input, y is read and written
// (inout), __tmp0 only written (output; field names drop DaCe's `__`). Its body is the
// worker's share of the points: n is the length of the first `block` field, the loop
// runs i = worker, worker + workers, ... < n. The load of the whole scalar, and the
// product that depends only on it, are hoisted before the loop; the halo<0, 2> input is
// read at i + offset. The second map (no inputs, a scalar output written from its one
// point) gets a fresh codelet name, n = 1 and a store with no index.

ipu.graph "g" arch "ipu2" args ["a", "x", "y"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 6, 2 to 3 x 2> : memref<14xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 5, 2 to 3 x 2> : memref<12xf32>
  %t = ipu.variable "__tmp0" mapping <0 to 2 x 5, 2 to 3 x 2> : memref<12xf32>
  %k = ipu.variable "k" mapping <5 to 6 x 1> : memref<i32>
  ipu.from_host %a : memref<f32>
  ipu.from_host %x : memref<14xf32>
  ipu.from_host %y : memref<12xf32>
  ipu.tiled_map "m" over <0 to 2 x 5, 2 to 3 x 2> ins(%a whole, %x halo<0, 2>, %y block : memref<f32>, memref<14xf32>, memref<12xf32>) outs(%y block, %t block : memref<12xf32>, memref<12xf32>) {
  ^bb0(%va: memref<f32>, %vx: memref<14xf32>, %vy: memref<12xf32>):
    %s = ipu.access %va[] : memref<f32>
    %s2 = arith.mulf %s, %s : f32
    %x0 = ipu.access %vx[0] : memref<14xf32>
    %x2 = ipu.access %vx[2] : memref<14xf32>
    %y0 = ipu.access %vy[0] : memref<12xf32>
    %sum = arith.addf %x0, %x2 : f32
    %r = arith.mulf %s2, %sum : f32
    %o = arith.addf %r, %y0 : f32
    ipu.yield %o, %r : f32, f32
  }
  ipu.tiled_map "m" over <5 to 6 x 1> ins() outs(%k whole : memref<i32>) {
    %c = arith.constant 7 : i32
    ipu.yield %c : i32
  }
  ipu.to_host %y : memref<12xf32>
}

// CHECK:      ipu.graph "g" arch "ipu2" args ["a", "x", "y"] {
// CHECK-NEXT:   [[A:%.*]] = ipu.variable "a"
// CHECK-NEXT:   [[X:%.*]] = ipu.variable "x"
// CHECK-NEXT:   [[Y:%.*]] = ipu.variable "y"
// CHECK-NEXT:   [[T:%.*]] = ipu.variable "__tmp0"
// CHECK-NEXT:   [[K:%.*]] = ipu.variable "k"
// CHECK-NEXT:   ipu.codelet @g_m([[FA:%.*]]: memref<f32> input "a", [[FX:%.*]]: memref<?xf32> input "x", [[FY:%.*]]: memref<?xf32> inout "y", [[FT:%.*]]: memref<?xf32> output "tmp0") {
// CHECK-NEXT:     [[ZERO:%.*]] = arith.constant 0 : index
// CHECK-NEXT:     [[N:%.*]] = memref.dim [[FY]], [[ZERO]] : memref<?xf32>
// CHECK-NEXT:     [[W:%.*]] = ipu.worker_id
// CHECK-NEXT:     [[NW:%.*]] = ipu.num_workers
// CHECK-NEXT:     [[S:%.*]] = memref.load [[FA]][] : memref<f32>
// CHECK-NEXT:     [[S2:%.*]] = arith.mulf [[S]], [[S]] : f32
// CHECK-NEXT:     [[TWO:%.*]] = arith.constant 2 : index
// CHECK-NEXT:     scf.for [[I:%.*]] = [[W]] to [[N]] step [[NW]] {
// CHECK-NEXT:       [[X0:%.*]] = memref.load [[FX]][[[I]]] : memref<?xf32>
// CHECK-NEXT:       [[I2:%.*]] = arith.addi [[I]], [[TWO]] : index
// CHECK-NEXT:       [[X2:%.*]] = memref.load [[FX]][[[I2]]] : memref<?xf32>
// CHECK-NEXT:       [[Y0:%.*]] = memref.load [[FY]][[[I]]] : memref<?xf32>
// CHECK-NEXT:       [[SUM:%.*]] = arith.addf [[X0]], [[X2]] : f32
// CHECK-NEXT:       [[R:%.*]] = arith.mulf [[S2]], [[SUM]] : f32
// CHECK-NEXT:       [[O:%.*]] = arith.addf [[R]], [[Y0]] : f32
// CHECK-NEXT:       memref.store [[O]], [[FY]][[[I]]] : memref<?xf32>
// CHECK-NEXT:       memref.store [[R]], [[FT]][[[I]]] : memref<?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.codelet @g_m_1([[FK:%.*]]: memref<i32> output "k") {
// CHECK-NEXT:     [[ONE:%.*]] = arith.constant 1 : index
// CHECK-NEXT:     [[W:%.*]] = ipu.worker_id
// CHECK-NEXT:     [[NW:%.*]] = ipu.num_workers
// CHECK-NEXT:     [[C:%.*]] = arith.constant 7 : i32
// CHECK-NEXT:     scf.for [[I:%.*]] = [[W]] to [[ONE]] step [[NW]] {
// CHECK-NEXT:       memref.store [[C]], [[FK]][] : memref<i32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.from_host [[A]]
// CHECK-NEXT:   ipu.from_host [[X]]
// CHECK-NEXT:   ipu.from_host [[Y]]
// CHECK-NEXT:   ipu.compute_set "g_m" {
// CHECK-NEXT:     ipu.vertices @g_m over <0 to 2 x 5, 2 to 3 x 2> ([[A]] whole, [[X]] halo<0, 2>, [[Y]] block, [[T]] block : memref<f32>, memref<14xf32>, memref<12xf32>, memref<12xf32>)
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.compute_set "g_m_1" {
// CHECK-NEXT:     ipu.vertices @g_m_1 over <5 to 6 x 1> ([[K]] whole : memref<i32>)
// CHECK-NEXT:   }
// CHECK-NEXT:   ipu.to_host [[Y]]
// CHECK-NEXT: }
