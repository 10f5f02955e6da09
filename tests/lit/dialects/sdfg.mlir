// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: ipu-opt %s --print-op-generic | ipu-opt --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=SCHEDULE

// Round trip of the sdfg dialect, in its custom and in the generic form. Sizes, ranges
// and subsets are #sdfg.expr index expressions, printed in their canonical form: `%i + 0`
// comes back as `%i`, `(N + 1) * 2` as `2 * N + 2`, `N * M` as `M * N`.

// Containers: every element type, symbolic and parenthesized dimensions, rank 0,
// transient. `x` and `f32` are symbols too when a dimension.

sdfg.sdfg @containers args ["A", "s", "B"] symbols ["N", "M", "x", "f32"] {
  %a = sdfg.container "A" : !sdfg.array<N x 4 x f32>
  %s = sdfg.container "s" : !sdfg.array<f64>
  %b = sdfg.container "B" : !sdfg.array<(N + 1) x M x f32>
  %t = sdfg.container "T" transient : !sdfg.array<((N + 1) * 2) x (M) x (4 + 0) x i32>
  %c1 = sdfg.container "c1" transient : !sdfg.array<i1>
  %c8 = sdfg.container "c8" transient : !sdfg.array<i8>
  %c16 = sdfg.container "c16" transient : !sdfg.array<i16>
  %u = sdfg.container "u" transient : !sdfg.array<2 x ui8>
  %u16 = sdfg.container "u16" transient : !sdfg.array<ui16>
  %u32 = sdfg.container "u32" transient : !sdfg.array<N x ui32>
  %c64 = sdfg.container "c64" transient : !sdfg.array<0 x i64>
  %h = sdfg.container "h" transient {note = "half"} : !sdfg.array<3 x f16>
  %x = sdfg.container "x" transient : !sdfg.array<x x f32>
  %f = sdfg.container "f" transient : !sdfg.array<f32 x f32>
  %nm = sdfg.container "nm" transient : !sdfg.array<(N * M) x (3 - 1) x (N - N) x f32>
  %m = sdfg.container "m" transient : !sdfg.array<(min(N, M) floordiv 2) x (N mod 4) x (max(M, 1)) x (N ceildiv 8) x f32>
  %st = sdfg.container "st" transient storage "IPU_Streaming" : !sdfg.array<N x 4 x f32>
  %tt = sdfg.container "tt" transient storage "IPU_Tile" {note = "tile"} : !sdfg.array<N x f32>
}

// CHECK-LABEL: sdfg.sdfg @containers args ["A", "s", "B"] symbols ["N", "M", "x", "f32"] {
// CHECK-NEXT:    %{{.*}} = sdfg.container "A" : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "s" : !sdfg.array<f64>
// CHECK-NEXT:    %{{.*}} = sdfg.container "B" : !sdfg.array<(N + 1) x M x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "T" transient : !sdfg.array<(2 * N + 2) x M x 4 x i32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c1" transient : !sdfg.array<i1>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c8" transient : !sdfg.array<i8>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c16" transient : !sdfg.array<i16>
// CHECK-NEXT:    %{{.*}} = sdfg.container "u" transient : !sdfg.array<2 x ui8>
// CHECK-NEXT:    %{{.*}} = sdfg.container "u16" transient : !sdfg.array<ui16>
// CHECK-NEXT:    %{{.*}} = sdfg.container "u32" transient : !sdfg.array<N x ui32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c64" transient : !sdfg.array<0 x i64>
// CHECK-NEXT:    %{{.*}} = sdfg.container "h" transient {note = "half"} : !sdfg.array<3 x f16>
// CHECK-NEXT:    %{{.*}} = sdfg.container "x" transient : !sdfg.array<x x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "f" transient : !sdfg.array<f32 x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "nm" transient : !sdfg.array<(M * N) x 2 x 0 x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "m" transient : !sdfg.array<(min(M, N) floordiv 2) x (N mod 4) x (max(1, M)) x (N ceildiv 8) x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "st" transient storage "IPU_Streaming" : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "tt" transient storage "IPU_Tile" {note = "tile"} : !sdfg.array<N x f32>
// CHECK-NEXT:  }

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "containers", arg_names = ["A", "s", "B"], symbols = ["N", "M", "x", "f32"]}> ({
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "A"}> : () -> !sdfg.array<N x 4 x f32>
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "s"}> : () -> !sdfg.array<f64>
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "B"}> : () -> !sdfg.array<(N + 1) x M x f32>
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "T", transient}> : () -> !sdfg.array<(2 * N + 2) x M x 4 x i32>
// GENERIC:         %{{.*}} = "sdfg.container"() <{container_name = "h", transient}> {note = "half"} : () -> !sdfg.array<3 x f16>
// GENERIC:         %{{.*}} = "sdfg.container"() <{container_name = "nm", transient}> : () -> !sdfg.array<(M * N) x 2 x 0 x f32>
// GENERIC:         %{{.*}} = "sdfg.container"() <{container_name = "st", transient, storage = "IPU_Streaming"}> : () -> !sdfg.array<N x 4 x f32>
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "tt", transient, storage = "IPU_Tile"}> {note = "tile"} : () -> !sdfg.array<N x f32>
// GENERIC:       }) : () -> ()

