// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of sdfg.matmul in the custom and the generic form: a matrix by a
// matrix (symbolic sizes), by a vector, a vector by a matrix (float16), with a
// discardable attribute.

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
