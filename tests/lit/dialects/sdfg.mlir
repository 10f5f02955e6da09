// RUN: ipu-opt %s | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | ipu-opt | filecheck %s
// RUN: ipu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the sdfg dialect, in its custom and in the generic form. Symbolic
// expressions print bare when they are an integer or an identifier and quoted otherwise,
// so `"4"` and `"N"` come back as `4` and `N`.

// Containers: every element type, symbolic and quoted dimensions, rank 0, transient.

sdfg.sdfg @containers args ["A", "s", "B"] symbols ["N", "M"] {
  %a = sdfg.container "A" : !sdfg.array<N x 4 x f32>
  %s = sdfg.container "s" : !sdfg.array<f64>
  %b = sdfg.container "B" : !sdfg.array<"N + 1" x M x f32>
  %t = sdfg.container "T" transient : !sdfg.array<"2 * N" x "M" x "4" x i32>
  %c1 = sdfg.container "c1" transient : !sdfg.array<i1>
  %c8 = sdfg.container "c8" transient : !sdfg.array<i8>
  %c16 = sdfg.container "c16" transient : !sdfg.array<i16>
  %c64 = sdfg.container "c64" transient : !sdfg.array<0 x i64>
  %h = sdfg.container "h" transient {note = "half"} : !sdfg.array<3 x f16>
  %x = sdfg.container "x" transient : !sdfg.array<x x f32>
  %f = sdfg.container "f" transient : !sdfg.array<f32 x f32>
  %m = sdfg.container "m" transient : !sdfg.array<"Min(N, M) // 2" x f32>
}

// CHECK-LABEL: sdfg.sdfg @containers args ["A", "s", "B"] symbols ["N", "M"] {
// CHECK-NEXT:    %{{.*}} = sdfg.container "A" : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "s" : !sdfg.array<f64>
// CHECK-NEXT:    %{{.*}} = sdfg.container "B" : !sdfg.array<"N + 1" x M x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "T" transient : !sdfg.array<"2 * N" x M x 4 x i32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c1" transient : !sdfg.array<i1>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c8" transient : !sdfg.array<i8>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c16" transient : !sdfg.array<i16>
// CHECK-NEXT:    %{{.*}} = sdfg.container "c64" transient : !sdfg.array<0 x i64>
// CHECK-NEXT:    %{{.*}} = sdfg.container "h" transient {note = "half"} : !sdfg.array<3 x f16>
// CHECK-NEXT:    %{{.*}} = sdfg.container "x" transient : !sdfg.array<x x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "f" transient : !sdfg.array<f32 x f32>
// CHECK-NEXT:    %{{.*}} = sdfg.container "m" transient : !sdfg.array<"Min(N, M) // 2" x f32>
// CHECK-NEXT:  }

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "containers", arg_names = ["A", "s", "B"], symbols = ["N", "M"]}> ({
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "A"}> : () -> !sdfg.array<N x 4 x f32>
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "s"}> : () -> !sdfg.array<f64>
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "B"}> : () -> !sdfg.array<"N + 1" x M x f32>
// GENERIC-NEXT:    %{{.*}} = "sdfg.container"() <{container_name = "T", transient}> : () -> !sdfg.array<"2 * N" x M x 4 x i32>
// GENERIC:         %{{.*}} = "sdfg.container"() <{container_name = "h", transient}> {note = "half"} : () -> !sdfg.array<3 x f16>
// GENERIC:       }) : () -> ()

// States and maps: one and two parameters, quoted bounds, steps other than 1, nested
// maps, an empty map body, a state with attributes and an empty state.

sdfg.sdfg @maps args ["A"] symbols ["N", "M"] {
  %a = sdfg.container "A" : !sdfg.array<N x M x f32>
  sdfg.state "one" {
    sdfg.map "m1" (i) = (0) to (N) step (1) {
      %v = sdfg.read %a[i, 0] : !sdfg.array<N x M x f32>
      sdfg.write %v to %a[i, 1] : !sdfg.array<N x M x f32>
    }
  }
  sdfg.state "two" attributes {bound = #sdfg.sym<"N + 1">, count = #sdfg.sym<"4">} {
    sdfg.map "m2" (i, j) = ("1", "M - 1") to ("N - 1", M) step (2, "M") {
      sdfg.map "inner" (k) = (-1) to ("k0 + 1") step (1) {
      ^bb0:
      }
    }
  }
  sdfg.state "empty" {
  ^bb0:
  }
}

