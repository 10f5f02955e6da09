// RUN: ipu-opt %s --verify-diagnostics -p convert-ipu-to-poplar | filecheck %s

ipu.graph "g" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 2> : memref<2xf32>
  ipu.tiled_map "m" over #ipu.tile_map<0 to 1 x 2> ins(%x : memref<2xf32>) outs(%x : memref<2xf32>) {
  ^bb0(%v: f32):
    ipu.yield %v : f32
  }
}

// CHECK: convert-ipu-to-poplar-invalid.mlir:5:3: error: 'ipu.tiled_map' cannot be converted to Poplar; run ipu-vertex-extraction first
