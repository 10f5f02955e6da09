// REQUIRES: build
// A 3-point stencil written as a codelet: y[i] = x[i] + x[i + 1] + x[i + 2]. x has two
// more elements than y and each vertex connects x with halo<0, 2>: its block of y and
// two elements past it. Three runs of tiles with blocks of 7, 6 and 4 points; built for
// the CPU emulator and run, the result checked against numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ipu-opt %s -p convert-ipu-to-poplar -t poplar-cpp -o %t/stencil
// RUN: filecheck %s --check-prefix=HOST < %t/stencil/host.cpp
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', (np.arange(33, dtype=np.float32) - 5) ** 2); np.save('%t/y.npy', np.zeros(31, np.float32))"
// RUN: ipu-run %t/stencil --arg x=%t/x.npy --arg y=%t/y.npy --report %t/report.json | filecheck %s --check-prefix=OUT
// RUN: %python -c "import json; r = json.load(open('%t/report.json')); print([t[0] for t in r['tiles']], [t[2] for t in r['tiles']], [t[3] for t in r['tiles']])" | filecheck %s --check-prefix=REPORT
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); y = np.load('%t/y.npy'); print(y.dtype, y.shape, np.array_equal(y, x[:-2] + x[1:-1] + x[2:]), y[0], y[-1])" | filecheck %s --check-prefix=Y

// HOST: const TileRun tile_map_1[] = {{[{][{]}}0, 3, 7}, {3, 4, 6}, {4, 5, 4}};
// HOST: graph.connect(vertex["x"], x.slice(block.begin, block.end + 2));
// HOST: graph.connect(vertex["y"], y.slice(block.begin, block.end));
// OUT: stencil: {{[0-9]+}} estimated IPU cycles
// Vertices of the 7-point run take 251 cycles as emitted: 11 + 6 x (18 + 6 + 2 x 8), the
// busiest of 6 workers doing 2 points of 8 cycles (3 loads, a store, the 2 adds and the
// loop decision, 2); the others 203 (1 point). Each tile but the last receives the 2 halo
// elements (8 bytes) of x that the next tile holds.
// REPORT: [0, 1, 2, 3, 4] [251, 251, 251, 203, 203] [8, 8, 8, 8, 0]
// x = (i - 5)^2: y[0] = 25 + 16 + 9, y[30] = 625 + 676 + 729.
// Y: float32 (31,) True 50.0 2030.0

ipu.graph "stencil" arch "ipu2" args ["x", "y"] {
  %x = ipu.variable "x" mapping <0 to 3 x 7, 3 to 4 x 6, 4 to 5 x 6> : memref<33xf32>
  %y = ipu.variable "y" mapping <0 to 3 x 7, 3 to 4 x 6, 4 to 5 x 4> : memref<31xf32>
  ipu.codelet @stencil3(%in: memref<?xf32> input "x", %out: memref<?xf32> output "y") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n = memref.dim %out, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    scf.for %i = %w to %n step %nw {
      %i1 = arith.addi %i, %c1 : index
      %i2 = arith.addi %i, %c2 : index
      %a = memref.load %in[%i] : memref<?xf32>
      %b = memref.load %in[%i1] : memref<?xf32>
      %c = memref.load %in[%i2] : memref<?xf32>
      %ab = arith.addf %a, %b : f32
      %abc = arith.addf %ab, %c : f32
      memref.store %abc, %out[%i] : memref<?xf32>
    }
  }
  ipu.from_host %x : memref<33xf32>
  ipu.compute_set "stencil" {
    ipu.vertices @stencil3 over <0 to 3 x 7, 3 to 4 x 6, 4 to 5 x 4> (%x halo<0, 2>, %y block : memref<33xf32>, memref<31xf32>)
  }
  ipu.to_host %y : memref<31xf32>
}
