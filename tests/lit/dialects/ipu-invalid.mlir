// RUN: ipu-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every verifier of the ipu dialect, one case each: the attribute verifiers (reported
// while parsing, without a location), the op verifiers (the tile map and placement
// checks of ipu_lower.dialects.tiling, the codelet body checks of
// ipu_lower.dialects.codelet_body), the parent traits and the symbol table of ipu.graph.
// Syntax errors are in ipu-parse-invalid.mlir.

// The four errors of a hand-written program (a placement of a missing codelet, a slice
// outside its variable, a tile map beyond the architecture's tiles, an offset access
// without a halo) also go through the command line: the case between its BEGIN and END
// markers is cut out (other lines blanked, so line numbers stay), and ipu-opt reports
// one located line on stderr, exits 1 and writes nothing.
// RUN: rm -rf %t && mkdir -p %t
// RUN: awk '/^\/\/ END missing-codelet/{p=0} {print p ? $0 : ""} /^\/\/ BEGIN missing-codelet/{p=1}' %s > %t/missing-codelet.mlir
// RUN: not ipu-opt %t/missing-codelet.mlir -p convert-ipu-to-poplar -t poplar-cpp -o %t/missing-codelet 2> %t/missing-codelet.err
// RUN: filecheck %s --check-prefix=CLI-CODELET --match-full-lines < %t/missing-codelet.err
// RUN: test ! -e %t/missing-codelet
// RUN: awk '/^\/\/ END slice-outside/{p=0} {print p ? $0 : ""} /^\/\/ BEGIN slice-outside/{p=1}' %s > %t/slice-outside.mlir
// RUN: not ipu-opt %t/slice-outside.mlir -p convert-ipu-to-poplar -t poplar-cpp -o %t/slice-outside 2> %t/slice-outside.err
// RUN: filecheck %s --check-prefix=CLI-SLICE --match-full-lines < %t/slice-outside.err
// RUN: test ! -e %t/slice-outside
// RUN: awk '/^\/\/ END too-many-tiles/{p=0} {print p ? $0 : ""} /^\/\/ BEGIN too-many-tiles/{p=1}' %s > %t/too-many-tiles.mlir
// RUN: not ipu-opt %t/too-many-tiles.mlir -o %t/too-many-tiles.out 2> %t/too-many-tiles.err
// RUN: filecheck %s --check-prefix=CLI-TILES --match-full-lines < %t/too-many-tiles.err
// RUN: test ! -e %t/too-many-tiles.out
// RUN: awk '/^\/\/ END no-halo/{p=0} {print p ? $0 : ""} /^\/\/ BEGIN no-halo/{p=1}' %s > %t/no-halo.mlir
// RUN: not ipu-opt %t/no-halo.mlir -p ipu-vertex-extraction,convert-ipu-to-poplar -t poplar-cpp -o %t/no-halo 2> %t/no-halo.err
// RUN: filecheck %s --check-prefix=CLI-HALO --match-full-lines < %t/no-halo.err
// RUN: test ! -e %t/no-halo

// #ipu.tile_map: runs must not overlap ...
ipu.graph "g" arch "ipu2" args [] attributes {m = #ipu.tile_map<0 to 4 x 1, 2 to 6 x 1>} {
^bb0:
}

// CHECK: #ipu.tile_map runs must cover increasing, non-empty tile ranges (run 2 to 6 starts before tile 4 or is empty)

// -----

// ... nor be empty ...
ipu.graph "g" arch "ipu2" args [] attributes {m = #ipu.tile_map<4 to 4 x 1>} {
^bb0:
}

// CHECK: #ipu.tile_map runs must cover increasing, non-empty tile ranges (run 4 to 4 starts before tile 0 or is empty)

// -----

// ... nor hold nothing ...
ipu.graph "g" arch "ipu2" args [] attributes {m = #ipu.tile_map<0 to 4 x 0>} {
^bb0:
}

// CHECK: #ipu.tile_map run 0 to 4 holds 0 elements per tile

// -----

// ... and there is at least one.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <> : memref<0xf32>
}

// CHECK: #ipu.tile_map needs at least one run

// -----

ipu.graph "g" arch "ipu2" args [] attributes {f = #ipu.field<input "a b">} {
^bb0:
}

// CHECK: field name 'a b' is not a C++ identifier

// -----

// Field names are checked in the codelet syntax too.
ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input "int") {
  }
}

