// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of sdfg.library_reduce (DaCe's Reduce node as the SDFG holds it) in the
// custom and the generic form: in a state and in a map, boxes over a map parameter and a
// loop variable, an integer, unsigned, float and float16 identity, none, update, padded,
// each path, a discardable attribute; any element type, the input's other than the
// output's.

sdfg.sdfg @reductions args ["A", "s", "r", "u", "b", "h"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  %r = sdfg.container "r" : !sdfg.array<M x f32>
  %u = sdfg.container "u" : !sdfg.array<N x ui8>
  %b = sdfg.container "b" : !sdfg.array<i32>
  %h = sdfg.container "h" : !sdfg.array<N x f16>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  %v = sdfg.container "v" transient : !sdfg.array<ui8>
  %g = sdfg.container "g" transient : !sdfg.array<f16>
  sdfg.state "s0" {
    sdfg.library_reduce "sum" add %A[0:M, 0:N] to %s[0:1] axes [0, 1] identity(0.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
    sdfg.library_reduce "least" min %u[1:N - 1] to %v[] axes [0] identity(255 : ui8) update padded path "tree" {tag} : !sdfg.array<N x ui8>, !sdfg.array<ui8>
    sdfg.library_reduce "widening" add %u[0:N] to %b[] axes [0] identity(0 : i32) : !sdfg.array<N x ui8>, !sdfg.array<i32>
    sdfg.library_reduce "halves" max %h[0:N] to %g[] axes [0] identity(0xfc00 : f16) path "popops" : !sdfg.array<N x f16>, !sdfg.array<f16>
    sdfg.map "m" (%i) = (0) to (M) step (1) {
      sdfg.library_reduce "row" mul %A[%i:%i + 1, 0:N] to %t[] axes [0, 1] identity(1.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    }
  }
  sdfg.for "l" %k = 0 to M step 1 {
    sdfg.state "s1" {
      sdfg.library_reduce "moving" add %A[%k:%k + 1, 0:N] to %r[%k:%k + 1] axes [1] path "tree" : !sdfg.array<M x N x f32>, !sdfg.array<M x f32>
    }
  }
}

// CHECK:      sdfg.library_reduce "sum" add %A[0:M, 0:N] to %s[0:1] axes [0, 1] identity(0.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
// CHECK-NEXT: sdfg.library_reduce "least" min %u[1:N - 1] to %v[] axes [0] identity(255 : ui8) update padded path "tree" {tag} : !sdfg.array<N x ui8>, !sdfg.array<ui8>
// CHECK-NEXT: sdfg.library_reduce "widening" add %u[0:N] to %b[] axes [0] identity(0 : i32) : !sdfg.array<N x ui8>, !sdfg.array<i32>
// CHECK-NEXT: sdfg.library_reduce "halves" max %h[0:N] to %g[] axes [0] identity(0xfc00 : f16) path "popops" : !sdfg.array<N x f16>, !sdfg.array<f16>
// CHECK-NEXT: sdfg.map "m" (%i) = (0) to (M) step (1) {
// CHECK-NEXT:   sdfg.library_reduce "row" mul %A[%i:%i + 1, 0:N] to %t[] axes [0, 1] identity(1.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<f32>
// CHECK:      sdfg.library_reduce "moving" add %A[%k:%k + 1, 0:N] to %r[%k:%k + 1] axes [1] path "tree" : !sdfg.array<M x N x f32>, !sdfg.array<M x f32>

// GENERIC: "sdfg.library_reduce"(%A, %s) <{label = "sum", kind = "add", input_subset = [#sdfg.expr<0>, #sdfg.expr<M>, #sdfg.expr<0>, #sdfg.expr<N>], output_subset = [#sdfg.expr<0>, #sdfg.expr<1>], axes = array<i64: 0, 1>, identity = 0.000000e+00 : f32}> : (!sdfg.array<M x N x f32>, !sdfg.array<1 x f32>) -> ()
// GENERIC: "sdfg.library_reduce"(%u, %v) <{label = "least", kind = "min", input_subset = [#sdfg.expr<1>, #sdfg.expr<N - 1>], output_subset = [], axes = array<i64: 0>, identity = 255 : ui8, update, padded, path = "tree"}> {tag} : (!sdfg.array<N x ui8>, !sdfg.array<ui8>) -> ()
// GENERIC: "sdfg.library_reduce"(%A, %t, %i) <{label = "row", kind = "mul", input_subset = [#sdfg.expr<d0>, #sdfg.expr<d0 + 1>, #sdfg.expr<0>, #sdfg.expr<N>], output_subset = [], axes = array<i64: 0, 1>, identity = 1.000000e+00 : f32}> : (!sdfg.array<M x N x f32>, !sdfg.array<f32>, index) -> ()