// Constants (DaCe's constants_prop): a transient with its values after the type, the
// dense type left out; a scalar, a 2-D array, every kind of element type. More than 100
// values print as one hex string (little-endian bytes), which parses back.

sdfg.sdfg @constants args ["B"] symbols [] {
  %B = sdfg.container "B" : !sdfg.array<2 x 2 x f32>
  %c = sdfg.container "c" transient : !sdfg.array<2 x 2 x f32> = dense<[[1.0, 2.0], [3.0, 4.5]]>
  %k = sdfg.container "k" transient {note = "scalar"} : !sdfg.array<i32> = dense<-7>
  %h = sdfg.container "h" transient : !sdfg.array<3 x f16> = dense<[0.5, 2.0, 65504.0]>
  %d = sdfg.container "d" transient : !sdfg.array<2 x f64> = dense<[0.1, 1.0e300]>
  %b = sdfg.container "b" transient : !sdfg.array<2 x i1> = dense<[true, false]>
  %u = sdfg.container "u" transient : !sdfg.array<2 x ui32> = dense<[1, 4000000000]>
  %s = sdfg.container "s" transient : !sdfg.array<3 x i8> = dense<5>
  %x = sdfg.container "x" transient : !sdfg.array<101 x i8> = dense<"0x0102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364FF">
  sdfg.state "s" {
    sdfg.copy %c[0:2, 0:2] to %B[0:2, 0:2] : !sdfg.array<2 x 2 x f32>, !sdfg.array<2 x 2 x f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @constants args ["B"] symbols [] {
// CHECK-NEXT:    %{{.*}} = sdfg.container "B" : !sdfg.array<2 x 2 x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c" transient : !sdfg.array<2 x 2 x f32> = dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.500000e+00]]>
// CHECK-NEXT:    %{{.*}} = sdfg.container "k" transient {note = "scalar"} : !sdfg.array<i32> = dense<-7>
// CHECK-NEXT:    %{{.*}} = sdfg.container "h" transient : !sdfg.array<3 x f16> = dense<[5.000000e-01, 2.000000e+00, 6.550400e+04]>
// CHECK-NEXT:    %{{.*}} = sdfg.container "d" transient : !sdfg.array<2 x f64> = dense<[1.000000e-01, 1.000000e+300]>
// CHECK-NEXT:    %{{.*}} = sdfg.container "b" transient : !sdfg.array<2 x i1> = dense<[true, false]>
// CHECK-NEXT:    %{{.*}} = sdfg.container "u" transient : !sdfg.array<2 x ui32> = dense<[1, 4000000000]>
// CHECK-NEXT:    %{{.*}} = sdfg.container "s" transient : !sdfg.array<3 x i8> = dense<5>
// CHECK-NEXT:    %{{.*}} = sdfg.container "x" transient : !sdfg.array<101 x i8> = dense<"0x0102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364FF">

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "constants", arg_names = ["B"], symbols = []}> ({
// GENERIC:         %{{.*}} = "sdfg.container"() <{container_name = "c", transient, value = dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.500000e+00]]> : tensor<2x2xf32>}> : () -> !sdfg.array<2 x 2 x f32>
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "k", transient, value = dense<-7> : tensor<i32>}> {note = "scalar"} : () -> !sdfg.array<i32>
// GENERIC:         %{{.*}} = "sdfg.container"() <{container_name = "x", transient, value = dense<"0x0102{{.*}}64FF"> : tensor<101xi8>}> : () -> !sdfg.array<101 x i8>

// #sdfg.expr attributes on their own (here discardable attributes of a state): the
// canonical form, with dimensions as d0, d1, ...
// Polynomials are sums of monomials (constant last); min and max sort their operands.

sdfg.sdfg @exprs args [] symbols ["N", "M"] {
  sdfg.state "s" attributes {
    e0 = #sdfg.expr<d0 + 0>,
    e1 = #sdfg.expr<(N + 1) * 2>,
    e2 = #sdfg.expr<N * M - M * N>,
    e3 = #sdfg.expr<(d0 + 1) * (d0 - 1)>,
    e4 = #sdfg.expr<3 - d1 + d0 * N>,
    e5 = #sdfg.expr<(N + 7) floordiv 8>,
    e6 = #sdfg.expr<N ceildiv (M + 1)>,
    e7 = #sdfg.expr<d0 mod 4 + 1>,
    e8 = #sdfg.expr<min(N, M) - max(d0, 0)>,
    e9 = #sdfg.expr<max(N, N)>,
    e10 = #sdfg.expr<7 floordiv -2 + (-7 mod 3) * 10 + min(3, 2) * 100>,
    e11 = #sdfg.expr<N floordiv 1 + N mod 1>,
    e12 = #sdfg.expr<-(-(N))>,
    e13 = #sdfg.expr<9223372036854775807>,
    e14 = #sdfg.expr<N floordiv 2 * 2>
  } {
  ^bb0:
  }
}

// CHECK-LABEL: sdfg.sdfg @exprs args [] symbols ["N", "M"] {
// CHECK-NEXT:    sdfg.state "s" attributes {
// CHECK-SAME:    e0 = #sdfg.expr<d0>,
// CHECK-SAME:    e1 = #sdfg.expr<2 * N + 2>,
// CHECK-SAME:    e2 = #sdfg.expr<0>,
// CHECK-SAME:    e3 = #sdfg.expr<d0 * d0 - 1>,
// CHECK-SAME:    e4 = #sdfg.expr<d0 * N - d1 + 3>,
// CHECK-SAME:    e5 = #sdfg.expr<((N + 7) floordiv 8)>,
// CHECK-SAME:    e6 = #sdfg.expr<(N ceildiv (M + 1))>,
// CHECK-SAME:    e7 = #sdfg.expr<(d0 mod 4) + 1>,
// CHECK-SAME:    e8 = #sdfg.expr<-max(0, d0) + min(M, N)>,
// CHECK-SAME:    e9 = #sdfg.expr<N>,
// CHECK-SAME:    e10 = #sdfg.expr<216>,
// CHECK-SAME:    e11 = #sdfg.expr<N>,
// CHECK-SAME:    e12 = #sdfg.expr<N>,
// CHECK-SAME:    e13 = #sdfg.expr<9223372036854775807>,
// CHECK-SAME:    e14 = #sdfg.expr<2 * (N floordiv 2)>
// CHECK-SAME:    } {

// States and maps: parameters are block arguments (one and two), symbolic bounds and
// steps, nested maps whose subsets mix the parameters of both, a nested map whose
// bounds use the enclosing parameters (operands, in order of first use), an empty map
// body, a DaCe schedule, a state with attributes and an empty state.

sdfg.sdfg @maps args ["A"] symbols ["N", "M"] {
  %a = sdfg.container "A" : !sdfg.array<N x M x f32>
  sdfg.state "one" {
    sdfg.map "m1" (%i) = (0) to (N) step (1) {
      %v = sdfg.read %a[%i, 0] : !sdfg.array<N x M x f32>
      sdfg.write %v to %a[%i, 1] : !sdfg.array<N x M x f32>
    }
  }
  sdfg.state "two" attributes {bound = #sdfg.expr<N + 1>, count = #sdfg.expr<4>} {
    sdfg.map "m2" (%p, %q) = (1, M - 1) to (N - 1, M) step (2, M) {
      sdfg.map "inner" (%k) = (-1) to (N floordiv 2 + 1) step (1) {
        %v = sdfg.read %a[%p + %k, %q - 0] : !sdfg.array<N x M x f32>
        sdfg.write %v to %a[%k + %p, %q] : !sdfg.array<N x M x f32>
      }
      sdfg.map "band" (%b) = (%q - 1) to (%p + 1 + %q) step (1) {
      }
    }
    sdfg.map "empty" (%e) = (0) to (4) step (1) {
    }
    sdfg.map "workers" (%w) = (0) to (4) step (1) schedule "IPU_Workers" {
    }
  }
  sdfg.state "empty" {
  ^bb0:
  }
}

// CHECK-LABEL: sdfg.sdfg @maps args ["A"] symbols ["N", "M"] {
// CHECK-NEXT:    [[A:%.*]] = sdfg.container "A" : !sdfg.array<N x M x f32>
// CHECK-NEXT:    sdfg.state "one" {
// CHECK-NEXT:      sdfg.map "m1" ([[I:%.*]]) = (0) to (N) step (1) {
// CHECK-NEXT:        [[V:%.*]] = sdfg.read [[A]][[[I]], 0] : !sdfg.array<N x M x f32>
// CHECK-NEXT:        sdfg.write [[V]] to [[A]][[[I]], 1] : !sdfg.array<N x M x f32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.state "two" attributes {bound = #sdfg.expr<N + 1>, count = #sdfg.expr<4>} {
// CHECK-NEXT:      sdfg.map "m2" ([[P:%.*]], [[Q:%.*]]) = (1, M - 1) to (N - 1, M) step (2, M) {
// CHECK-NEXT:        sdfg.map "inner" ([[K:%.*]]) = (-1) to ((N floordiv 2) + 1) step (1) {
// CHECK-NEXT:          [[W:%.*]] = sdfg.read [[A]][[[P]] + [[K]], [[Q]]] : !sdfg.array<N x M x f32>
// CHECK-NEXT:          sdfg.write [[W]] to [[A]][[[K]] + [[P]], [[Q]]] : !sdfg.array<N x M x f32>
// CHECK-NEXT:        }
// CHECK-NEXT:        sdfg.map "band" (%{{.*}}) = ([[Q]] - 1) to ([[Q]] + [[P]] + 1) step (1) {
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.map "empty" (%{{.*}}) = (0) to (4) step (1) {
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.map "workers" (%{{.*}}) = (0) to (4) step (1) schedule "IPU_Workers" {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.state "empty" {
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// In the generic form the parameters are the entry block's arguments, and the index
// operands of a memlet follow its container in order of first use: `%k + %p` is d0 + d1
// over (%k, %p).

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "maps", arg_names = ["A"], symbols = ["N", "M"]}> ({
// GENERIC:         "sdfg.state"() <{label = "one"}> ({
// GENERIC-NEXT:      "sdfg.map"() <{label = "m1", lower = [#sdfg.expr<0>], upper = [#sdfg.expr<N>], step = [#sdfg.expr<1>]}> ({
// GENERIC-NEXT:      ^{{.*}}([[I:%.*]]: index):
// GENERIC-NEXT:        %{{.*}} = "sdfg.read"(%{{.*}}, [[I]]) <{subset = [#sdfg.expr<d0>, #sdfg.expr<0>]}> : (!sdfg.array<N x M x f32>, index) -> f32
// GENERIC-NEXT:        "sdfg.write"(%{{.*}}, %{{.*}}, [[I]]) <{subset = [#sdfg.expr<d0>, #sdfg.expr<1>]}> : (f32, !sdfg.array<N x M x f32>, index) -> ()
// GENERIC:         "sdfg.state"() <{label = "two"}> ({
// GENERIC-NEXT:      "sdfg.map"() <{label = "m2", lower = [#sdfg.expr<1>, #sdfg.expr<M - 1>], upper = [#sdfg.expr<N - 1>, #sdfg.expr<M>], step = [#sdfg.expr<2>, #sdfg.expr<M>]}> ({
// GENERIC-NEXT:      ^{{.*}}([[P:%.*]]: index, [[Q:%.*]]: index):
// GENERIC-NEXT:        "sdfg.map"() <{label = "inner", lower = [#sdfg.expr<-1>], upper = [#sdfg.expr<(N floordiv 2) + 1>], step = [#sdfg.expr<1>]}> ({
// GENERIC-NEXT:        ^{{.*}}([[K:%.*]]: index):
// GENERIC-NEXT:          %{{.*}} = "sdfg.read"(%{{.*}}, [[P]], [[K]], [[Q]]) <{subset = [#sdfg.expr<d0 + d1>, #sdfg.expr<d2>]}> : (!sdfg.array<N x M x f32>, index, index, index) -> f32
// GENERIC-NEXT:          "sdfg.write"(%{{.*}}, %{{.*}}, [[K]], [[P]], [[Q]]) <{subset = [#sdfg.expr<d0 + d1>, #sdfg.expr<d2>]}> : (f32, !sdfg.array<N x M x f32>, index, index, index) -> ()
// GENERIC:             "sdfg.map"([[Q]], [[P]]) <{label = "band", lower = [#sdfg.expr<d0 - 1>], upper = [#sdfg.expr<d0 + d1 + 1>], step = [#sdfg.expr<1>]}> ({
// GENERIC:             "sdfg.map"() <{label = "empty", lower = [#sdfg.expr<0>], upper = [#sdfg.expr<4>], step = [#sdfg.expr<1>]}> ({
// GENERIC-NEXT:      ^{{.*}}(%{{.*}}: index):
// GENERIC-NEXT:      }) : () -> ()
// GENERIC:         }) {bound = #sdfg.expr<N + 1>, count = #sdfg.expr<4>} : () -> ()

// Memlets: scalar `[]` reads and writes, constant, offset and negative indices,
// multi-dimensional subsets with offsets, floordiv/mod/min/max of the parameters, and
// copies between boxes (rank 0 included) with and without attributes.

sdfg.sdfg @memlets args ["A", "s", "B"] symbols ["N"] {
  %a = sdfg.container "A" : !sdfg.array<N x 4 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  %b = sdfg.container "B" : !sdfg.array<(N + 1) x 4 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (N, 4) step (1, 1) {
      %x = sdfg.read %s[] : !sdfg.array<f32>
      %y = sdfg.read %a[%i + 0, 3] {tag} : !sdfg.array<N x 4 x f32>
      %z = sdfg.read %b[%i + 1, -1] : !sdfg.array<(N + 1) x 4 x f32>
      %w = sdfg.read %b[(%j + 1) * 2 - %j, %i mod 4] : !sdfg.array<(N + 1) x 4 x f32>
      %u = sdfg.read %a[min(%i, N - 1), max(%j - 1, 0) floordiv 2] : !sdfg.array<N x 4 x f32>
      %n = sdfg.read %a[%i - 1, %j + 1] : !sdfg.array<N x 4 x f32>
      sdfg.write %x to %t[] : !sdfg.array<f32>
      sdfg.write %y to %b[N - %i, 2 * 1] {tag = 1 : i32} : !sdfg.array<(N + 1) x 4 x f32>
    }
    sdfg.copy %a[0:N, 1:2 + 1] to %b[1:N + 1, 0:2] : !sdfg.array<N x 4 x f32>, !sdfg.array<(N + 1) x 4 x f32>
    sdfg.copy %s[] to %t[] {tag} : !sdfg.array<f32>, !sdfg.array<f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @memlets args ["A", "s", "B"] symbols ["N"] {
// CHECK-NEXT:    [[A:%.*]] = sdfg.container "A" : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:    [[S:%.*]] = sdfg.container "s" : !sdfg.array<f32>
// CHECK-NEXT:    [[B:%.*]] = sdfg.container "B" : !sdfg.array<(N + 1) x 4 x f32>
// CHECK-NEXT:    [[T:%.*]] = sdfg.container "t" transient : !sdfg.array<f32>
// CHECK-NEXT:    sdfg.state "s" {
// CHECK-NEXT:      sdfg.map "m" ([[I:%.*]], [[J:%.*]]) = (0, 0) to (N, 4) step (1, 1) {
// CHECK-NEXT:        [[X:%.*]] = sdfg.read [[S]][] : !sdfg.array<f32>
// CHECK-NEXT:        [[Y:%.*]] = sdfg.read [[A]][[[I]], 3] {tag} : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:        %{{.*}} = sdfg.read [[B]][[[I]] + 1, -1] : !sdfg.array<(N + 1) x 4 x f32>
// CHECK-NEXT:        %{{.*}} = sdfg.read [[B]][[[J]] + 2, ([[I]] mod 4)] : !sdfg.array<(N + 1) x 4 x f32>
// CHECK-NEXT:        %{{.*}} = sdfg.read [[A]][min(N - 1, [[I]]), (max(0, [[J]] - 1) floordiv 2)] : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:        %{{.*}} = sdfg.read [[A]][[[I]] - 1, [[J]] + 1] : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:        sdfg.write [[X]] to [[T]][] : !sdfg.array<f32>
// CHECK-NEXT:        sdfg.write [[Y]] to [[B]][-[[I]] + N, 2] {tag = 1 : i32} : !sdfg.array<(N + 1) x 4 x f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.copy [[A]][0:N, 1:3] to [[B]][1:N + 1, 0:2] : !sdfg.array<N x 4 x f32>, !sdfg.array<(N + 1) x 4 x f32>
// CHECK-NEXT:      sdfg.copy [[S]][] to [[T]][] {tag} : !sdfg.array<f32>, !sdfg.array<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "memlets", arg_names = ["A", "s", "B"], symbols = ["N"]}> ({
// GENERIC:         ^{{.*}}([[I:%.*]]: index, [[J:%.*]]: index):
// GENERIC-NEXT:      %{{.*}} = "sdfg.read"(%{{.*}}) <{subset = []}> : (!sdfg.array<f32>) -> f32
// GENERIC-NEXT:      %{{.*}} = "sdfg.read"(%{{.*}}, [[I]]) <{subset = [#sdfg.expr<d0>, #sdfg.expr<3>]}> {tag} : (!sdfg.array<N x 4 x f32>, index) -> f32
// GENERIC-NEXT:      %{{.*}} = "sdfg.read"(%{{.*}}, [[I]]) <{subset = [#sdfg.expr<d0 + 1>, #sdfg.expr<-1>]}> : (!sdfg.array<(N + 1) x 4 x f32>, index) -> f32
// GENERIC-NEXT:      %{{.*}} = "sdfg.read"(%{{.*}}, [[J]], [[I]]) <{subset = [#sdfg.expr<d0 + 2>, #sdfg.expr<(d1 mod 4)>]}> : (!sdfg.array<(N + 1) x 4 x f32>, index, index) -> f32
// GENERIC-NEXT:      %{{.*}} = "sdfg.read"(%{{.*}}, [[I]], [[J]]) <{subset = [#sdfg.expr<min(N - 1, d0)>, #sdfg.expr<(max(0, d1 - 1) floordiv 2)>]}> : (!sdfg.array<N x 4 x f32>, index, index) -> f32
// GENERIC-NEXT:      %{{.*}} = "sdfg.read"(%{{.*}}, [[I]], [[J]]) <{subset = [#sdfg.expr<d0 - 1>, #sdfg.expr<d1 + 1>]}> : (!sdfg.array<N x 4 x f32>, index, index) -> f32
// GENERIC-NEXT:      "sdfg.write"(%{{.*}}, %{{.*}}) <{subset = []}> : (f32, !sdfg.array<f32>) -> ()
// GENERIC-NEXT:      "sdfg.write"(%{{.*}}, %{{.*}}, [[I]]) <{subset = [#sdfg.expr<-d0 + N>, #sdfg.expr<2>]}> {tag = 1 : i32} : (f32, !sdfg.array<(N + 1) x 4 x f32>, index) -> ()
// GENERIC:         "sdfg.copy"(%{{.*}}, %{{.*}}) <{source_subset = [#sdfg.expr<0>, #sdfg.expr<N>, #sdfg.expr<1>, #sdfg.expr<3>], destination_subset = [#sdfg.expr<1>, #sdfg.expr<N + 1>, #sdfg.expr<0>, #sdfg.expr<2>]}> : (!sdfg.array<N x 4 x f32>, !sdfg.array<(N + 1) x 4 x f32>) -> ()
// GENERIC-NEXT:    "sdfg.copy"(%{{.*}}, %{{.*}}) <{source_subset = [], destination_subset = []}> {tag} : (!sdfg.array<f32>, !sdfg.array<f32>) -> ()

// Tasklets: several inputs and outputs with an arith/math body, no input (a constant),
// no output (an empty yield), and a tasklet directly in a state.

sdfg.sdfg @tasklets args ["A", "B", "C"] symbols ["N"] {
  %a = sdfg.container "A" : !sdfg.array<N x f32>
  %b = sdfg.container "B" : !sdfg.array<N x i32>
  %c = sdfg.container "C" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %x = sdfg.read %a[%i] : !sdfg.array<N x f32>
      %n = sdfg.read %b[%i] : !sdfg.array<N x i32>
      %k = sdfg.tasklet "const" ins() outs(__out) : () -> (f32) {
        %one = arith.constant 1.000000e+00 : f32
        sdfg.yield %one : f32
      }
      %r:2 = sdfg.tasklet "body" ins(__in1 = %x, __in2 = %n, k = %k) outs(y, m) : (f32, i32, f32) -> (f32, i32) {
      ^bb0(%p: f32, %q: i32, %w: f32):
        %sq = math.sqrt %p : f32
        %e = math.exp %sq : f32
        %f = arith.sitofp %q : i32 to f32
        %s = arith.addf %e, %f : f32
        %t = arith.mulf %s, %w : f32
        %c0 = arith.constant 0 : i32
        %mx = arith.maxsi %q, %c0 : i32
        sdfg.yield %t, %mx : f32, i32
      }
      sdfg.write %r#0 to %c[%i] : !sdfg.array<N x f32>
      sdfg.write %r#1 to %b[%i] : !sdfg.array<N x i32>
    }
    sdfg.tasklet "side" ins() outs() : () -> () {
      sdfg.yield
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @tasklets args ["A", "B", "C"] symbols ["N"] {
// CHECK:           [[X:%.*]] = sdfg.read %{{.*}}[[[I:%.*]]] : !sdfg.array<N x f32>
// CHECK-NEXT:      [[N:%.*]] = sdfg.read %{{.*}}[[[I]]] : !sdfg.array<N x i32>
// CHECK-NEXT:      [[K:%.*]] = sdfg.tasklet "const" ins() outs(__out) : () -> (f32) {
// CHECK-NEXT:        [[ONE:%.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:        sdfg.yield [[ONE]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      [[R0:%.*]], [[R1:%.*]] = sdfg.tasklet "body" ins(__in1 = [[X]], __in2 = [[N]], k = [[K]]) outs(y, m) : (f32, i32, f32) -> (f32, i32) {
// CHECK-NEXT:      ^{{.*}}([[P:%.*]]: f32, [[Q:%.*]]: i32, [[W:%.*]]: f32):
// CHECK-NEXT:        [[SQ:%.*]] = math.sqrt [[P]] : f32
// CHECK-NEXT:        [[E:%.*]] = math.exp [[SQ]] : f32
// CHECK-NEXT:        [[F:%.*]] = arith.sitofp [[Q]] : i32 to f32
// CHECK-NEXT:        [[S:%.*]] = arith.addf [[E]], [[F]] : f32
// CHECK-NEXT:        [[T:%.*]] = arith.mulf [[S]], [[W]] : f32
// CHECK-NEXT:        [[C0:%.*]] = arith.constant 0 : i32
// CHECK-NEXT:        [[MX:%.*]] = arith.maxsi [[Q]], [[C0]] : i32
// CHECK-NEXT:        sdfg.yield [[T]], [[MX]] : f32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.write [[R0]] to %{{.*}}[[[I]]] : !sdfg.array<N x f32>
// CHECK-NEXT:      sdfg.write [[R1]] to %{{.*}}[[[I]]] : !sdfg.array<N x i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.tasklet "side" ins() outs() : () -> () {
// CHECK-NEXT:      sdfg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT: }

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "tasklets", arg_names = ["A", "B", "C"], symbols = ["N"]}> ({
// GENERIC:         %{{.*}} = "sdfg.tasklet"() <{label = "const", in_connectors = [], out_connectors = ["__out"]}> ({
// GENERIC:           "sdfg.yield"(%{{.*}}) : (f32) -> ()
// GENERIC-NEXT:    }) : () -> f32
// GENERIC-NEXT:    %{{.*}}, %{{.*}} = "sdfg.tasklet"(%{{.*}}, %{{.*}}, %{{.*}}) <{label = "body", in_connectors = ["__in1", "__in2", "k"], out_connectors = ["y", "m"]}> ({
// GENERIC:           "sdfg.yield"(%{{.*}}, %{{.*}}) : (f32, i32) -> ()
// GENERIC-NEXT:    }) : (f32, i32, f32) -> (f32, i32)
// GENERIC:         "sdfg.tasklet"() <{label = "side", in_connectors = [], out_connectors = []}> ({
// GENERIC-NEXT:      "sdfg.yield"() : () -> ()
// GENERIC-NEXT:    }) : () -> ()

// -----
// Discardable attributes and non-identifier symbol names survive the custom form.

// RUN: ipu-opt %s --split-input-file | filecheck %s --check-prefix=ATTRS
sdfg.sdfg @"a-b" args [] symbols [] attributes {keep = 1 : i32} {
  %t = sdfg.container "t" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (4) step (1) attributes {note = "x"} {
      %r = sdfg.tasklet "k" ins() outs(o) : () -> (f32) attributes {fast} {
        %c = arith.constant 1.0 : f32
        sdfg.yield %c : f32
      }
      sdfg.write %r to %t[%i] : !sdfg.array<4 x f32>
    }
  }
}
// ATTRS: sdfg.sdfg @"a-b" args [] symbols [] attributes {keep = 1 : i32} {
// ATTRS: sdfg.map "m" (%i) = (0) to (4) step (1) attributes {note = "x"} {
// ATTRS: sdfg.tasklet "k" ins() outs(o) : () -> (f32) attributes {fast} {

// The schedule is a property of the map in the generic form.
// SCHEDULE: "sdfg.map"() <{label = "workers", lower = [#sdfg.expr<0>], upper = [#sdfg.expr<4>], step = [#sdfg.expr<1>], schedule = "IPU_Workers"}>
