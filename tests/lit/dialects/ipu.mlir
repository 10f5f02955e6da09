// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the ipu dialect, in its custom and in its generic form: every op, and
// the attributes #ipu.tile_map, #ipu.slice and #ipu.field (as properties in the generic
// form, and standalone in an attribute dictionary).

// Before vertex extraction: variables over tile maps of one or several runs (a map may
// skip tiles), host transfers, copies between tensors of different shapes, and tiled
// maps. The first reads a scalar whole, an input with a halo at two offsets, a rank-2
// input at the point, and writes that input back (an inout); the second reads nothing
// and writes a scalar from its single point.

ipu.graph "tiled" arch "ipu2" args ["a", "x", "y"] attributes {m = #ipu.tile_map<0 to 2 x 3, 5 to 6 x 4>, s = #ipu.slice<halo<1, 2>>, b = #ipu.slice<block>, f = #ipu.field<inout "y">} {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 3, 2 to 4 x 2, 4 to 5 x 3> : memref<13xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<2x5xf32>
  %t = ipu.variable "t" mapping <0 to 2 x 3, 2 to 4 x 2> {tmp} : memref<10xf32>
  %z = ipu.variable "z" mapping <0 to 1 x 2, 3 to 5 x 3, 7 to 8 x 1> : memref<9xf16>
  %k = ipu.variable "k" mapping <1471 to 1472 x 1> : memref<i32>
  %cst = ipu.variable "cst" mapping <0 to 2 x 2> : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
  ipu.from_host %a : memref<f32>
  ipu.from_host %x {first} : memref<13xf32>
  ipu.tiled_map "stencil" over <0 to 2 x 3, 2 to 3 x 2> ins(%a whole, %x halo<0, 3>, %y block : memref<f32>, memref<13xf32>, memref<2x5xf32>) outs(%y block, %t block : memref<2x5xf32>, memref<10xf32>) {
  ^bb0(%va: memref<f32>, %vx: memref<13xf32>, %vy: memref<2x5xf32>):
    %s = ipu.access %va[] : memref<f32>
    %l = ipu.access %vx[1] : memref<13xf32>
    %r = ipu.access %vx[3] {note} : memref<13xf32>
    %c = ipu.access %vy[0, 0] : memref<2x5xf32>
    %m = arith.mulf %s, %l : f32
    %n = arith.addf %m, %r : f32
    ipu.yield %n, %c : f32, f32
  }
  ipu.tiled_map "count" over <1471 to 1472 x 1> ins() outs(%k whole : memref<i32>) attributes {note} {
    %one = arith.constant 1 : i32
    ipu.yield %one : i32
  }
  ipu.copy %t[0:10] to %x[3:13] : memref<10xf32>, memref<13xf32>
  ipu.copy %t[2:4] to %y[6:8] {note} : memref<10xf32>, memref<2x5xf32>
  ipu.to_host %y : memref<2x5xf32>
  ipu.to_host %x {last} : memref<13xf32>
}