// CHECK-LABEL: sdfg.sdfg @maps args ["A"] symbols ["N", "M"] {
// CHECK-NEXT:    [[A:%.*]] = sdfg.container "A" : !sdfg.array<N x M x f32>
// CHECK-NEXT:    sdfg.state "one" {
// CHECK-NEXT:      sdfg.map "m1" (i) = (0) to (N) step (1) {
// CHECK-NEXT:        [[V:%.*]] = sdfg.read [[A]][i, 0] : !sdfg.array<N x M x f32>
// CHECK-NEXT:        sdfg.write [[V]] to [[A]][i, 1] : !sdfg.array<N x M x f32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.state "two" attributes {bound = #sdfg.sym<"N + 1">, count = #sdfg.sym<"4">} {
// CHECK-NEXT:      sdfg.map "m2" (i, j) = (1, "M - 1") to ("N - 1", M) step (2, M) {
// CHECK-NEXT:        sdfg.map "inner" (k) = (-1) to ("k0 + 1") step (1) {
// CHECK-NEXT:        ^{{.*}}:
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    sdfg.state "empty" {
// CHECK-NEXT:    ^{{.*}}:
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "maps", arg_names = ["A"], symbols = ["N", "M"]}> ({
// GENERIC:         "sdfg.state"() <{label = "one"}> ({
// GENERIC-NEXT:      "sdfg.map"() <{label = "m1", params = ["i"], lower = [#sdfg.sym<"0">], upper = [#sdfg.sym<"N">], step = [#sdfg.sym<"1">]}> ({
// GENERIC-NEXT:        %{{.*}} = "sdfg.read"(%{{.*}}) <{subset = [#sdfg.sym<"i">, #sdfg.sym<"0">]}> : (!sdfg.array<N x M x f32>) -> f32
// GENERIC-NEXT:        "sdfg.write"(%{{.*}}, %{{.*}}) <{subset = [#sdfg.sym<"i">, #sdfg.sym<"1">]}> : (f32, !sdfg.array<N x M x f32>) -> ()
// GENERIC:         "sdfg.state"() <{label = "two"}> ({
// GENERIC-NEXT:      "sdfg.map"() <{label = "m2", params = ["i", "j"], lower = [#sdfg.sym<"1">, #sdfg.sym<"M - 1">], upper = [#sdfg.sym<"N - 1">, #sdfg.sym<"M">], step = [#sdfg.sym<"2">, #sdfg.sym<"M">]}> ({
// GENERIC-NEXT:        "sdfg.map"() <{label = "inner", params = ["k"], lower = [#sdfg.sym<"-1">], upper = [#sdfg.sym<"k0 + 1">], step = [#sdfg.sym<"1">]}> ({
// GENERIC:         }) {bound = #sdfg.sym<"N + 1">, count = #sdfg.sym<"4">} : () -> ()

// Memlets: scalar `[]` reads and writes, symbolic and quoted subsets, negative indices,
// and copies between boxes (rank 0 included) with and without attributes.

sdfg.sdfg @memlets args ["A", "s", "B"] symbols ["N"] {
  %a = sdfg.container "A" : !sdfg.array<N x 4 x f32>
  %s = sdfg.container "s" : !sdfg.array<f32>
  %b = sdfg.container "B" : !sdfg.array<"N + 1" x 4 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (N) step (1) {
      %x = sdfg.read %s[] : !sdfg.array<f32>
      %y = sdfg.read %a["i", "3"] {tag} : !sdfg.array<N x 4 x f32>
      %z = sdfg.read %b["i + 1", -1] : !sdfg.array<"N + 1" x 4 x f32>
      sdfg.write %x to %t[] : !sdfg.array<f32>
      sdfg.write %y to %b["N - i", "2 * 1"] {tag = 1 : i32} : !sdfg.array<"N + 1" x 4 x f32>
    }
    sdfg.copy %a[0:N, 1:"2 + 1"] to %b[1:"N + 1", 0:2] : !sdfg.array<N x 4 x f32>, !sdfg.array<"N + 1" x 4 x f32>
    sdfg.copy %s[] to %t[] {tag} : !sdfg.array<f32>, !sdfg.array<f32>
  }
}

// CHECK-LABEL: sdfg.sdfg @memlets args ["A", "s", "B"] symbols ["N"] {
// CHECK-NEXT:    [[A:%.*]] = sdfg.container "A" : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:    [[S:%.*]] = sdfg.container "s" : !sdfg.array<f32>
// CHECK-NEXT:    [[B:%.*]] = sdfg.container "B" : !sdfg.array<"N + 1" x 4 x f32>
// CHECK-NEXT:    [[T:%.*]] = sdfg.container "t" transient : !sdfg.array<f32>
// CHECK-NEXT:    sdfg.state "s" {
// CHECK-NEXT:      sdfg.map "m" (i) = (0) to (N) step (1) {
// CHECK-NEXT:        [[X:%.*]] = sdfg.read [[S]][] : !sdfg.array<f32>
// CHECK-NEXT:        [[Y:%.*]] = sdfg.read [[A]][i, 3] {tag} : !sdfg.array<N x 4 x f32>
// CHECK-NEXT:        %{{.*}} = sdfg.read [[B]]["i + 1", -1] : !sdfg.array<"N + 1" x 4 x f32>
// CHECK-NEXT:        sdfg.write [[X]] to [[T]][] : !sdfg.array<f32>
// CHECK-NEXT:        sdfg.write [[Y]] to [[B]]["N - i", "2 * 1"] {tag = 1 : i32} : !sdfg.array<"N + 1" x 4 x f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      sdfg.copy [[A]][0:N, 1:"2 + 1"] to [[B]][1:"N + 1", 0:2] : !sdfg.array<N x 4 x f32>, !sdfg.array<"N + 1" x 4 x f32>
// CHECK-NEXT:      sdfg.copy [[S]][] to [[T]][] {tag} : !sdfg.array<f32>, !sdfg.array<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC-LABEL: "sdfg.sdfg"() <{sym_name = "memlets", arg_names = ["A", "s", "B"], symbols = ["N"]}> ({
// GENERIC:         %{{.*}} = "sdfg.read"(%{{.*}}) <{subset = []}> : (!sdfg.array<f32>) -> f32
// GENERIC-NEXT:    %{{.*}} = "sdfg.read"(%{{.*}}) <{subset = [#sdfg.sym<"i">, #sdfg.sym<"3">]}> {tag} : (!sdfg.array<N x 4 x f32>) -> f32
// GENERIC-NEXT:    %{{.*}} = "sdfg.read"(%{{.*}}) <{subset = [#sdfg.sym<"i + 1">, #sdfg.sym<"-1">]}> : (!sdfg.array<"N + 1" x 4 x f32>) -> f32
// GENERIC-NEXT:    "sdfg.write"(%{{.*}}, %{{.*}}) <{subset = []}> : (f32, !sdfg.array<f32>) -> ()
// GENERIC:         "sdfg.copy"(%{{.*}}, %{{.*}}) <{source_subset = [#sdfg.sym<"0">, #sdfg.sym<"N">, #sdfg.sym<"1">, #sdfg.sym<"2 + 1">], destination_subset = [#sdfg.sym<"1">, #sdfg.sym<"N + 1">, #sdfg.sym<"0">, #sdfg.sym<"2">]}> : (!sdfg.array<N x 4 x f32>, !sdfg.array<"N + 1" x 4 x f32>) -> ()
// GENERIC-NEXT:    "sdfg.copy"(%{{.*}}, %{{.*}}) <{source_subset = [], destination_subset = []}> {tag} : (!sdfg.array<f32>, !sdfg.array<f32>) -> ()

// Tasklets: several inputs and outputs with an arith/math body, no input (a constant),
// no output (an empty yield), and a tasklet directly in a state.

sdfg.sdfg @tasklets args ["A", "B", "C"] symbols ["N"] {
  %a = sdfg.container "A" : !sdfg.array<N x f32>
  %b = sdfg.container "B" : !sdfg.array<N x i32>
  %c = sdfg.container "C" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (i) = (0) to (N) step (1) {
      %x = sdfg.read %a[i] : !sdfg.array<N x f32>
      %n = sdfg.read %b[i] : !sdfg.array<N x i32>
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
      sdfg.write %r#0 to %c[i] : !sdfg.array<N x f32>
      sdfg.write %r#1 to %b[i] : !sdfg.array<N x i32>
    }
    sdfg.tasklet "side" ins() outs() : () -> () {
      sdfg.yield
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @tasklets args ["A", "B", "C"] symbols ["N"] {
// CHECK:           [[X:%.*]] = sdfg.read %{{.*}}[i] : !sdfg.array<N x f32>
// CHECK-NEXT:      [[N:%.*]] = sdfg.read %{{.*}}[i] : !sdfg.array<N x i32>
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
// CHECK-NEXT:      sdfg.write [[R0]] to %{{.*}}[i] : !sdfg.array<N x f32>
// CHECK-NEXT:      sdfg.write [[R1]] to %{{.*}}[i] : !sdfg.array<N x i32>
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
    sdfg.map "m" (i) = (0) to (4) step (1) attributes {note = "x"} {
      %r = sdfg.tasklet "k" ins() outs(o) : () -> (f32) attributes {fast} {
        %c = arith.constant 1.0 : f32
        sdfg.yield %c : f32
      }
      sdfg.write %r to %t[i] : !sdfg.array<4 x f32>
    }
  }
}
// ATTRS: sdfg.sdfg @"a-b" args [] symbols [] attributes {keep = 1 : i32} {
// ATTRS: sdfg.map "m" (i) = (0) to (4) step (1) attributes {note = "x"} {
// ATTRS: sdfg.tasklet "k" ins() outs(o) : () -> (f32) attributes {fast} {
