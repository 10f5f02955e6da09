// y = a * x + y over N float32 elements, at the sdfg level (used by several tests).
sdfg.sdfg @axpy args ["a", "x", "y"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %va = sdfg.read %a[] : !sdfg.array<f32>
      %vx = sdfg.read %x[%i] : !sdfg.array<N x f32>
      %vy = sdfg.read %y[%i] : !sdfg.array<N x f32>
      %r = sdfg.tasklet "axpy" ins(a = %va, x = %vx, y = %vy) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%aa: f32, %xx: f32, %yy: f32):
        %p = arith.mulf %aa, %xx : f32
        %s = arith.addf %p, %yy : f32
        sdfg.yield %s : f32
      }
      sdfg.write %r to %y[%i] : !sdfg.array<N x f32>
    }
  }
}