// CHECK-LABEL: ipu.graph "tiled" arch "ipu2" args ["a", "x", "y"] attributes {m = #ipu.tile_map<0 to 2 x 3, 5 to 6 x 4>, s = #ipu.slice<halo<1, 2>>, b = #ipu.slice<block>, f = #ipu.field<inout "y">} {
// CHECK-NEXT:    %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
// CHECK-NEXT:    %x = ipu.variable "x" mapping <0 to 2 x 3, 2 to 4 x 2, 4 to 5 x 3> : memref<13xf32>
// CHECK-NEXT:    %y = ipu.variable "y" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<2x5xf32>
// CHECK-NEXT:    %t = ipu.variable "t" mapping <0 to 2 x 3, 2 to 4 x 2> {tmp} : memref<10xf32>
// CHECK-NEXT:    %z = ipu.variable "z" mapping <0 to 1 x 2, 3 to 5 x 3, 7 to 8 x 1> : memref<9xf16>
// CHECK-NEXT:    %k = ipu.variable "k" mapping <1471 to 1472 x 1> : memref<i32>
// CHECK-NEXT:    %cst = ipu.variable "cst" mapping <0 to 2 x 2> : memref<2x2xf32> = dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]>
// CHECK-NEXT:    ipu.from_host %a : memref<f32>
// CHECK-NEXT:    ipu.from_host %x {first} : memref<13xf32>
// CHECK-NEXT:    ipu.tiled_map "stencil" over <0 to 2 x 3, 2 to 3 x 2> ins(%a whole, %x halo<0, 3>, %y block : memref<f32>, memref<13xf32>, memref<2x5xf32>) outs(%y block, %t block : memref<2x5xf32>, memref<10xf32>) {
// CHECK-NEXT:    ^bb0(%va: memref<f32>, %vx: memref<13xf32>, %vy: memref<2x5xf32>):
// CHECK-NEXT:      %s = ipu.access %va[] : memref<f32>
// CHECK-NEXT:      %l = ipu.access %vx[1] : memref<13xf32>
// CHECK-NEXT:      %r = ipu.access %vx[3] {note} : memref<13xf32>
// CHECK-NEXT:      %c = ipu.access %vy[0, 0] : memref<2x5xf32>
// CHECK-NEXT:      %m = arith.mulf %s, %l : f32
// CHECK-NEXT:      %n = arith.addf %m, %r : f32
// CHECK-NEXT:      ipu.yield %n, %c : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.tiled_map "count" over <1471 to 1472 x 1> ins() outs(%k whole : memref<i32>) attributes {note} {
// CHECK-NEXT:      %one = arith.constant 1 : i32
// CHECK-NEXT:      ipu.yield %one : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.copy %t[0:10] to %x[3:13] : memref<10xf32>, memref<13xf32>
// CHECK-NEXT:    ipu.copy %t[2:4] to %y[6:8] {note} : memref<10xf32>, memref<2x5xf32>
// CHECK-NEXT:    ipu.to_host %y : memref<2x5xf32>
// CHECK-NEXT:    ipu.to_host %x {last} : memref<13xf32>
// CHECK-NEXT:  }

// GENERIC-LABEL: "ipu.graph"() <{sym_name = "tiled", arch = "ipu2", args = ["a", "x", "y"]}> ({
// GENERIC-NEXT:    %a = "ipu.variable"() <{var_name = "a", tile_map = #ipu.tile_map<0 to 1 x 1>}> : () -> memref<f32>
// GENERIC-NEXT:    %x = "ipu.variable"() <{var_name = "x", tile_map = #ipu.tile_map<0 to 2 x 3, 2 to 4 x 2, 4 to 5 x 3>}> : () -> memref<13xf32>
// GENERIC-NEXT:    %y = "ipu.variable"() <{var_name = "y", tile_map = #ipu.tile_map<0 to 2 x 3, 2 to 4 x 2>}> : () -> memref<2x5xf32>
// GENERIC-NEXT:    %t = "ipu.variable"() <{var_name = "t", tile_map = #ipu.tile_map<0 to 2 x 3, 2 to 4 x 2>}> {tmp} : () -> memref<10xf32>
// GENERIC:         %cst = "ipu.variable"() <{var_name = "cst", tile_map = #ipu.tile_map<0 to 2 x 2>, value = dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>}> : () -> memref<2x2xf32>
// GENERIC:         "ipu.from_host"(%a) : (memref<f32>) -> ()
// GENERIC-NEXT:    "ipu.from_host"(%x) {first} : (memref<13xf32>) -> ()
// GENERIC-NEXT:    "ipu.tiled_map"(%a, %x, %y, %y, %t) <{label = "stencil", tile_map = #ipu.tile_map<0 to 2 x 3, 2 to 3 x 2>, in_rules = [#ipu.slice<whole>, #ipu.slice<halo<0, 3>>, #ipu.slice<block>], out_rules = [#ipu.slice<block>, #ipu.slice<block>], operandSegmentSizes = array<i32: 3, 2>}> ({
// GENERIC-NEXT:    ^bb0(%va: memref<f32>, %vx: memref<13xf32>, %vy: memref<2x5xf32>):
// GENERIC-NEXT:      %s = "ipu.access"(%va) <{offset = array<i64>}> : (memref<f32>) -> f32
// GENERIC-NEXT:      %l = "ipu.access"(%vx) <{offset = array<i64: 1>}> : (memref<13xf32>) -> f32
// GENERIC-NEXT:      %r = "ipu.access"(%vx) <{offset = array<i64: 3>}> {note} : (memref<13xf32>) -> f32
// GENERIC-NEXT:      %c = "ipu.access"(%vy) <{offset = array<i64: 0, 0>}> : (memref<2x5xf32>) -> f32
// GENERIC:           "ipu.yield"(%n, %c) : (f32, f32) -> ()
// GENERIC-NEXT:    }) : (memref<f32>, memref<13xf32>, memref<2x5xf32>, memref<2x5xf32>, memref<10xf32>) -> ()
// GENERIC-NEXT:    "ipu.tiled_map"(%k) <{label = "count", tile_map = #ipu.tile_map<1471 to 1472 x 1>, in_rules = [], out_rules = [#ipu.slice<whole>], operandSegmentSizes = array<i32: 0, 1>}> ({
// GENERIC:         }) {note} : (memref<i32>) -> ()
// GENERIC-NEXT:    "ipu.copy"(%t, %x) <{source_begin = 0 : i64, source_end = 10 : i64, destination_begin = 3 : i64, destination_end = 13 : i64}> : (memref<10xf32>, memref<13xf32>) -> ()
// GENERIC-NEXT:    "ipu.copy"(%t, %y) <{source_begin = 2 : i64, source_end = 4 : i64, destination_begin = 6 : i64, destination_end = 8 : i64}> {note} : (memref<10xf32>, memref<2x5xf32>) -> ()
// GENERIC-NEXT:    "ipu.to_host"(%y) : (memref<2x5xf32>) -> ()
// GENERIC-NEXT:    "ipu.to_host"(%x) {last} : (memref<13xf32>) -> ()
// GENERIC-NEXT:  }) {m = #ipu.tile_map<0 to 2 x 3, 5 to 6 x 4>, s = #ipu.slice<halo<1, 2>>, b = #ipu.slice<block>, f = #ipu.field<inout "y">} : () -> ()

