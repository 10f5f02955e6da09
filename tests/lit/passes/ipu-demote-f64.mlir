// RUN: ipu-opt %s -p ipu-demote-f64 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=WARN < %t.err
// RUN: ipu-opt %s -p 'ipu-demote-f64{int64=false}' 2>/dev/null | filecheck %s --check-prefix=KEEP64

// float64 and int64 containers, memlets and tasklet values become 32-bit; casts between
// types that are now equal disappear; each demoted container gets a warning.

sdfg.sdfg @promoted args ["x", "y", "k"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f64>
  %k = sdfg.container "k" : !sdfg.array<4 x i32>
  %t = sdfg.container "t" transient : !sdfg.array<4 x i64>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %vx = sdfg.read %x[%i] : !sdfg.array<4 x f32>
      %vk = sdfg.read %k[%i] : !sdfg.array<4 x i32>
      %r:2 = sdfg.tasklet "t" ins(a = %vx, b = %vk) outs(o, p) : (f32, i32) -> (f64, i64) {
      ^bb0(%a: f32, %b: i32):
        %w = arith.extf %a : f32 to f64
        %c = arith.constant 1.5 : f64
        %s = arith.addf %w, %c : f64
        %wb = arith.extsi %b : i32 to i64
        %three = arith.constant 3 : i64
        %m = arith.muli %wb, %three : i64
        sdfg.yield %s, %m : f64, i64
      }
      sdfg.write %r#0 to %y[%i] : !sdfg.array<4 x f64>
      sdfg.write %r#1 to %t[%i] : !sdfg.array<4 x i64>
    }
  }
}

// The declared types of the demoted arguments (not of transients) stay on the module, for
// program.json and the callers that accept them.
// CHECK:      builtin.module attributes {sdfg.declared_types = {promoted = {y = f64}, shifted = {v = f64, s = f64}, compare = {k = i64, b = i64}, reduced = {B = f64, C = f64, k = i64}}} {
// KEEP64:     builtin.module attributes {sdfg.declared_types = {promoted = {y = f64}, shifted = {v = f64, s = f64}, reduced = {B = f64, C = f64}}} {
// CHECK:      sdfg.container "y" : !sdfg.array<4 x f32>
// CHECK:      sdfg.container "t" transient : !sdfg.array<4 x i32>
// CHECK:      sdfg.tasklet "t" ins(a = %{{.*}}, b = %{{.*}}) outs(o, p) : (f32, i32) -> (f32, i32) {
// CHECK-NEXT: ^{{.*}}([[A:%.*]]: f32, [[B:%.*]]: i32):
// CHECK-NEXT:   [[C:%.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:   [[S:%.*]] = arith.addf [[A]], [[C]] : f32
// CHECK-NEXT:   [[THREE:%.*]] = arith.constant 3 : i32
// CHECK-NEXT:   [[M:%.*]] = arith.muli [[B]], [[THREE]] : i32
// CHECK-NEXT:   sdfg.yield [[S]], [[M]] : f32, i32
// CHECK:      sdfg.write %{{.*}} to %{{.*}}[%i] : !sdfg.array<4 x f32>
// CHECK:      sdfg.write %{{.*}} to %{{.*}}[%i] : !sdfg.array<4 x i32>

// WARN: ipu-demote-f64.mlir:10:3: demoting container 'y' from f64 to f32
// WARN: ipu-demote-f64.mlir:12:3: demoting container 't' from i64 to i32

// KEEP64: sdfg.container "t" transient : !sdfg.array<4 x i64>
// KEEP64: arith.muli %{{.*}}, %{{.*}} : i64

// Symbolic shapes, offset subsets and scalars are kept as they are; only the element
// types change, and the truncation to f32, now an identity, disappears.

