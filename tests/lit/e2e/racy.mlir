// Two vertices of one compute set write the same elements: the emulator reports the race.
// RUN: rm -rf %t && ipu-opt %s -p convert-ipu-to-poplar -t poplar-cpp -o %t/racy
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.ones(4, np.float32))"
// RUN: not ipu-run %t/racy --arg x=%t/x.npy 2>&1 | filecheck %s

// CHECK: ipu-run: error: {{.*}}racy_double{{.*}}both write{{.*}}'x'

ipu.graph "racy" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.codelet @racy_double fields [#ipu.field<inout "x" vector f32>] {
  ^bb0(%v: f32):
    %d = arith.addf %v, %v : f32
    ipu.yield %d : f32
  }
  ipu.from_host %x : memref<4xf32>
  ipu.compute_set "twice" {
    ipu.vertex @racy_double tile 0 (%x[0:4]) : memref<4xf32>
    ipu.vertex @racy_double tile 0 (%x[0:4]) : memref<4xf32>
  }
  ipu.to_host %x : memref<4xf32>
}
