// REQUIRES: build
// A point-wise map with a halo, written at the tile level and taken through the two
// tile-level passes: y[i] = y[i] + a * x[i + 3] - x[i], with x read halo<0, 3>, the
// scalar a whole and y read and written at the point (an inout field). Four runs of
// tiles; built for the CPU emulator and run, the result checked against numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ipu-opt %s -p ipu-vertex-extraction,convert-ipu-to-poplar -t poplar-cpp -o %t/shift
// RUN: filecheck %s --check-prefix=CODELET < %t/shift/codelets.cpp
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.linspace(-3, 5, 26, dtype=np.float32)); np.save('%t/y.npy', np.arange(23, dtype=np.float32))"
// RUN: ipu-run %t/shift --arg a=0.5 --arg x=%t/x.npy --arg y=%t/y.npy | filecheck %s --check-prefix=OUT
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); y = np.load('%t/y.npy'); e = np.arange(23, dtype=np.float32) + np.float32(0.5) * x[3:] - x[:-3]; print(y.shape, np.allclose(y, e, rtol=0, atol=1e-6), np.array_equal(y, np.arange(23, dtype=np.float32)))" | filecheck %s --check-prefix=Y

// CODELET:      class shift_m : public poplar::MultiVertex {
// CODELET-NEXT: public:
// CODELET-NEXT:   poplar::Input<float> a;
// CODELET-NEXT:   poplar::Input<poplar::Vector<float>> x;
// CODELET-NEXT:   poplar::InOut<poplar::Vector<float>> y;
// CODELET-EMPTY:
// CODELET-NEXT:   void compute(unsigned workerId) {
// CODELET-NEXT:     const unsigned n = y.size();
// CODELET-NEXT:     const float a_in = *a;
// CODELET-NEXT:     for (unsigned i = workerId; i < n; i += numWorkers()) {
// CODELET-NEXT:       const float y_in = y[i];
// CODELET-NEXT:       const unsigned t = (i + 3u);
// CODELET-NEXT:       const float x_in = x[t];
// CODELET-NEXT:       const float x_in_1 = x[i];
// CODELET-NEXT:       const float scaled = (a_in * x_in);
// CODELET-NEXT:       const float sum = (y_in + scaled);
// CODELET-NEXT:       const float new_ = (sum - x_in_1);
// CODELET-NEXT:       y[i] = new_;
// CODELET-NEXT:     }
// CODELET-NEXT:   }
// CODELET-NEXT: };
// OUT: shift: {{[0-9]+}} estimated IPU cycles
// Y: (23,) True False

ipu.graph "shift" arch "ipu2" args ["a", "x", "y"] {
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 8, 2 to 4 x 5> : memref<26xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 7, 2 to 3 x 5, 3 to 4 x 3, 4 to 5 x 1> : memref<23xf32>
  ipu.from_host %a : memref<f32>
  ipu.from_host %x : memref<26xf32>
  ipu.from_host %y : memref<23xf32>
  ipu.tiled_map "m" over <0 to 2 x 7, 2 to 3 x 5, 3 to 4 x 3, 4 to 5 x 1> ins(%a whole, %x halo<0, 3>, %y block : memref<f32>, memref<26xf32>, memref<23xf32>) outs(%y block : memref<23xf32>) {
  ^bb0(%va: memref<f32>, %vx: memref<26xf32>, %vy: memref<23xf32>):
    %s = ipu.access %va[] : memref<f32>
    %old = ipu.access %vy[0] : memref<23xf32>
    %ahead = ipu.access %vx[3] : memref<26xf32>
    %here = ipu.access %vx[0] : memref<26xf32>
    %scaled = arith.mulf %s, %ahead : f32
    %sum = arith.addf %old, %scaled : f32
    %new = arith.subf %sum, %here : f32
    ipu.yield %new : f32
  }
  ipu.to_host %y : memref<23xf32>
}