sdfg.sdfg @shifted args ["v", "s", "w"] symbols ["N"] {
  %v = sdfg.container "v" : !sdfg.array<(N + 1) x f64>
  %s = sdfg.container "s" : !sdfg.array<f64>
  %w = sdfg.container "w" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %a = sdfg.read %v[%i + 1] : !sdfg.array<(N + 1) x f64>
      %b = sdfg.read %s[] : !sdfg.array<f64>
      %r = sdfg.tasklet "t" ins(a = %a, b = %b) outs(o) : (f64, f64) -> (f32) {
      ^bb0(%x: f64, %y: f64):
        %p = arith.mulf %x, %y : f64
        %n = arith.truncf %p : f64 to f32
        sdfg.yield %n : f32
      }
      sdfg.write %r to %w[%i] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @shifted args ["v", "s", "w"] symbols ["N"] {
// CHECK-NEXT:    [[V:%.*]] = sdfg.container "v" : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:    [[S:%.*]] = sdfg.container "s" : !sdfg.array<f32>
// CHECK:           sdfg.map "m" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:        [[A:%.*]] = sdfg.read [[V]][[[I]] + 1] : !sdfg.array<(N + 1) x f32>
// CHECK-NEXT:        [[B:%.*]] = sdfg.read [[S]][] : !sdfg.array<f32>
// CHECK-NEXT:        %{{.*}} = sdfg.tasklet "t" ins(a = [[A]], b = [[B]]) outs(o) : (f32, f32) -> (f32) {
// CHECK-NEXT:        ^{{.*}}([[X:%.*]]: f32, [[Y:%.*]]: f32):
// CHECK-NEXT:          [[P:%.*]] = arith.mulf [[X]], [[Y]] : f32
// CHECK-NEXT:          sdfg.yield [[P]] : f32

// WARN: ipu-demote-f64.mlir:[[# @LINE - 29]]:3: demoting container 'v' from f64 to f32
// WARN: ipu-demote-f64.mlir:[[# @LINE - 29]]:3: demoting container 's' from f64 to f32
// KEEP64: sdfg.container "v" : !sdfg.array<(N + 1) x f32>

// A comparison keeps its predicate (an i64 enum, not data): demoting it used to loop
// forever. Its i64 operands are demoted where they are made.
sdfg.sdfg @compare args ["k", "b"] symbols [] {
  %k = sdfg.container "k" : !sdfg.array<4 x i64>
  %b = sdfg.container "b" : !sdfg.array<4 x i64>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %x = sdfg.read %k[%i] : !sdfg.array<4 x i64>
      %r = sdfg.tasklet "t" ins(a = %x) outs(o) : (i64) -> (i64) {
      ^bb0(%a: i64):
        %zero = arith.constant 0 : i64
        %c = arith.cmpi sgt, %a, %zero : i64
        %n = arith.subi %zero, %a : i64
        %m = arith.select %c, %a, %n : i64
        sdfg.yield %m : i64
      }
      sdfg.write %r to %b[%i] : !sdfg.array<4 x i64>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @compare
// CHECK:         ^{{.*}}([[A:%.*]]: i32):
// CHECK-NEXT:      [[ZERO:%.*]] = arith.constant 0 : i32
// CHECK-NEXT:      [[C:%.*]] = arith.cmpi sgt, [[A]], [[ZERO]] : i32
// CHECK-NEXT:      [[N:%.*]] = arith.subi [[ZERO]], [[A]] : i32
// CHECK-NEXT:      arith.select [[C]], [[A]], [[N]] : i32

// Properties that are indices or shapes are not data and keep their i64: a reduction's
// dims (once [0, 0], its i64 bytes read as i32), alpha of a product, whose f64 operands
// become f32; the constants and reduction identities that are DaCe's identities of min
// and max, the 64-bit types' bounds, become the 32-bit types' bounds (other integers
// keep their low bits).
sdfg.sdfg @reduced args ["A", "B", "C", "s", "k"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<3 x 4 x f32>
  %B = sdfg.container "B" : !sdfg.array<4 x 3 x f64>
  %C = sdfg.container "C" : !sdfg.array<4 x 4 x f64>
  %s = sdfg.container "s" : !sdfg.array<4 x f32>
  %k = sdfg.container "k" : !sdfg.array<4 x i64>
  %m = sdfg.container "m" transient : !sdfg.array<f64>
  %n = sdfg.container "n" transient : !sdfg.array<i64>
  sdfg.state "s0" {
    sdfg.reduce "cols" add %A[0:3, 0:4] to %s[0:4] dims [0] : !sdfg.array<3 x 4 x f32>, !sdfg.array<4 x f32>
    sdfg.library_reduce "least" min %B[0:4, 0:3] to %m[] axes [0, 1] identity(1.7976931348623157e+308 : f64) : !sdfg.array<4 x 3 x f64>, !sdfg.array<f64>
    sdfg.library_reduce "most" max %k[0:4] to %n[] axes [0] identity(-9223372036854775808 : i64) : !sdfg.array<4 x i64>, !sdfg.array<i64>
    sdfg.matmul "mm" %B, transpose %B to %C alpha 2.0 : !sdfg.array<4 x 3 x f64>, !sdfg.array<4 x 3 x f64>, !sdfg.array<4 x 4 x f64>
  }
  sdfg.state "s1" {
    %r:4 = sdfg.tasklet "bounds" ins() outs(a, b, c, d) : () -> (f64, f64, i64, i64) {
      %hi = arith.constant 1.7976931348623157e+308 : f64
      %lo = arith.constant -1.7976931348623157e+308 : f64
      %imax = arith.constant 9223372036854775807 : i64
      %imin = arith.constant -9223372036854775808 : i64
      sdfg.yield %hi, %lo, %imax, %imin : f64, f64, i64, i64
    }
    sdfg.write %r#2 to %k[0] : !sdfg.array<4 x i64>
  }
}

// CHECK-LABEL: sdfg.sdfg @reduced
// CHECK:         sdfg.reduce "cols" add %A[0:3, 0:4] to %s[0:4] dims [0] : !sdfg.array<3 x 4 x f32>, !sdfg.array<4 x f32>
// CHECK-NEXT:    sdfg.library_reduce "least" min %B[0:4, 0:3] to %m[] axes [0, 1] identity(3.40282347e+38 : f32) : !sdfg.array<4 x 3 x f32>, !sdfg.array<f32>
// CHECK-NEXT:    sdfg.library_reduce "most" max %k[0:4] to %n[] axes [0] identity(-2147483648 : i32) : !sdfg.array<4 x i32>, !sdfg.array<i32>
// CHECK-NEXT:    sdfg.matmul "mm" %B, transpose %B to %C alpha 2.000000e+00 : !sdfg.array<4 x 3 x f32>, !sdfg.array<4 x 3 x f32>, !sdfg.array<4 x 4 x f32>
// CHECK:         arith.constant 3.40282347e+38 : f32
// CHECK-NEXT:    arith.constant -3.40282347e+38 : f32
// CHECK-NEXT:    arith.constant 2147483647 : i32
// CHECK-NEXT:    arith.constant -2147483648 : i32

// WARN: ipu-demote-f64.mlir:[[# @LINE - 34]]:3: demoting container 'B' from f64 to f32
// KEEP64: arith.constant 9223372036854775807 : i64

// At the tile level, views, dynamic slices and repeats keep their dims, sizes and
// counts; only the variables' element types change.
ipu.graph "slices" arch "ipu2" args ["A"] {
  %A = ipu.variable "A" mapping <0 to 2 x 6> : memref<4x3xf64>
  %row = ipu.variable "row" mapping <0 to 1 x 3> : memref<3xf64>
  %t = ipu.variable "t" mapping <0 to 1 x 1> : memref<i32>
  %T = ipu.view %A[0:4, 0:3] dims [1, 0] : memref<4x3xf64> -> memref<3x4xf64>
  ipu.repeat 3 {
    ipu.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : memref<4x3xf64>, memref<3xf64>
  }
}

// CHECK-LABEL: ipu.graph "slices"
// CHECK:         ipu.view %A[0:4, 0:3] dims [1, 0] : memref<4x3xf32> -> memref<3x4xf32>
// CHECK-NEXT:    ipu.repeat 3 {
// CHECK-NEXT:      ipu.dynamic_slice %A at [%t] dims [0] sizes [1] into %row : memref<4x3xf32>, memref<3xf32>

// A host program's `poplar.run 0` keeps its program index: converting that 0 : i64 used
// to loop forever (an IntegerAttr of value 0 is falsy, so xDSL's type conversion kept
// the old one and rebuilt the op again and again).
poplar.host_program @rows arch "ipu2" args ["A"] : [memref<12x4xf32>] build {
  %p = poplar.sequence()
  %loop = poplar.repeat 4 times %p
  poplar.engine %loop
} run {
  poplar.write_tensor "A" from "A"
  poplar.run 0
}

// CHECK-LABEL: poplar.host_program @rows
// CHECK:         poplar.repeat 4 times
// CHECK:         poplar.run 0

// The lit input of poplar-cpp-remote.mlir, 32-bit, prints the same C++ after the pass
// (on it too, the pass used to hang):
// RUN: ipu-opt %S/../targets/poplar-cpp-remote.mlir -t poplar-cpp > %t.direct.cpp
// RUN: ipu-opt %S/../targets/poplar-cpp-remote.mlir -p ipu-demote-f64 -t poplar-cpp | diff %t.direct.cpp -

// A constant's values are converted too (to the nearest float32, integers exactly), not
// reinterpreted as the type changes; with int64=false its i64 values stay.
sdfg.sdfg @constants args [] symbols [] {
  %t = sdfg.container "t" transient : !sdfg.array<2 x f64>
  %c = sdfg.container "c" transient : !sdfg.array<2 x f64> = dense<[0.1, -3.0e10]>
  %k = sdfg.container "k" transient : !sdfg.array<i64> = dense<-2147483648>
  sdfg.state "s" {
    sdfg.copy %c[0:2] to %t[0:2] : !sdfg.array<2 x f64>, !sdfg.array<2 x f64>
  }
}

// CHECK-LABEL: sdfg.sdfg @constants
// CHECK:         sdfg.container "c" transient : !sdfg.array<2 x f32> = dense<[1.000000e-01, -3.000000e+10]>
// CHECK-NEXT:    sdfg.container "k" transient : !sdfg.array<i32> = dense<-2147483648>
// KEEP64:        sdfg.container "c" transient : !sdfg.array<2 x f32> = dense<[1.000000e-01, -3.000000e+10]>
// KEEP64-NEXT:   sdfg.container "k" transient : !sdfg.array<i64> = dense<-2147483648>