// CHECK: field name 'int' is not a C++ identifier

// -----

// ipu.graph
ipu.graph "g" arch "ipu9" args [] {
^bb0:
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:1: error: unknown IPU architecture 'ipu9' (known: ipu1, ipu2, ipu21)

// -----

// ipu1 has tiles 0 to 1215: every op with a tile map is checked.
ipu.graph "g" arch "ipu1" args [] {
  %x = ipu.variable "x" mapping <1215 to 1217 x 1> : memref<2xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: uses tile 1216 but ipu1 has 1216 tiles

// -----

// BEGIN too-many-tiles
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 2000> : memref<2000xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 1000 x 1, 1000 to 2000 x 1> (%x block : memref<2000xf32>)
  }
}
// END too-many-tiles

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:5: error: uses tile 1999 but ipu2 has 1472 tiles
// CLI-TILES: ipu-opt: {{.*}}too-many-tiles.mlir:[[# @LINE - 6]]:5: error: uses tile 1999 but ipu2 has 1472 tiles
// CLI-TILES-EMPTY:

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 8> : memref<8xf32>
  ipu.tiled_map "m" over <0 to 1470 x 1, 1470 to 1473 x 1> ins() outs() {
    ipu.yield
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:3: error: uses tile 1472 but ipu2 has 1472 tiles

// -----

ipu.graph "g" arch "ipu2" args ["x", "y"] {
  %x = ipu.variable "x" mapping <0 to 1 x 2> : memref<2xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:1: error: argument 'y' has no ipu.variable or ipu.remote_buffer

// -----

// Two codelets with one name.
ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> inout "x") {
  }
  ipu.codelet @c(%x: memref<?xf32> inout "x") {
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:1: error: Redefinition of symbol "c"

// -----

// ipu.variable
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 3> : memref<2x2xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: tile map of 'x' covers elements [0:6] but the tensor has 4

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 3> : memref<?xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: variable 'x' must have a static shape

// -----

%x = ipu.variable "x" mapping <0 to 2 x 2> : memref<4xf32>

// CHECK: ipu-invalid.mlir:[[# @LINE - 2]]:1: error: 'ipu.variable' expects parent op 'ipu.graph'

// -----

// Host transfers, copies, tiled maps and placements take ipu.variable results only.
ipu.graph "g" arch "ipu2" args [] {
  %m = memref.alloc() : memref<4xf32>
  ipu.from_host %m : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: operand must be the result of an ipu.variable

// -----

ipu.graph "g" arch "ipu2" args [] {
  %m = memref.alloc() : memref<4xf32>
  ipu.to_host %m : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: operand must be the result of an ipu.variable

// -----

// Only the graph's arguments have host data ...
ipu.graph "g" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.from_host %t : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 't' is not an argument of the graph: it has no host data to transfer

// -----

ipu.graph "g" arch "ipu2" args ["x"] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.to_host %t : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 't' is not an argument of the graph: it has no host data to transfer

// -----

// ... and scalar arguments are passed by value: they cannot be copied back.
ipu.graph "g" arch "ipu2" args ["a"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  ipu.from_host %a : memref<f32>
  ipu.to_host %a : memref<f32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: cannot copy scalar 'a' back to the host: scalars are passed by value

// -----

%x = memref.alloc() : memref<4xf32>
ipu.from_host %x : memref<4xf32>

// CHECK: ipu-invalid.mlir:[[# @LINE - 2]]:1: error: 'ipu.from_host' expects parent op 'ipu.graph'

// -----

%x = memref.alloc() : memref<4xf32>
ipu.to_host %x : memref<4xf32>

// CHECK: ipu-invalid.mlir:[[# @LINE - 2]]:1: error: 'ipu.to_host' expects parent op 'ipu.graph'

// -----

// ipu.copy
ipu.graph "g" arch "ipu2" args [] {
  %m = memref.alloc() : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.copy %m[0:4] to %y[0:4] : memref<4xf32>, memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: operand must be the result of an ipu.variable

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.copy %x[2:2] to %y[0:0] : memref<4xf32>, memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: copy range [2:2] of 'x' is empty or out of bounds

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.copy %x[0:4] to %y[1:5] : memref<4xf32>, memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: copy range [1:5] of 'y' is empty or out of bounds

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.copy %x[0:4] to %y[1:3] : memref<4xf32>, memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: copy source and destination ranges differ in length

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xi32>
  ipu.copy %x[0:4] to %y[0:4] : memref<4xf32>, memref<4xi32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: copy between tensors of different element types

// -----

%x = memref.alloc() : memref<4xf32>
ipu.copy %x[0:4] to %x[0:4] : memref<4xf32>, memref<4xf32>

// CHECK: ipu-invalid.mlir:[[# @LINE - 2]]:1: error: 'ipu.copy' expects parent op to be one of 'ipu.graph', 'ipu.repeat', 'ipu.repeat_while', 'ipu.if'

// -----

// ipu.tiled_map: one slice rule per operand (only the generic form can get it wrong).
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  "ipu.tiled_map"(%x) <{label = "m", tile_map = #ipu.tile_map<0 to 1 x 4>, in_rules = [], out_rules = [], operandSegmentSizes = array<i32: 0, 1>}> ({
    %c = arith.constant 1.0 : f32
    ipu.yield %c : f32
  }) : (memref<4xf32>) -> ()
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 6]]:3: error: tiled map 'm' needs one slice rule per operand

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x partial : memref<4xf32>) outs(%y block : memref<4xf32>) {
  ^bb0(%v: memref<4xf32>):
    %e = ipu.access %v[0] : memref<4xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: tiled map 'm' cannot connect 'x' partial

// -----

// Only a scalar may be read whole: an array is read around the point.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x whole : memref<4xf32>) outs(%y block : memref<4xf32>) {
  ^bb0(%v: memref<4xf32>):
    %e = ipu.access %v[0] : memref<4xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: tiled map 'm' reads array 'x' whole; only scalars may be

// -----

ipu.graph "g" arch "ipu2" args [] {
  %s = ipu.variable "s" mapping <0 to 1 x 1> : memref<f32>
  ipu.tiled_map "m" over <0 to 2 x 1> ins() outs(%s whole : memref<f32>) {
    %c = arith.constant 1.0 : f32
    ipu.yield %c : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 6]]:3: error: tiled map 'm' writes scalar 's' from every point

// -----

// A tiled map's body is point-wise arithmetic on its accesses: nothing else ...
ipu.graph "g" arch "ipu2" args [] {
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins() outs(%y block : memref<4xf32>) {
    %buffer = memref.alloc() : memref<4xf32>
    %c = arith.constant 1.0 : f32
    ipu.yield %c : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: 'memref.alloc' is not allowed in tiled map 'm' (only arith, math, ipu.access, ipu.point and signedness casts)

// -----

// ... and no 64-bit arithmetic, which the IPU lacks.
ipu.graph "g" arch "ipu2" args [] {
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins() outs(%y block : memref<4xf32>) {
    %wide = arith.constant 1.0 : f64
    %c = arith.truncf %wide : f64 to f32
    ipu.yield %c : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: 'arith.constant' in tiled map 'm' computes a f64

// -----

ipu.graph "g" arch "ipu2" args [] {
  %y = ipu.variable "y" mapping <0 to 1 x 6> : memref<6xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins() outs(%y halo<0, 2> : memref<6xf32>) {
    %c = arith.constant 1.0 : f32
    ipu.yield %c : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 6]]:3: error: tiled map 'm' writes 'y' with a halo; outputs are written at the point

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 6> : memref<6xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x halo<0, 2> : memref<6xf32>) outs(%x block : memref<6xf32>) {
  ^bb0(%v: memref<6xf32>):
    %e = ipu.access %v[2] : memref<6xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: tiled map 'm' reads 'x' with a halo and writes it: a vertex would read what its neighbour writes

// -----

// A halo past the end of the input. (A halo before element 0 is the same check.)
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 3> : memref<6xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 3> : memref<6xf32>
  ipu.tiled_map "m" over <0 to 2 x 3> ins(%x halo<0, 1> : memref<6xf32>) outs(%y block : memref<6xf32>) {
  ^bb0(%v: memref<6xf32>):
    %e = ipu.access %v[1] : memref<6xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: the halo<0, 1> slice [3:7] of 'x' on tile 1 is outside its 6 elements

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 3> : memref<6xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 3> : memref<6xf32>
  ipu.tiled_map "m" over <0 to 2 x 3> ins(%x halo<1, 0> : memref<6xf32>) outs(%y block : memref<6xf32>) {
  ^bb0(%v: memref<6xf32>):
    %e = ipu.access %v[-1] : memref<6xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: the halo<1, 0> slice [-1:3] of 'x' on tile 0 is outside its 6 elements

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xi32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x block : memref<4xf32>) outs(%y block : memref<4xi32>) {
  ^bb0(%v: memref<4xi32>):
    %c = arith.constant 1 : i32
    ipu.yield %c : i32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: body of tiled map 'm' must take its inputs, in order

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xi32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x block : memref<4xf32>) outs(%y block : memref<4xi32>) {
  ^bb0(%v: memref<4xf32>):
    %e = ipu.access %v[0] : memref<4xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: body of tiled map 'm' yields ['f32'], expected ['i32']

// -----

// A body must end with ipu.yield (the generic check of single-block regions says so first).
ipu.graph "g" arch "ipu2" args [] {
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins() outs(%y block : memref<4xf32>) {
    %c = arith.constant 1.0 : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: Operation arith.constant terminates block in single-block region but is not a terminator

// -----

%x = memref.alloc() : memref<4xf32>
ipu.tiled_map "m" over <0 to 1 x 4> ins() outs() {
  ipu.yield
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:1: error: 'ipu.tiled_map' expects parent op to be one of 'ipu.graph', 'ipu.repeat', 'ipu.repeat_while', 'ipu.if'

// -----

// ipu.access and ipu.yield
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x block : memref<4xf32>) outs(%y block : memref<4xf32>) {
  ^bb0(%v: memref<4xf32>):
    %e = "ipu.access"(%v) <{offset = array<i64: 0>}> : (memref<4xf32>) -> i32
    %f = arith.sitofp %e : i32 to f32
    ipu.yield %f : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 6]]:5: error: ipu.access yields i32, not the element type f32

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<2x2xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x block : memref<2x2xf32>) outs(%y block : memref<4xf32>) {
  ^bb0(%v: memref<2x2xf32>):
    %e = ipu.access %v[0] : memref<2x2xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:5: error: ipu.access of a rank-2 input needs 2 offsets

// -----

ipu.graph "g" arch "ipu2" args [] {
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins() outs(%y block : memref<4xf32>) {
    %m = memref.alloc() : memref<4xf32>
    %e = ipu.access %m[0] : memref<4xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:5: error: ipu.access must read a block argument of its ipu.tiled_map

// -----

// BEGIN no-halo
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.tiled_map "m" over <0 to 2 x 5> ins(%x block : memref<10xf32>) outs(%y block : memref<10xf32>) {
  ^bb0(%v: memref<10xf32>):
    %l = ipu.access %v[-1] : memref<10xf32>
    ipu.yield %l : f32
  }
}
// END no-halo

// CHECK: ipu-invalid.mlir:[[# @LINE - 6]]:5: error: access at offset -1 of 'x', which is connected block without a halo
// CLI-HALO: ipu-opt: {{.*}}no-halo.mlir:[[# @LINE - 7]]:5: error: access at offset -1 of 'x', which is connected block without a halo
// CLI-HALO-EMPTY:

// -----

// A rank-2 offset is flattened: [1, -1] is 1 * 3 - 1 = 2 elements on.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 9> : memref<3x3xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 6> : memref<6xf32>
  ipu.tiled_map "m" over <0 to 1 x 6> ins(%x halo<0, 1> : memref<3x3xf32>) outs(%y block : memref<6xf32>) {
  ^bb0(%v: memref<3x3xf32>):
    %e = ipu.access %v[1, -1] : memref<3x3xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:5: error: access at offset 2 of 'x' is outside its halo <0, 1>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 6> : memref<6xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <0 to 1 x 4> ins(%x halo<0, 2> : memref<6xf32>) outs(%y block : memref<4xf32>) {
  ^bb0(%v: memref<6xf32>):
    %e = ipu.access %v[-1] : memref<6xf32>
    ipu.yield %e : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:5: error: access at offset -1 of 'x' is outside its halo <0, 2>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %e = ipu.access %x[0] : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.access' expects parent op to be one of 'ipu.tiled_map', 'ipu.tiled_reduce'

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.yield
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.yield' expects parent op to be one of 'ipu.tiled_map', 'ipu.tiled_reduce'

// -----

// ipu.codelet: names, fields, and what its body may do.
ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @int(%x: memref<?xf32> input "x") {
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:3: error: codelet name 'int' is not a C++ identifier

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input "x", %y: memref<?xf32> output "x") {
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:3: error: codelet 'c' repeats a field name

// -----

ipu.graph "g" arch "ipu2" args [] {
  "ipu.codelet"() <{sym_name = "c", fields = [#ipu.field<input "x">]}> ({
  ^bb0(%x: memref<?xf32>, %y: memref<?xf32>):
  }) : () -> ()
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:3: error: codelet 'c' has 1 field but 2 block arguments

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: f32 input "x") {
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:3: error: field 'x' of codelet 'c': f32 is not a memref

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<4xf32> input "x") {
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:3: error: field 'x' of codelet 'c': memref<4xf32> is neither a scalar (memref<T>) nor a vector (memref<?xT>) field

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf64> input "x") {
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:3: error: field 'x' of codelet 'c': memref<?xf64> has an element type the IPU does not support

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input "x") {
    %m = memref.alloca() : memref<4xf32>
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:3: error: 'memref.alloca' is not allowed in codelet 'c'

// -----

// ... and casts only change signedness: an unsigned value and the signless integer of its width.
ipu.graph "g" arch "ipu2" args [] {
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xui8>
  ipu.tiled_map "m" over <0 to 1 x 4> ins() outs(%y block : memref<4xui8>) {
    %c = arith.constant 1 : i16
    %u = builtin.unrealized_conversion_cast %c : i16 to ui8
    ipu.yield %u : ui8
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: 'builtin.unrealized_conversion_cast' is not allowed in tiled map 'm' (only arith, math, ipu.access, ipu.point and signedness casts)

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input "x") {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xf32>
    %i = builtin.unrealized_conversion_cast %v : f32 to i32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: 'builtin.unrealized_conversion_cast' is not allowed in codelet 'c'

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input "x") {
    %m = arith.constant 1.0 : f64
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:3: error: 'arith.constant' in codelet 'c' computes a f64

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input "x") {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %x[%c0] : memref<?xf32>
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: codelet 'c' stores to its input field 'x'

// -----

ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<f32> output "x") {
    %e = memref.load %x[] : memref<f32>
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:3: error: codelet 'c' reads its output field 'x' (make it inout)

// -----

// Loads and stores inside loops are checked too.
ipu.graph "g" arch "ipu2" args [] {
  ipu.codelet @c(%x: memref<?xf32> input "x") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %e = memref.load %x[%i] : memref<?xf32>
      memref.store %e, %x[%i] : memref<?xf32>
    }
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 11]]:3: error: codelet 'c' stores to its input field 'x'

// -----

ipu.codelet @c(%x: memref<?xf32> input "x") {
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:1: error: 'ipu.codelet' expects parent op 'ipu.graph'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %w = ipu.worker_id
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.worker_id' expects ancestor op 'ipu.codelet'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %w = ipu.num_workers
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.num_workers' expects ancestor op 'ipu.codelet'

// -----

// ipu.compute_set
ipu.compute_set "cs" {
^bb0:
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:1: error: 'ipu.compute_set' expects parent op to be one of 'ipu.graph', 'ipu.repeat', 'ipu.repeat_while', 'ipu.if'

// -----

// ipu.vertices
// BEGIN missing-codelet
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.compute_set "cs" {
    ipu.vertices @missing over <0 to 2 x 5> (%x block : memref<10xf32>)
  }
}
// END missing-codelet

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:5: error: ipu.vertices places unknown codelet @missing
// CLI-CODELET: ipu-opt: {{.*}}missing-codelet.mlir:[[# @LINE - 6]]:5: error: ipu.vertices places unknown codelet @missing
// CLI-CODELET-EMPTY:

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x", %w: memref<?xf32> inout "y") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 5> (%x block : memref<10xf32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: codelet @c has 2 fields but ipu.vertices connects 1 tensor with 1 slice rule

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.compute_set "cs" {
    "ipu.vertices"(%x) <{codelet = @c, tile_map = #ipu.tile_map<0 to 2 x 5>, rules = []}> : (memref<10xf32>) -> ()
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: codelet @c has 1 field but ipu.vertices connects 1 tensor with 0 slice rules

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xi32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 5> (%x block : memref<10xi32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: 'x' connected to field 'x' of @c has element type i32, the field f32

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 10 x 1> (%x partial : memref<10xf32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: 'x' connected to field 'x' of @c: a partial slice is one element, the field is a vector

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.codelet @c(%v: memref<f32> inout "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 5> (%x block : memref<10xf32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: 'x' connected to field 'x' of @c: a block slice needs a vector field, the field is a scalar

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 12> : memref<12xf32>
  ipu.codelet @c(%v: memref<f32> input "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 5> (%x halo<0, 2> : memref<12xf32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: 'x' connected to field 'x' of @c: a halo<0, 2> slice needs a vector field, the field is a scalar

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.codelet @c(%v: memref<f32> input "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 5> (%x whole : memref<10xf32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: 'x' connected to field 'x' of @c: a whole tensor of 10 elements needs a vector field

// -----

// BEGIN slice-outside
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 4, 2 to 3 x 3> (%x block : memref<10xf32>)
  }
}
// END slice-outside

// CHECK: ipu-invalid.mlir:[[# @LINE - 5]]:5: error: the block slice [8:11] of 'x' on tile 2 is outside its 10 elements
// CLI-SLICE: ipu-opt: {{.*}}slice-outside.mlir:[[# @LINE - 6]]:5: error: the block slice [8:11] of 'x' on tile 2 is outside its 10 elements
// CLI-SLICE-EMPTY:

// -----

// One partial result per vertex: three vertices need three elements.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 3 x 2> : memref<6xf32>
  %p = ipu.variable "p" mapping <0 to 2 x 1> : memref<2xf32>
  ipu.codelet @c(%v: memref<?xf32> input "x", %s: memref<f32> output "p") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 3 x 2> (%x block, %p partial : memref<6xf32>, memref<2xf32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: the partial slice [2:3] of 'p' on tile 2 is outside its 2 elements

// -----

ipu.graph "g" arch "ipu2" args [] {
  %m = memref.alloc() : memref<10xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 5> (%m block : memref<10xf32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: operand must be the result of an ipu.variable

// -----

ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.codelet @c(%v: memref<?xf32> inout "x") {
  }
  ipu.vertices @c over <0 to 2 x 5> (%x block : memref<10xf32>)
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.vertices' expects parent op 'ipu.compute_set'

// -----

// A variable's layout covers all its elements, from element 0.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <from 1: 0 to 1 x 4> : memref<4xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: tile map of 'x' covers elements [1:5] but the tensor has 4

// -----

// A map of work whose halo reaches before element 0.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 1 x 4> : memref<4xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 4> : memref<4xf32>
  ipu.tiled_map "m" over <from 1: 0 to 1 x 3> ins(%x halo<2, 0> : memref<4xf32>) outs(%y block : memref<4xf32>) {
  ^bb0(%vx: memref<4xf32>):
    %v = ipu.access %vx[-2] : memref<4xf32>
    ipu.yield %v : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: the halo<2, 0> slice [-1:4] of 'x' on tile 0 is outside its 4 elements

// -----

ipu.graph "g" arch "ipu2" args [] {
  %p = ipu.point
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.point' expects parent op 'ipu.tiled_map'

// -----

ipu.graph "g" arch "ipu2" args [] {
  %s = ipu.block_start
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.block_start' expects ancestor op 'ipu.codelet'

// -----

// `neighbours` is a tiled map's unplanned halo: a placement needs a planned slice.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.codelet @c(%v: memref<?xf32> input "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 2 x 5> (%x neighbours : memref<10xf32>)
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 4]]:5: error: 'x' connected to field 'x' of @c: its halo is not planned yet (run ipu-plan-exchange)

// -----

// A tiled map reads its neighbours only from inputs it does not write.
ipu.graph "g" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.tiled_map "m" over <0 to 2 x 5> ins(%x neighbours : memref<10xf32>) outs(%x block : memref<10xf32>) {
  ^bb0(%v: memref<10xf32>):
    %l = ipu.access %v[-1] : memref<10xf32>
    ipu.yield %l : f32
  }
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 7]]:3: error: tiled map 'm' reads 'x' with a halo and writes it: a vertex would read what its neighbour writes

// -----

// Control programs: a count is not negative; a predicate is a scalar bool or integer
// variable.
ipu.graph "g" arch "ipu2" args [] {
  ipu.repeat -1 {}
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: ipu.repeat count must not be negative, got -1

// -----

ipu.graph "g" arch "ipu2" args [] {
  %p = ipu.variable "p" mapping <0 to 1 x 4> : memref<4xi1>
  ipu.if %p : memref<4xi1> {}
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.if' predicate 'p' must be a scalar, not memref<4xi1>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %p = ipu.variable "p" mapping <0 to 1 x 1> : memref<f32>
  ipu.repeat_while %p : memref<f32> {} do {}
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.repeat_while' predicate 'p' must be a bool or an integer, not f32

// -----

// Dynamic slices: one size per sliced dimension, distinct dimensions of the tensor, sizes
// that fit, one scalar i32 offset per dimension, a slice of the tensor's element type
// holding the box's elements, variables only, in a program.
ipu.graph "g" arch "ipu2" args [] {
  %a = ipu.variable "a" mapping <0 to 1 x 12> : memref<4x3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %r = ipu.variable "r" mapping <0 to 1 x 3> : memref<3xf32>
  ipu.dynamic_slice %a at [%t] dims [0] sizes [1, 1] into %r : memref<4x3xf32>, memref<3xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.dynamic_slice' needs one size per dimension, and at least one, got [0] and [1, 1]

// -----

ipu.graph "g" arch "ipu2" args [] {
  %a = ipu.variable "a" mapping <0 to 1 x 12> : memref<4x3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %r = ipu.variable "r" mapping <0 to 1 x 3> : memref<3xf32>
  ipu.dynamic_slice %a at [%t, %t] dims [0, 0] sizes [1, 1] into %r : memref<4x3xf32>, memref<3xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.dynamic_slice' dims [0, 0] must be distinct dimensions of a rank-2 tensor

// -----

ipu.graph "g" arch "ipu2" args [] {
  %a = ipu.variable "a" mapping <0 to 1 x 12> : memref<4x3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %r = ipu.variable "r" mapping <0 to 1 x 3> : memref<3xf32>
  ipu.dynamic_update %a at [%t] dims [1] sizes [4] from %r : memref<4x3xf32>, memref<3xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.dynamic_update' size 4 does not fit dimension 1 of memref<4x3xf32>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %a = ipu.variable "a" mapping <0 to 1 x 12> : memref<4x3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %r = ipu.variable "r" mapping <0 to 1 x 3> : memref<3xf32>
  ipu.dynamic_slice %a at [%t, %t] dims [0] sizes [1] into %r : memref<4x3xf32>, memref<3xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.dynamic_slice' needs 1 offsets of type memref<i32>

// -----

ipu.graph "g" arch "ipu2" args [] {
  %a = ipu.variable "a" mapping <0 to 1 x 12> : memref<4x3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %r = ipu.variable "r" mapping <0 to 1 x 3> : memref<3xi32>
  ipu.dynamic_slice %a at [%t] dims [0] sizes [1] into %r : memref<4x3xf32>, memref<3xi32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.dynamic_slice' slice memref<3xi32> and tensor memref<4x3xf32> have different element types

// -----

ipu.graph "g" arch "ipu2" args [] {
  %a = ipu.variable "a" mapping <0 to 1 x 12> : memref<4x3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %r = ipu.variable "r" mapping <0 to 1 x 6> : memref<6xf32>
  ipu.dynamic_slice %a at [%t] dims [0] sizes [1] into %r : memref<4x3xf32>, memref<6xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: 'ipu.dynamic_slice' slice memref<6xf32> does not hold the 3 elements of the box

// -----

ipu.graph "g" arch "ipu2" args [] {
  %a = ipu.variable "a" mapping <0 to 1 x 12> : memref<4x3xf32>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %r = memref.alloc() : memref<3xf32>
  ipu.dynamic_slice %a at [%t] dims [0] sizes [1] into %r : memref<4x3xf32>, memref<3xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: operand must be the result of an ipu.variable

// -----

%a = memref.alloc() : memref<4x3xf32>
%t = memref.alloc() : memref<i32>
%r = memref.alloc() : memref<3xf32>
ipu.dynamic_slice %a at [%t] dims [0] sizes [1] into %r : memref<4x3xf32>, memref<3xf32>

// CHECK: ipu-invalid.mlir:[[# @LINE - 2]]:1: error: 'ipu.dynamic_slice' expects parent op to be one of 'ipu.graph', 'ipu.repeat', 'ipu.repeat_while', 'ipu.if'

// -----

// The value of a variable has its type.
ipu.graph "g" arch "ipu2" args [] {
  %c = "ipu.variable"() <{var_name = "c", tile_map = #ipu.tile_map<0 to 1 x 3>, value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> memref<3xf32>
}

// CHECK: ipu-invalid.mlir:[[# @LINE - 3]]:3: error: the value of variable 'c' has type tensor<2xf32>, expected tensor<3xf32>
