// REQUIRES: build
// Two placements in one compute set write the same elements: the emulator reports the race.
// RUN: rm -rf %t && ipu-opt %s -p convert-ipu-to-poplar -t poplar-cpp -o %t/racy
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.ones(4, np.float32))"
// RUN: not ipu-run %t/racy --arg x=%t/x.npy 2>&1 | filecheck %s

// CHECK: ipu-run: error: {{.*}}racy_double{{.*}}both write{{.*}}'x'

ipu.graph "racy" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.codelet @racy_double(%v: memref<?xf32> inout "x") {
    %c0 = arith.constant 0 : index
    %n = memref.dim %v, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    scf.for %i = %w to %n step %nw {
      %e = memref.load %v[%i] : memref<?xf32>
      %d = arith.addf %e, %e : f32
      memref.store %d, %v[%i] : memref<?xf32>
    }
  }
  ipu.from_host %x : memref<4xf32>
  ipu.compute_set "twice" {
    ipu.vertices @racy_double over <0 to 1 x 4> (%x block : memref<4xf32>)
    ipu.vertices @racy_double over <0 to 1 x 4> (%x block : memref<4xf32>)
  }
  ipu.to_host %x : memref<4xf32>
}
