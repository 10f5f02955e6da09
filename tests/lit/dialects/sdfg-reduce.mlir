// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of sdfg.reduce (a DaCe Reduce node that popops reduces) in the custom and
// the generic form: a whole array into one element, a static box over one dimension
// into a row of another array (its extent-1 dimension does not count), every kind,
// float16 and int32, an update, a discardable attribute.

sdfg.sdfg @reductions args ["A", "B", "k", "s", "r", "m"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %B = sdfg.container "B" : !sdfg.array<M x N x f16>
  %k = sdfg.container "k" : !sdfg.array<N x i32>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  %r = sdfg.container "r" : !sdfg.array<3 x N x f32>
  %m = sdfg.container "m" : !sdfg.array<M x f16>
  %t = sdfg.container "t" transient : !sdfg.array<i32>
  sdfg.state "s0" {
    sdfg.reduce "sum" add %A[0:M, 0:N] to %s[0:1] dims [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
    sdfg.reduce "acc" add %A[1:M - 1, 0:N] to %r[2:3, 0:N] dims [0] update {tag} : !sdfg.array<M x N x f32>, !sdfg.array<3 x N x f32>
    sdfg.reduce "rows" max %B[0:M, 0:N] to %m[0:M] dims [1] : !sdfg.array<M x N x f16>, !sdfg.array<M x f16>
    sdfg.reduce "least" min %k[0:N] to %t[] dims [0] : !sdfg.array<N x i32>, !sdfg.array<i32>
    sdfg.reduce "product" mul %B[0:M, 0:N] to %m[0:M] dims [1] : !sdfg.array<M x N x f16>, !sdfg.array<M x f16>
  }
}

// CHECK:      sdfg.reduce "sum" add %A[0:M, 0:N] to %s[0:1] dims [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
// CHECK-NEXT: sdfg.reduce "acc" add %A[1:M - 1, 0:N] to %r[2:3, 0:N] dims [0] update {tag} : !sdfg.array<M x N x f32>, !sdfg.array<3 x N x f32>
// CHECK-NEXT: sdfg.reduce "rows" max %B[0:M, 0:N] to %m[0:M] dims [1] : !sdfg.array<M x N x f16>, !sdfg.array<M x f16>
// CHECK-NEXT: sdfg.reduce "least" min %k[0:N] to %t[] dims [0] : !sdfg.array<N x i32>, !sdfg.array<i32>
// CHECK-NEXT: sdfg.reduce "product" mul %B[0:M, 0:N] to %m[0:M] dims [1] : !sdfg.array<M x N x f16>, !sdfg.array<M x f16>

// GENERIC: "sdfg.reduce"(%A, %s) <{label = "sum", kind = "add", dims = array<i64: 0, 1>, input_subset = [#sdfg.expr<0>, #sdfg.expr<M>, #sdfg.expr<0>, #sdfg.expr<N>], output_subset = [#sdfg.expr<0>, #sdfg.expr<1>]}> : (!sdfg.array<M x N x f32>, !sdfg.array<1 x f32>) -> ()
// GENERIC: "sdfg.reduce"(%A, %r) <{label = "acc", kind = "add", dims = array<i64: 0>, update, input_subset = [{{.*}}]}> {tag} :
