// RUN: ipu-opt %s --split-input-file -p sdfg-weaken-literals | filecheck %s

// sdfg-weaken-literals: a Python number in a tasklet is a weak scalar (NEP 50), so an
// expression of float32 (float16) elements and numbers stays float32 (float16) where
// DaCe 1.0.2 casts up and makes float64 temporaries. The values and transients that
// narrow take the narrower type, and the tasklets that read them are typed again.

// Each case's input is what the importer makes of DaCe 1.0.2's SDFG for the line in its comment.

// B[i] = A[i] * 0.5 + 3 (float32 A): DaCe casts A up and makes float64 temporaries,
// which the importer keeps as SSA values between the tasklets. All narrow to f32; the
// assignment's conversion goes.

sdfg.sdfg @affine args ["A", "B"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %a = sdfg.read %A[%i] : !sdfg.array<N x f32>
      %t1 = sdfg.tasklet "_Mult_" ins(__in1 = %a) outs(__out) : (f32) -> (f64) {
      ^bb0(%x: f32):
        %w = arith.extf %x : f32 to f64
        %c = arith.constant 5.000000e-01 : f64
        %m = arith.mulf %w, %c : f64
        sdfg.yield %m : f64
      }
      %t2 = sdfg.tasklet "_Add_" ins(__in1 = %t1) outs(__out) : (f64) -> (f64) {
      ^bb0(%x: f64):
        %c = arith.constant 3.000000e+00 : f64
        %s = arith.addf %x, %c : f64
        sdfg.yield %s : f64
      }
      %b = sdfg.tasklet "assign" ins(__inp = %t2) outs(__out) : (f64) -> (f32) {
      ^bb0(%x: f64):
        %n = arith.truncf %x : f64 to f32
        sdfg.yield %n : f32
      }
      sdfg.write %b to %B[%i] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @affine
// CHECK-NOT:     f64
// CHECK:         sdfg.tasklet "_Mult_" ins(__in1 = %a) outs(__out) : (f32) -> (f32) {
// CHECK:           %[[C:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %x, %[[C]] : f32
// CHECK-NEXT:      sdfg.yield %[[M]] : f32
// CHECK:         sdfg.tasklet "_Add_" ins(__in1 = %t1) outs(__out) : (f32) -> (f32) {
// CHECK:           arith.constant 3.000000e+00 : f32
// CHECK:           arith.addf {{.*}} : f32
// CHECK:         sdfg.tasklet "assign" ins(__inp = %t2) outs(__out) : (f32) -> (f32) {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      sdfg.yield %x : f32
// CHECK-NOT:     f64
// CHECK:         sdfg.write %b to %B[%i]

// -----

// B[i] = K[i] * 0.5 (int32 K): NEP 50 gives float64 too; nothing changes.

sdfg.sdfg @scaled_ints args ["K", "B"] symbols ["N"] {
  %K = sdfg.container "K" : !sdfg.array<N x i32>
  %B = sdfg.container "B" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %k = sdfg.read %K[%i] : !sdfg.array<N x i32>
      %t = sdfg.tasklet "_Mult_" ins(__in1 = %k) outs(__out) : (i32) -> (f64) {
      ^bb0(%x: i32):
        %w = arith.sitofp %x : i32 to f64
        %c = arith.constant 5.000000e-01 : f64
        %m = arith.mulf %w, %c : f64
        sdfg.yield %m : f64
      }
      %b = sdfg.tasklet "assign" ins(__inp = %t) outs(__out) : (f64) -> (f32) {
      ^bb0(%x: f64):
        %n = arith.truncf %x : f64 to f32
        sdfg.yield %n : f32
      }
      sdfg.write %b to %B[%i] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @scaled_ints
// CHECK:         sdfg.tasklet "_Mult_" ins(__in1 = %k) outs(__out) : (i32) -> (f64) {
// CHECK:           arith.mulf %w, %c : f64
// CHECK:         sdfg.tasklet "assign" ins(__inp = %t) outs(__out) : (f64) -> (f32) {
// CHECK-NEXT:    ^bb0(%x: f64):
// CHECK-NEXT:      %n = arith.truncf %x : f64 to f32

// -----

// B[i] = dace.float64(A[i] * 3) / 7: the product narrows, the program's own conversion
// (a tasklet that yields its input) keeps float64, and so does the division after it.

sdfg.sdfg @explicit_double args ["A", "B"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %B = sdfg.container "B" : !sdfg.array<N x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %a = sdfg.read %A[%i] : !sdfg.array<N x f32>
      %t1 = sdfg.tasklet "_Mult_" ins(__in1 = %a) outs(__out) : (f32) -> (f64) {
      ^bb0(%x: f32):
        %w = arith.extf %x : f32 to f64
        %c = arith.constant 3.000000e+00 : f64
        %m = arith.mulf %w, %c : f64
        sdfg.yield %m : f64
      }
      %t2 = sdfg.tasklet "_convert_to_float64_" ins(__inp = %t1) outs(__out) : (f64) -> (f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      %t3 = sdfg.tasklet "_Div_" ins(__in1 = %t2) outs(__out) : (f64) -> (f64) {
      ^bb0(%x: f64):
        %c = arith.constant 7.000000e+00 : f64
        %d = arith.divf %x, %c : f64
        sdfg.yield %d : f64
      }
      %b = sdfg.tasklet "assign" ins(__inp = %t3) outs(__out) : (f64) -> (f32) {
      ^bb0(%x: f64):
        %n = arith.truncf %x : f64 to f32
        sdfg.yield %n : f32
      }
      sdfg.write %b to %B[%i] : !sdfg.array<N x f32>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @explicit_double
// CHECK:         sdfg.tasklet "_Mult_" ins(__in1 = %a) outs(__out) : (f32) -> (f32) {
// CHECK:           arith.mulf {{.*}} : f32
// CHECK:         sdfg.tasklet "_convert_to_float64_" ins(__inp = %t1) outs(__out) : (f32) -> (f64) {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %x : f32 to f64
// CHECK-NEXT:      sdfg.yield %[[W]] : f64
// CHECK:         sdfg.tasklet "_Div_" ins(__in1 = %t2) outs(__out) : (f64) -> (f64) {
// CHECK:           %d = arith.divf %x, %c : f64

// -----

// t = A * 0.5 in one map, B = np.maximum(t, 1) > 2 ? t : 0 in the next (float16): the
// transient narrows with the value written to it; its reads and what reads them follow.

sdfg.sdfg @through_a_container args ["A", "B"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f16>
  %B = sdfg.container "B" : !sdfg.array<N x f16>
  %T = sdfg.container "t" transient : !sdfg.array<N x f64>
  sdfg.state "s" {
    sdfg.map "m1" (%i) = (0) to (N) step (1) {
      %a = sdfg.read %A[%i] : !sdfg.array<N x f16>
      %t = sdfg.tasklet "_Mult_" ins(__in1 = %a) outs(__out) : (f16) -> (f64) {
      ^bb0(%x: f16):
        %w = arith.extf %x : f16 to f64
        %c = arith.constant 5.000000e-01 : f64
        %m = arith.mulf %w, %c : f64
        sdfg.yield %m : f64
      }
      sdfg.write %t to %T[%i] : !sdfg.array<N x f64>
    }
    sdfg.map "m2" (%j) = (0) to (N) step (1) {
      %t = sdfg.read %T[%j] : !sdfg.array<N x f64>
      %b = sdfg.tasklet "select" ins(__in1 = %t) outs(__out) : (f64) -> (f16) {
      ^bb0(%x: f64):
        %one = arith.constant 1.000000e+00 : f64
        %two = arith.constant 2.000000e+00 : f64
        %zero = arith.constant 0.000000e+00 : f64
        %mx = arith.maximumf %x, %one : f64
        %gt = arith.cmpf ogt, %mx, %two : f64
        %s = arith.select %gt, %x, %zero : f64
        %n = arith.truncf %s : f64 to f16
        sdfg.yield %n : f16
      }
      sdfg.write %b to %B[%j] : !sdfg.array<N x f16>
    }
  }
}

// CHECK-LABEL: sdfg.sdfg @through_a_container
// CHECK:         %T = sdfg.container "t" transient : !sdfg.array<N x f16>
// CHECK:         sdfg.tasklet "_Mult_" ins(__in1 = %a) outs(__out) : (f16) -> (f16) {
// CHECK:           arith.mulf {{.*}} : f16
// CHECK:         sdfg.write %t to %T[%i] : !sdfg.array<N x f16>
// CHECK:         %[[R:.*]] = sdfg.read %T[%j] : !sdfg.array<N x f16>
// CHECK:         sdfg.tasklet "select" ins(__in1 = %[[R]]) outs(__out) : (f16) -> (f16) {
// CHECK-NEXT:    ^bb0(%x: f16):
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT:      %[[MAX:.*]] = arith.maximumf %x, %[[ONE]] : f16
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2.000000e+00 : f16
// CHECK-NEXT:      %gt = arith.cmpf ogt, %[[MAX]], %[[TWO]] : f16
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:      %[[S:.*]] = arith.select %gt, %x, %[[ZERO]] : f16
// CHECK-NEXT:      sdfg.yield %[[S]] : f16

// -----

// What keeps float64: a transient that is also copied, a value written to an argument
// of float64, writers that disagree (float32 and float16) on one transient.

sdfg.sdfg @kept args ["A", "H", "C", "D"] symbols ["N"] {
  %A = sdfg.container "A" : !sdfg.array<N x f32>
  %H = sdfg.container "H" : !sdfg.array<N x f16>
  %C = sdfg.container "C" : !sdfg.array<N x f64>
  %D = sdfg.container "D" : !sdfg.array<N x f64>
  %T = sdfg.container "copied" transient : !sdfg.array<N x f64>
  %U = sdfg.container "mixed" transient : !sdfg.array<N x f64>
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %a = sdfg.read %A[%i] : !sdfg.array<N x f32>
      %h = sdfg.read %H[%i] : !sdfg.array<N x f16>
      %t = sdfg.tasklet "to_copied" ins(__in1 = %a) outs(__out) : (f32) -> (f64) {
      ^bb0(%x: f32):
        %w = arith.extf %x : f32 to f64
        %c = arith.constant 2.000000e+00 : f64
        %m = arith.mulf %w, %c : f64
        sdfg.yield %m : f64
      }
      sdfg.write %t to %T[%i] : !sdfg.array<N x f64>
      %r = sdfg.tasklet "to_argument" ins(__in1 = %a) outs(__out) : (f32) -> (f64) {
      ^bb0(%x: f32):
        %w = arith.extf %x : f32 to f64
        %c = arith.constant 2.000000e+00 : f64
        %m = arith.mulf %w, %c : f64
        sdfg.yield %m : f64
      }
      sdfg.write %r to %C[%i] : !sdfg.array<N x f64>
      %u1 = sdfg.tasklet "from_f32" ins(__in1 = %a) outs(__out) : (f32) -> (f64) {
      ^bb0(%x: f32):
        %w = arith.extf %x : f32 to f64
        %c = arith.constant 2.000000e+00 : f64
        %m = arith.mulf %w, %c : f64
        sdfg.yield %m : f64
      }
      sdfg.write %u1 to %U[%i] : !sdfg.array<N x f64>
      %u2 = sdfg.tasklet "from_f16" ins(__in1 = %h) outs(__out) : (f16) -> (f64) {
      ^bb0(%x: f16):
        %w = arith.extf %x : f16 to f64
        %c = arith.constant 2.000000e+00 : f64
        %m = arith.mulf %w, %c : f64
        sdfg.yield %m : f64
      }
      sdfg.write %u2 to %U[%i] : !sdfg.array<N x f64>
    }
    sdfg.copy %T[0:N] to %D[0:N] : !sdfg.array<N x f64>, !sdfg.array<N x f64>
  }
}

// CHECK-LABEL: sdfg.sdfg @kept
// CHECK:         %T = sdfg.container "copied" transient : !sdfg.array<N x f64>
// CHECK:         %U = sdfg.container "mixed" transient : !sdfg.array<N x f64>
// CHECK:         sdfg.tasklet "to_copied" ins(__in1 = %a) outs(__out) : (f32) -> (f64) {
// CHECK:         sdfg.tasklet "to_argument" ins(__in1 = %a) outs(__out) : (f32) -> (f64) {
// CHECK:         sdfg.tasklet "from_f32" ins(__in1 = %a) outs(__out) : (f32) -> (f64) {
// CHECK:         sdfg.tasklet "from_f16" ins(__in1 = %h) outs(__out) : (f16) -> (f64) {