// After vertex extraction: a codelet with scalar and vector fields of every direction
// whose body uses every kind of allowed op (arith, math, memref.dim/load/store,
// scf.for with a carried value, scf.if, the worker ops); codelets without fields or
// without ops; placements with every slice rule, over several runs, one with
// attributes; a placement with no operands and an empty compute set (`{}`: one empty
// block, as in MLIR).

ipu.graph "vertices" arch "ipu1" args ["a", "x"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<10xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<2x5xf32>
  %p = ipu.variable "p" mapping <0 to 4 x 1> : memref<4xf32>
  ipu.codelet @body(%sa: memref<f32> input "a", %sx: memref<?xf32> input "x", %sy: memref<?xf32> inout "y", %sp: memref<f32> output "p") attributes {note} {
    %c0 = arith.constant 0 : index
    %n = memref.dim %sx, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    %va = memref.load %sa[] : memref<f32>
    %zero = arith.constant 0.000000e+00 : f32
    %sum = scf.for %i = %w to %n step %nw iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %sx[%i] : memref<?xf32>
      %r = math.sqrt %e : f32
      %big = arith.cmpf ogt, %r, %va : f32
      %v = scf.if %big -> (f32) {
        scf.yield %r : f32
      } else {
        scf.yield %va : f32
      }
      memref.store %v, %sy[%i] : memref<?xf32>
      %next = arith.addf %acc, %v : f32
      scf.yield %next : f32
    }
    memref.store %sum, %sp[] : memref<f32>
  }
  ipu.codelet @idle() {
    %w = ipu.worker_id
  }
  ipu.codelet @nop(%sx: memref<?xf16> input "x") {
  }
  ipu.compute_set "cs" {
    ipu.vertices @body over <0 to 2 x 3, 2 to 4 x 2> (%a whole, %x block, %y block, %p partial : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<4xf32>)
    ipu.vertices @body over <1000 to 1001 x 5> (%a whole, %x halo<0, 5>, %y block, %p partial : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<4xf32>) {note}
  }
  ipu.compute_set "idle" attributes {k} {
    ipu.vertices @idle over <3 to 4 x 1> ()
  }
  ipu.compute_set "none" {
  }
}

