// RUN: ipu-opt %s --split-input-file -p sdfg-choose-reductions | filecheck %s

// Each reduction gets its path: popops for one outside maps, of float32, float16 or
// int32 into the same type, that reduces a dimension of more than one element, into an
// output box no index operand moves, from a neutral identity unless it is a sum (and
// onto the output's value only from a neutral one or none), whose input is not padded;
// our tree for any other. A path already given stays.

sdfg.sdfg @popops args ["A", "B", "k", "s", "m", "n"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %B = sdfg.container "B" : !sdfg.array<M x N x f16>
  %k = sdfg.container "k" : !sdfg.array<N x i32>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  %m = sdfg.container "m" : !sdfg.array<M x f16>
  %n = sdfg.container "n" : !sdfg.array<i32>
  sdfg.for "l" %t = 0 to M step 1 {
    sdfg.state "s" {
      sdfg.library_reduce "sum" add %A[0:M, 0:N] to %s[0:1] axes [0, 1] identity(0.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "from_five" add %A[1:M - 1, 0:N] to %s[0:1] axes [0, 1] identity(5.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "onto" add %A[%t:%t + 1, 0:N] to %s[0:1] axes [0, 1] update : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "rows" max %B[0:M, 0:N] to %m[0:M] axes [1] identity(0xFC00 : f16) : !sdfg.array<M x N x f16>, !sdfg.array<M x f16>
      sdfg.library_reduce "least" min %k[0:N] to %n[] axes [0] identity(2147483647 : i32) : !sdfg.array<N x i32>, !sdfg.array<i32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @popops
// CHECK:       sdfg.library_reduce "sum" {{.*}} path "popops" :
// CHECK-NEXT:  sdfg.library_reduce "from_five" {{.*}} path "popops" :
// CHECK-NEXT:  sdfg.library_reduce "onto" {{.*}} update path "popops" :
// CHECK-NEXT:  sdfg.library_reduce "rows" {{.*}} path "popops" :
// CHECK-NEXT:  sdfg.library_reduce "least" {{.*}} path "popops" :

// -----

sdfg.sdfg @tree args ["A", "u", "s", "r", "b"] symbols ["M", "N"] {
  %A = sdfg.container "A" : !sdfg.array<M x N x f32>
  %u = sdfg.container "u" : !sdfg.array<N x ui8>
  %s = sdfg.container "s" : !sdfg.array<1 x f32>
  %r = sdfg.container "r" : !sdfg.array<M x f32>
  %b = sdfg.container "b" : !sdfg.array<ui8>
  %p = sdfg.container "p" transient : !sdfg.array<N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  sdfg.for "l" %i = 0 to M step 1 {
    sdfg.state "s" {
      sdfg.library_reduce "unsigned" add %u[0:N] to %b[] axes [0] identity(0 : ui8) : !sdfg.array<N x ui8>, !sdfg.array<ui8>
      sdfg.library_reduce "product_from_two" mul %A[0:M, 0:N] to %s[0:1] axes [0, 1] identity(2.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "product_onto" mul %A[0:M, 0:N] to %s[0:1] axes [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "five_onto" add %A[0:M, 0:N] to %s[0:1] axes [0, 1] identity(5.000000e+00 : f32) update : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "output_moves" add %A[%i:%i + 1, 0:N] to %r[%i:%i + 1] axes [1] identity(0.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<M x f32>
      sdfg.library_reduce "padded" add %p[0:N] to %s[0:1] axes [0] identity(0.000000e+00 : f32) padded : !sdfg.array<N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "one_element" add %A[0:1, 0:N] to %p[0:N] axes [0] identity(0.000000e+00 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<N x f32>
      sdfg.library_reduce "given" add %A[0:M, 0:N] to %s[0:1] axes [0, 1] identity(0.000000e+00 : f32) path "tree" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.map "m" (%j) = (0) to (M) step (1) {
        sdfg.library_reduce "in_map" add %A[%j:%j + 1, 0:N] to %t[] axes [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
      }
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @tree
// CHECK:       sdfg.library_reduce "unsigned" {{.*}} path "tree" :
// CHECK-NEXT:  sdfg.library_reduce "product_from_two" {{.*}} path "tree" :
// CHECK-NEXT:  sdfg.library_reduce "product_onto" {{.*}} path "tree" :
// CHECK-NEXT:  sdfg.library_reduce "five_onto" {{.*}} update path "tree" :
// CHECK-NEXT:  sdfg.library_reduce "output_moves" {{.*}} path "tree" :
// CHECK-NEXT:  sdfg.library_reduce "padded" {{.*}} padded path "tree" :
// CHECK-NEXT:  sdfg.library_reduce "one_element" {{.*}} path "tree" :
// CHECK-NEXT:  sdfg.library_reduce "given" {{.*}} path "tree" :
// CHECK:       sdfg.library_reduce "in_map" {{.*}} path "tree" :
