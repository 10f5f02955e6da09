// RUN: ipu-opt %s --split-input-file | ipu-opt --split-input-file | filecheck %s
// RUN: ipu-opt %s --split-input-file --print-op-generic | ipu-opt --split-input-file | filecheck %s
// RUN: ipu-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of sdfg.matmul in the custom and the generic form: a matrix by a
// matrix (symbolic sizes), by a vector, a vector by a matrix (float16), with a
// discardable attribute; then gemm's alpha, beta and transposes, boxes of containers
// (a fixed index drops its dimension: %B[0:K, 2] is a column), a dot product into a
// scalar and a batched (grouped) product.

sdfg.sdfg @products args ["A", "B", "x", "C", "y", "h", "H"] symbols ["M", "K", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x K x f32>
  %B = sdfg.container "B" : !sdfg.array<K x N x f32>
  %x = sdfg.container "x" : !sdfg.array<K x f32>
  %C = sdfg.container "C" : !sdfg.array<M x N x f32>
  %y = sdfg.container "y" : !sdfg.array<M x f32>
  %h = sdfg.container "h" : !sdfg.array<3 x f16>
  %H = sdfg.container "H" : !sdfg.array<3 x 5 x f16>
  %z = sdfg.container "z" transient : !sdfg.array<5 x f16>
  sdfg.state "s0" {
    sdfg.matmul "mm" %A, %B to %C : !sdfg.array<M x K x f32>, !sdfg.array<K x N x f32>, !sdfg.array<M x N x f32>
    sdfg.matmul "mv" %A, %x to %y {tag} : !sdfg.array<M x K x f32>, !sdfg.array<K x f32>, !sdfg.array<M x f32>
    sdfg.matmul "vm" %h, %H to %z : !sdfg.array<3 x f16>, !sdfg.array<3 x 5 x f16>, !sdfg.array<5 x f16>
  }
}

// CHECK:      sdfg.matmul "mm" %A, %B to %C : !sdfg.array<M x K x f32>, !sdfg.array<K x N x f32>, !sdfg.array<M x N x f32>
// CHECK-NEXT: sdfg.matmul "mv" %A, %x to %y {tag} : !sdfg.array<M x K x f32>, !sdfg.array<K x f32>, !sdfg.array<M x f32>
// CHECK-NEXT: sdfg.matmul "vm" %h, %H to %z : !sdfg.array<3 x f16>, !sdfg.array<3 x 5 x f16>, !sdfg.array<5 x f16>

// GENERIC: "sdfg.matmul"(%A, %B, %C) <{label = "mm"}> : (!sdfg.array<M x K x f32>, !sdfg.array<K x N x f32>, !sdfg.array<M x N x f32>) -> ()
// GENERIC: "sdfg.matmul"(%A, %x, %y) <{label = "mv"}> {tag} : (!sdfg.array<M x K x f32>, !sdfg.array<K x f32>, !sdfg.array<M x f32>) -> ()

// -----

sdfg.sdfg @blas args ["A", "B", "C", "x", "G", "H", "P"] symbols ["M", "K", "N"] {
  %A = sdfg.container "A" : !sdfg.array<K x M x f32>
  %B = sdfg.container "B" : !sdfg.array<K x N x f32>
  %C = sdfg.container "C" : !sdfg.array<M x N x f32>
  %x = sdfg.container "x" : !sdfg.array<K x f32>
  %G = sdfg.container "G" : !sdfg.array<2 x 3 x 4 x f16>
  %H = sdfg.container "H" : !sdfg.array<2 x 5 x 4 x f16>
  %P = sdfg.container "P" : !sdfg.array<2 x 3 x 5 x f16>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.matmul "gemm" transpose %A, %B to %C alpha 2.0 beta -0.5 : !sdfg.array<K x M x f32>, !sdfg.array<K x N x f32>, !sdfg.array<M x N x f32>
    sdfg.matmul "box" transpose %A[0:K, 1:3], %B to %C[0:2, 0:N] beta 1 : !sdfg.array<K x M x f32>, !sdfg.array<K x N x f32>, !sdfg.array<M x N x f32>
    sdfg.matmul "dot" %x, %B[0:K, 2] to %s : !sdfg.array<K x f32>, !sdfg.array<K x N x f32>, !sdfg.array<f32>
    sdfg.matmul "bmm" %G, transpose %H to %P : !sdfg.array<2 x 3 x 4 x f16>, !sdfg.array<2 x 5 x 4 x f16>, !sdfg.array<2 x 3 x 5 x f16>
  }
}

// CHECK:      sdfg.matmul "gemm" transpose %A, %B to %C alpha 2.000000e+00 beta -5.000000e-01 : !sdfg.array<K x M x f32>, !sdfg.array<K x N x f32>, !sdfg.array<M x N x f32>
// CHECK-NEXT: sdfg.matmul "box" transpose %A[0:K, 1:3], %B to %C[0:2, 0:N] beta 1.000000e+00 : !sdfg.array<K x M x f32>, !sdfg.array<K x N x f32>, !sdfg.array<M x N x f32>
// CHECK-NEXT: sdfg.matmul "dot" %x, %B[0:K, 2] to %s : !sdfg.array<K x f32>, !sdfg.array<K x N x f32>, !sdfg.array<f32>
// CHECK-NEXT: sdfg.matmul "bmm" %G, transpose %H to %P : !sdfg.array<2 x 3 x 4 x f16>, !sdfg.array<2 x 5 x 4 x f16>, !sdfg.array<2 x 3 x 5 x f16>

// GENERIC: "sdfg.matmul"(%A, %B, %C) <{label = "gemm", alpha = 2.000000e+00 : f64, beta = -5.000000e-01 : f64, transpose_a}>
// GENERIC: "sdfg.matmul"(%A, %B, %C) <{label = "box", lhs_box = {{\[}}[#sdfg.expr<0>, #sdfg.expr<K>], [#sdfg.expr<1>, #sdfg.expr<3>]], out_box = {{\[}}[#sdfg.expr<0>, #sdfg.expr<2>], [#sdfg.expr<0>, #sdfg.expr<N>]], beta = 1.000000e+00 : f64, transpose_a}>
// GENERIC: "sdfg.matmul"(%x, %B, %s) <{label = "dot", rhs_box = {{\[}}[#sdfg.expr<0>, #sdfg.expr<K>], [#sdfg.expr<2>]]}>
// GENERIC: "sdfg.matmul"(%G, %H, %P) <{label = "bmm", transpose_b}>