// CHECK-LABEL: ipu.graph "vertices" arch "ipu1" args ["a", "x"] {
// CHECK-NEXT:    %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
// CHECK-NEXT:    %x = ipu.variable "x" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<10xf32>
// CHECK-NEXT:    %y = ipu.variable "y" mapping <0 to 2 x 3, 2 to 4 x 2> : memref<2x5xf32>
// CHECK-NEXT:    %p = ipu.variable "p" mapping <0 to 4 x 1> : memref<4xf32>
// CHECK-NEXT:    ipu.codelet @body(%sa: memref<f32> input "a", %sx: memref<?xf32> input "x", %sy: memref<?xf32> inout "y", %sp: memref<f32> output "p") attributes {note} {
// CHECK-NEXT:      %c0 = arith.constant 0 : index
// CHECK-NEXT:      %n = memref.dim %sx, %c0 : memref<?xf32>
// CHECK-NEXT:      %w = ipu.worker_id
// CHECK-NEXT:      %nw = ipu.num_workers
// CHECK-NEXT:      %va = memref.load %sa[] : memref<f32>
// CHECK-NEXT:      %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %sum = scf.for %i = %w to %n step %nw iter_args(%acc = %zero) -> (f32) {
// CHECK-NEXT:        %e = memref.load %sx[%i] : memref<?xf32>
// CHECK-NEXT:        %r = math.sqrt %e : f32
// CHECK-NEXT:        %big = arith.cmpf ogt, %r, %va : f32
// CHECK-NEXT:        %v = scf.if %big -> (f32) {
// CHECK-NEXT:          scf.yield %r : f32
// CHECK-NEXT:        } else {
// CHECK-NEXT:          scf.yield %va : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        memref.store %v, %sy[%i] : memref<?xf32>
// CHECK-NEXT:        %next = arith.addf %acc, %v : f32
// CHECK-NEXT:        scf.yield %next : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %sum, %sp[] : memref<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.codelet @idle() {
// CHECK-NEXT:      %w = ipu.worker_id
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.codelet @nop(%sx: memref<?xf16> input "x") {
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.compute_set "cs" {
// CHECK-NEXT:      ipu.vertices @body over <0 to 2 x 3, 2 to 4 x 2> (%a whole, %x block, %y block, %p partial : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<4xf32>)
// CHECK-NEXT:      ipu.vertices @body over <1000 to 1001 x 5> (%a whole, %x halo<0, 5>, %y block, %p partial : memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<4xf32>) {note}
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.compute_set "idle" attributes {k} {
// CHECK-NEXT:      ipu.vertices @idle over <3 to 4 x 1> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    ipu.compute_set "none" {
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC-LABEL: "ipu.graph"() <{sym_name = "vertices", arch = "ipu1", args = ["a", "x"]}> ({
// GENERIC:         "ipu.codelet"() <{sym_name = "body", fields = [#ipu.field<input "a">, #ipu.field<input "x">, #ipu.field<inout "y">, #ipu.field<output "p">]}> ({
// GENERIC-NEXT:    ^bb0(%sa: memref<f32>, %sx: memref<?xf32>, %sy: memref<?xf32>, %sp: memref<f32>):
// GENERIC:           %w = "ipu.worker_id"() : () -> index
// GENERIC-NEXT:      %nw = "ipu.num_workers"() : () -> index
// GENERIC:         }) {note} : () -> ()
// GENERIC-NEXT:    "ipu.codelet"() <{sym_name = "idle", fields = []}> ({
// GENERIC-NEXT:      %w = "ipu.worker_id"() : () -> index
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:    "ipu.codelet"() <{sym_name = "nop", fields = [#ipu.field<input "x">]}> ({
// GENERIC-NEXT:    ^bb0(%sx: memref<?xf16>):
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:    "ipu.compute_set"() <{label = "cs"}> ({
// GENERIC-NEXT:      "ipu.vertices"(%a, %x, %y, %p) <{codelet = @body, tile_map = #ipu.tile_map<0 to 2 x 3, 2 to 4 x 2>, rules = [#ipu.slice<whole>, #ipu.slice<block>, #ipu.slice<block>, #ipu.slice<partial>]}> : (memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<4xf32>) -> ()
// GENERIC-NEXT:      "ipu.vertices"(%a, %x, %y, %p) <{codelet = @body, tile_map = #ipu.tile_map<1000 to 1001 x 5>, rules = [#ipu.slice<whole>, #ipu.slice<halo<0, 5>>, #ipu.slice<block>, #ipu.slice<partial>]}> {note} : (memref<f32>, memref<10xf32>, memref<2x5xf32>, memref<4xf32>) -> ()
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:    "ipu.compute_set"() <{label = "idle"}> ({
// GENERIC-NEXT:      "ipu.vertices"() <{codelet = @idle, tile_map = #ipu.tile_map<3 to 4 x 1>, rules = []}> : () -> ()
// GENERIC-NEXT:    }) {k} : () -> ()
// GENERIC-NEXT:    "ipu.compute_set"() <{label = "none"}> ({
// GENERIC-NEXT:    ^bb0:
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:  }) : () -> ()

// A map of work may start after element 0: its blocks are [1, 4), [4, 7) and [7, 9).
ipu.graph "interior" arch "ipu2" args [] {
  %x = ipu.variable "x" mapping <0 to 2 x 5> : memref<10xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 5> : memref<10xf32>
  ipu.tiled_map "m" over <from 1: 0 to 2 x 3, 2 to 3 x 2> ins(%x halo<1, 1> : memref<10xf32>) outs(%y block : memref<10xf32>) {
  ^bb0(%vx: memref<10xf32>):
    %l = ipu.access %vx[-1] : memref<10xf32>
    %r = ipu.access %vx[1] : memref<10xf32>
    %s = arith.addf %l, %r : f32
    ipu.yield %s : f32
  }
}

// CHECK:      ipu.graph "interior" arch "ipu2" args [] {
// CHECK:        ipu.tiled_map "m" over <from 1: 0 to 2 x 3, 2 to 3 x 2> ins(%{{.*}} halo<1, 1> : memref<10xf32>) outs(%{{.*}} block : memref<10xf32>) {
// GENERIC:      "ipu.tiled_map"(%{{.*}}, %{{.*}}) <{label = "m", tile_map = #ipu.tile_map<from 1: 0 to 2 x 3, 2 to 3 x 2>,

// A tiled map over part of a matrix that reads its point (`ipu.point`, the element it
// writes) to mask what lies outside a box; the codelet of such a map reads its block's
// first element (`ipu.block_start`).

ipu.graph "masked" arch "ipu2" args ["b"] {
  %b = ipu.variable "b" mapping <0 to 3 x 4> : memref<3x4xf32>
  ipu.tiled_map "edge" over <from 5: 1 to 2 x 2> ins(%b block : memref<3x4xf32>) outs(%b block : memref<3x4xf32>) {
  ^bb0(%vb: memref<3x4xf32>):
    %old = ipu.access %vb[0, 0] : memref<3x4xf32>
    %p = ipu.point
    %four = arith.constant 4 : index
    %col = arith.remui %p, %four : index
    %one = arith.constant 1 : index
    %in = arith.cmpi uge, %col, %one : index
    %zero = arith.constant 0.000000e+00 : f32
    %v = arith.select %in, %zero, %old : f32
    ipu.yield %v : f32
  }
  ipu.codelet @first(%sb: memref<?xf32> inout "b") {
    %start = ipu.block_start {note}
  }
}

// CHECK-LABEL: ipu.graph "masked" arch "ipu2" args ["b"] {
// CHECK:           %p = ipu.point
// CHECK-NEXT:      %four = arith.constant 4 : index
// CHECK:         ipu.codelet @first(%sb: memref<?xf32> inout "b") {
// CHECK-NEXT:      %start = ipu.block_start {note}
// CHECK-NEXT:    }

// GENERIC-LABEL: "ipu.graph"() <{sym_name = "masked", arch = "ipu2", args = ["b"]}> ({
// GENERIC:           %p = "ipu.point"() : () -> index
// GENERIC:           %start = "ipu.block_start"() {note} : () -> index
