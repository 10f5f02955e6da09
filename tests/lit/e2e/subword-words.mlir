// REQUIRES: build
// An int8 codelet whose workers each write whole 32-bit words: worker w takes elements
// 4w..4w+3, 4(w + 6)..4(w + 6)+3, ... of its block (the last word of a block may be
// short). The two blocks (12 and 18 elements) start on word boundaries, so no two
// writers share a word: it runs, and every element is incremented. With units of 2
// elements instead (made here with sed), workers 0 and 1 share word 0 and the emulator
// reports the race.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ipu-opt %s -p convert-ipu-to-poplar -t poplar-cpp -o %t/words
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(30, dtype=np.int8))"
// RUN: ipu-run %t/words --arg x=%t/x.npy
// RUN: %python -c "import numpy as np; print(np.array_equal(np.load('%t/x.npy'), np.arange(1, 31)))" | filecheck %s --check-prefix=OK
// RUN: sed 's/arith.constant 4 : index/arith.constant 2 : index/' %s > %t/pairs.mlir
// RUN: ipu-opt %t/pairs.mlir -p convert-ipu-to-poplar -t poplar-cpp -o %t/pairs
// RUN: not ipu-run %t/pairs --arg x=%t/x.npy 2>&1 | filecheck %s --check-prefix=RACE

// OK: True
// RACE: ipu-run: error: {{.*}}vertices 'inc_words' (tile 0, worker 0) and 'inc_words' (tile 0, worker 1) write elements 0 and 2 of 'x', which share a 32-bit word, in compute set 'inc' (fields 'x' and 'x'); stores narrower than 32 bits are not atomic

ipu.graph "words" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 12, 1 to 2 x 18> : memref<30xi8>
  ipu.codelet @inc_words(%v: memref<?xi8> inout "x") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %unit = arith.constant 4 : index
    %n = memref.dim %v, %c0 : memref<?xi8>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    %first = arith.muli %w, %unit : index
    %step = arith.muli %nw, %unit : index
    %one = arith.constant 1 : i8
    scf.for %u = %first to %n step %step {
      %next = arith.addi %u, %unit : index
      %end = arith.minui %next, %n : index
      scf.for %i = %u to %end step %c1 {
        %e = memref.load %v[%i] : memref<?xi8>
        %d = arith.addi %e, %one : i8
        memref.store %d, %v[%i] : memref<?xi8>
      }
    }
  }
  ipu.from_host %x : memref<30xi8>
  ipu.compute_set "inc" {
    ipu.vertices @inc_words over <0 to 1 x 12, 1 to 2 x 18> (%x block : memref<30xi8>)
  }
  ipu.to_host %x : memref<30xi8>
}
