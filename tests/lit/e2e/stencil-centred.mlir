// REQUIRES: build
// A centred three-point stencil over the interior points of an array, written as a
// point-wise map: y[i] = x[i - 1] + 2 x[i] + x[i + 1] for 1 <= i < 29. The map starts at
// element 1 (`from 1:`), its blocks follow y's layout, and x is read halo<1, 1>, so the
// first vertex reads element 0 and the last element 29 as their halo. y[0] and y[29]
// are not written. Taken through the two tile-level passes, built for the CPU emulator,
// run, and checked against numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ipu-opt %s -p ipu-vertex-extraction,convert-ipu-to-poplar -t poplar-cpp -o %t/centred
// RUN: filecheck %s --check-prefix=HOST < %t/centred/host.cpp
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(30, dtype=np.float32) ** 2); np.save('%t/y.npy', np.full(30, -1, np.float32))"
// RUN: ipu-run %t/centred --arg x=%t/x.npy --arg y=%t/y.npy | filecheck %s --check-prefix=OUT
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); y = np.load('%t/y.npy'); print(np.array_equal(y[1:-1], x[:-2] + 2 * x[1:-1] + x[2:]), y[0], y[-1])" | filecheck %s --check-prefix=Y

// The map's runs get their own table; its blocks start at element 1.
// HOST:      const TileRun tile_map_1[] = {{[{][{]}}0, 1, 7}, {1, 2, 8}, {2, 3, 7}, {3, 4, 6}};
// HOST:      for_each_block(tile_map_1, [&](const TileBlock &block) {
// HOST:        graph.connect(vertex["x"], x.slice(block.begin - 1, block.end + 1));
// HOST-NEXT:   graph.connect(vertex["y"], y.slice(block.begin, block.end));
// HOST:      }, 1);
// OUT: centred: {{[0-9]+}} estimated IPU cycles
// Y: True -1.0 -1.0

ipu.graph "centred" arch "ipu2" args ["x", "y"] {
  %x = ipu.variable "x" mapping <0 to 2 x 8, 2 to 4 x 7> : memref<30xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 8, 2 to 4 x 7> : memref<30xf32>
  ipu.from_host %x : memref<30xf32>
  ipu.from_host %y : memref<30xf32>
  ipu.tiled_map "m" over <from 1: 0 to 1 x 7, 1 to 2 x 8, 2 to 3 x 7, 3 to 4 x 6> ins(%x halo<1, 1> : memref<30xf32>) outs(%y block : memref<30xf32>) {
  ^bb0(%vx: memref<30xf32>):
    %left = ipu.access %vx[-1] : memref<30xf32>
    %here = ipu.access %vx[0] : memref<30xf32>
    %right = ipu.access %vx[1] : memref<30xf32>
    %two = arith.constant 2.0 : f32
    %middle = arith.mulf %two, %here : f32
    %sides = arith.addf %left, %right : f32
    %sum = arith.addf %sides, %middle : f32
    ipu.yield %sum : f32
  }
  ipu.to_host %y : memref<30xf32>
}
