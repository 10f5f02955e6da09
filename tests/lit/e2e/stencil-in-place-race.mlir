// REQUIRES: build
// A 3-point stencil updating y in place: y[i] = y[i - 1] + y[i] + y[i + 1] over the
// interior of y. Each vertex reads its block of y with one element of halo on each
// side ("halo", input) and writes its block ("y", inout). The halo elements are the
// neighbours' writes in the same compute set: on the IPU a vertex may read them before
// or after its neighbour updates them, so the emulator rejects the program (with
// snapshot reads alone it would compute the old-value stencil and pass by luck).
// RUN: rm -rf %t && ipu-opt %s -p convert-ipu-to-poplar -t poplar-cpp -o %t/inplace
// RUN: %python -c "import numpy as np; np.save('%t/y.npy', np.arange(14, dtype=np.float32))"
// RUN: not ipu-run %t/inplace --arg y=%t/y.npy 2>&1 | filecheck %s

// Tile 0 holds y[1:5] and reads y[0:6]; y[5] is written by tile 1's vertex.
// CHECK: ipu-run: error: inplace_run: vertex 'smooth3' (tile 0) reads element 5 of 'y' that vertex 'smooth3' (tile 1) writes in compute set 'smooth' (fields 'halo' and 'y'); Poplar leaves such a read undefined

ipu.graph "inplace" arch "ipu2" args ["y"] {
  %y = ipu.variable "y" mapping <0 to 1 x 5, 1 to 2 x 4, 2 to 3 x 5> : memref<14xf32>
  ipu.codelet @smooth3(%h: memref<?xf32> input "halo", %v: memref<?xf32> inout "y") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n = memref.dim %v, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    scf.for %i = %w to %n step %nw {
      %i1 = arith.addi %i, %c1 : index
      %i2 = arith.addi %i, %c2 : index
      %a = memref.load %h[%i] : memref<?xf32>
      %b = memref.load %h[%i1] : memref<?xf32>
      %c = memref.load %h[%i2] : memref<?xf32>
      %ab = arith.addf %a, %b : f32
      %abc = arith.addf %ab, %c : f32
      memref.store %abc, %v[%i] : memref<?xf32>
    }
  }
  ipu.from_host %y : memref<14xf32>
  ipu.compute_set "smooth" {
    ipu.vertices @smooth3 over <from 1: 0 to 3 x 4> (%y halo<1, 1>, %y block : memref<14xf32>, memref<14xf32>)
  }
  ipu.to_host %y : memref<14xf32>
}
