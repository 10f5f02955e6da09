// REQUIRES: build
// Two placements in one compute set each write one element of a float16 tensor on its
// own block: elements 0 and 1, the two halves of one 32-bit word. Each vertex alone is
// fine (one element, one worker); together their 16-bit stores race on the IPU, and the
// emulator reports it (Output edges record the worker of each store).
// RUN: rm -rf %t && ipu-opt %s -p convert-ipu-to-poplar -t poplar-cpp -o %t/neighbours
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.zeros(2, np.float16))"
// RUN: not ipu-run %t/neighbours --arg x=%t/x.npy 2>&1 | filecheck %s

// CHECK: ipu-run: error: {{.*}}vertices 'fill' (tile 0, worker 0) and 'fill' (tile 0, worker 0) write elements 0 and 1 of 'x', which share a 32-bit word, in compute set 'fill' (fields 'x' and 'x'); stores narrower than 32 bits are not atomic

ipu.graph "neighbours" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 2> : memref<2xf16>
  ipu.codelet @fill(%v: memref<?xf16> output "x") {
    %c0 = arith.constant 0 : index
    %n = memref.dim %v, %c0 : memref<?xf16>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    %one = arith.constant 1.0 : f16
    scf.for %i = %w to %n step %nw {
      memref.store %one, %v[%i] : memref<?xf16>
    }
  }
  ipu.compute_set "fill" {
    ipu.vertices @fill over <0 to 1 x 1> (%x block : memref<2xf16>)
    ipu.vertices @fill over <from 1: 0 to 1 x 1> (%x block : memref<2xf16>)
  }
  ipu.to_host %x : memref<2xf16>
}
