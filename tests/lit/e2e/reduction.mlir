// REQUIRES: build
// A two-stage sum written as codelets. Stage 1: one vertex per block of x (three runs
// of tiles, blocks of 9, 6 and 1 elements) sums its block into its own element of p
// (`partial`: element k for vertex k, a scalar output field; a loop carrying the
// running sum). Stage 2: one vertex reads all of p (`whole`) and writes the total into
// the one-element s. Only worker 0 of each vertex sums, so no two workers write the
// same scalar. Built for the CPU emulator and run; the numbers checked with numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ipu-opt %s -p convert-ipu-to-poplar -t poplar-cpp -o %t/reduce
// RUN: filecheck %s --check-prefix=HOST < %t/reduce/host.cpp
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(1, 41, dtype=np.float32)); np.save('%t/p.npy', np.zeros(6, np.float32)); np.save('%t/s.npy', np.zeros(1, np.float32))"
// RUN: ipu-run %t/reduce --arg x=%t/x.npy --arg p=%t/p.npy --arg s=%t/s.npy | filecheck %s --check-prefix=OUT
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); p = np.load('%t/p.npy'); s = np.load('%t/s.npy'); print(p.tolist(), s.tolist(), s[0] == x.sum(), p.sum() == x.sum())" | filecheck %s --check-prefix=SUM

// HOST: graph.connect(vertex["out"], p[block.index]);
// HOST: graph.connect(vertex["v"], p);
// HOST: graph.connect(vertex["out"], s);
// OUT: reduce: {{[0-9]+}} estimated IPU cycles
// Blocks [1..9], [10..18], [19..27], [28..33], [34..39], [40].
// SUM: [45.0, 126.0, 207.0, 183.0, 219.0, 40.0] [820.0] True True

ipu.graph "reduce" arch "ipu2" args ["x", "p", "s"] {
  %x = ipu.variable "x" mapping <0 to 3 x 9, 3 to 5 x 6, 5 to 6 x 1> : memref<40xf32>
  %p = ipu.variable "p" mapping <0 to 6 x 1> : memref<6xf32>
  %s = ipu.variable "s" mapping <6 to 7 x 1> : memref<1xf32>
  ipu.codelet @sum(%v: memref<?xf32> input "v", %out: memref<f32> output "out") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %v, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %first = arith.cmpi eq, %w, %c0 : index
    scf.if %first {
      %zero = arith.constant 0.000000e+00 : f32
      %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
        %e = memref.load %v[%i] : memref<?xf32>
        %next = arith.addf %acc, %e : f32
        scf.yield %next : f32
      }
      memref.store %total, %out[] : memref<f32>
    }
  }
  ipu.from_host %x : memref<40xf32>
  ipu.compute_set "partial_sums" {
    ipu.vertices @sum over <0 to 3 x 9, 3 to 5 x 6, 5 to 6 x 1> (%x block, %p partial : memref<40xf32>, memref<6xf32>)
  }
  ipu.compute_set "total" {
    ipu.vertices @sum over <6 to 7 x 1> (%p whole, %s whole : memref<6xf32>, memref<1xf32>)
  }
  ipu.to_host %p : memref<6xf32>
  ipu.to_host %s : memref<1xf32>
}
