// REQUIRES: build
// Workers of one vertex interleave per element over a float16 tensor: workers 0 and 1
// store the two halves of one 32-bit word. A 16-bit store is a read-modify-write of its
// word on the IPU, so one can undo the other: the emulator reports the race (InOut
// edges: it compares the edge before and after each worker). The same codelet over
// float32 (made here with sed) writes whole words and runs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ipu-opt %s -p convert-ipu-to-poplar -t poplar-cpp -o %t/halves
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(8, dtype=np.float16))"
// RUN: not ipu-run %t/halves --arg x=%t/x.npy 2>&1 | filecheck %s
// RUN: sed 's/f16/f32/g' %s > %t/floats.mlir
// RUN: ipu-opt %t/floats.mlir -p convert-ipu-to-poplar -t poplar-cpp -o %t/floats
// RUN: %python -c "import numpy as np; np.save('%t/x32.npy', np.arange(8, dtype=np.float32))"
// RUN: ipu-run %t/floats --arg x=%t/x32.npy
// RUN: %python -c "import numpy as np; print(np.load('%t/x32.npy').tolist())" | filecheck %s --check-prefix=F32

// CHECK: ipu-run: error: {{.*}}vertices 'bump' (tile 0, worker 0) and 'bump' (tile 0, worker 1) write elements 0 and 1 of 'x', which share a 32-bit word, in compute set 'bump' (fields 'x' and 'x'); stores narrower than 32 bits are not atomic
// F32: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]

ipu.graph "halves" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 8> : memref<8xf16>
  ipu.codelet @bump(%v: memref<?xf16> inout "x") {
    %c0 = arith.constant 0 : index
    %n = memref.dim %v, %c0 : memref<?xf16>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    %one = arith.constant 1.0 : f16
    scf.for %i = %w to %n step %nw {
      %e = memref.load %v[%i] : memref<?xf16>
      %d = arith.addf %e, %one : f16
      memref.store %d, %v[%i] : memref<?xf16>
    }
  }
  ipu.from_host %x : memref<8xf16>
  ipu.compute_set "bump" {
    ipu.vertices @bump over <0 to 1 x 8> (%x block : memref<8xf16>)
  }
  ipu.to_host %x : memref<8xf16>
}
