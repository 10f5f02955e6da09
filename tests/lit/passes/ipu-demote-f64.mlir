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
// CHECK:      builtin.module attributes {sdfg.declared_types = {promoted = {y = f64}, shifted = {v = f64, s = f64}, compare = {k = i64, b = i64}}} {
// KEEP64:     builtin.module attributes {sdfg.declared_types = {promoted = {y = f64}, shifted = {v = f64, s = f64}}} {
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
