// RUN: ipu-opt %s -p sdfg-to-poplar -t poplar-cpp | filecheck %s

// A map over the interior of a matrix masks the points of its span that lie outside the
// box by their element index: its vertices keep the first element of their block in
// vertex state (`blockStart`), which host code sets from each block as it places them.

sdfg.sdfg @interior args ["A", "B"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<6 x 6 x f32>
  %B = sdfg.container "B" : !sdfg.array<6 x 6 x f32>
  sdfg.state "s" {
    sdfg.map "m" (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %l = sdfg.read %A[%i + 1, %j] : !sdfg.array<6 x 6 x f32>
      %r = sdfg.read %A[%i + 1, %j + 2] : !sdfg.array<6 x 6 x f32>
      %v = sdfg.tasklet "sum" ins(a = %l, b = %r) outs(o) : (f32, f32) -> (f32) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        sdfg.yield %s : f32
      }
      sdfg.write %v to %B[%i + 1, %j + 1] : !sdfg.array<6 x 6 x f32>
    }
  }
}

// CHECK:      poplar::VertexRef vertex = graph.addVertex(cs_interior_m, "interior_m");
// CHECK:        graph.setInitialValue(vertex["blockStart"], static_cast<unsigned>(block.begin));
// CHECK:      class interior_m : public poplar::MultiVertex {
// CHECK-NEXT: public:
// CHECK-NEXT:   poplar::InOut<poplar::Vector<float>> B;
// CHECK-NEXT:   poplar::Input<poplar::Vector<float>> A;
// CHECK-NEXT:   unsigned blockStart;
// CHECK:          const unsigned [[P:.*]] = (blockStart + i);
// CHECK-NEXT:     const unsigned [[COL:.*]] = ([[P]] % 6u);
// CHECK:      poplar::emulator::field("A", &interior_m::A), poplar::emulator::field("blockStart", &interior_m::blockStart)}};
