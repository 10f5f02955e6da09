// RUN: ipu-opt %inputs/axpy.mlir --symbols N=5 -p sdfg-to-poplar -t poplar-cpp | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=5 -p sdfg-to-poplar -t 'poplar-cpp{sdk=2}' | filecheck %s --check-prefix=SDK2

// host.cpp builds the graph once behind a C ABI; codelets.cpp holds MultiVertex classes.

// CHECK-LABEL: // FILE: host.cpp
// CHECK:       #include <poplar/Engine.hpp>
// CHECK:       std::unique_ptr<axpy_context> axpy_state;
// CHECK:       extern "C" int axpy_init(const char *codelets_path) {
// CHECK-NEXT:    try {
// CHECK-NEXT:      poplar::Device device = ipu_lower_attach("ipu2");
// CHECK-NEXT:      poplar::Graph graph(device.getTarget());
// CHECK-NEXT:      graph.addCodelets(codelets_path);
// CHECK-NEXT:      poplar::Tensor a = graph.addVariable(poplar::FLOAT, {}, "a");
// CHECK-NEXT:      graph.setTileMapping(a, 0);
// CHECK-NEXT:      poplar::Tensor x = graph.addVariable(poplar::FLOAT, {5}, "x");
// CHECK-NEXT:      graph.setTileMapping(x.slice(0, 2), 0);
// CHECK-NEXT:      graph.setTileMapping(x.slice(2, 4), 1);
// CHECK-NEXT:      graph.setTileMapping(x.slice(4, 5), 2);
// CHECK:           poplar::ComputeSet cs_axpy_m = graph.addComputeSet("axpy_m");
// CHECK-NEXT:      poplar::VertexRef vertex = graph.addVertex(cs_axpy_m, "axpy_m");
// CHECK-NEXT:      graph.setTileMapping(vertex, 0);
// CHECK-NEXT:      graph.connect(vertex["a"], a);
// CHECK-NEXT:      graph.connect(vertex["x"], x.slice(0, 2));
// CHECK-NEXT:      graph.connect(vertex["y"], y.slice(0, 2));
// CHECK-NEXT:      graph.setPerfEstimate(vertex, {{[0-9]+}});
// CHECK:           graph.connect(vertex_2["y"], y.slice(4, 5));
// CHECK:           poplar::program::Execute run_cs_axpy_m(cs_axpy_m);
// CHECK-NEXT:      graph.createHostRead("read_y", y);
// CHECK-NEXT:      poplar::program::Sequence program;
// CHECK-NEXT:      program.add(run_cs_axpy_m);
// CHECK-NEXT:      poplar::Engine engine(graph, program);
// CHECK-NEXT:      engine.load(device);
// CHECK-NEXT:      axpy_state.reset(new axpy_context{std::move(device), std::move(engine)});
// CHECK-NEXT:    } catch (const std::exception &error) {
// CHECK:       extern "C" int axpy_run(float a, float *x, float *y) {
// CHECK:           engine.writeTensor("write_a", &a, &a + 1);
// CHECK-NEXT:      engine.writeTensor("write_x", x, x + 5);
// CHECK-NEXT:      engine.writeTensor("write_y", y, y + 5);
// CHECK-NEXT:      engine.run(0);
// CHECK-NEXT:      engine.readTensor("read_y", y, y + 5);
// CHECK:       extern "C" void axpy_exit(void) {
// CHECK-LABEL: // FILE: codelets.cpp
// CHECK:       #include <poplar/Vertex.hpp>
// CHECK:       class axpy_m : public poplar::MultiVertex {
// CHECK-NEXT:  public:
// CHECK-NEXT:    poplar::Input<float> a;
// CHECK-NEXT:    poplar::Input<poplar::Vector<float>> x;
// CHECK-NEXT:    poplar::InOut<poplar::Vector<float>> y;
// CHECK-EMPTY:
// CHECK-NEXT:    void compute(unsigned workerId) {
// CHECK-NEXT:      const unsigned n = y.size();
// CHECK-NEXT:      for (unsigned i = workerId; i < n; i += numWorkers()) {
// CHECK-NEXT:        const float a_in = *a;
// CHECK-NEXT:        const float x_in = x[i];
// CHECK-NEXT:        const float y_in = y[i];
// CHECK-NEXT:        const float t = (a_in * x_in);
// CHECK-NEXT:        const float t_1 = (t + y_in);
// CHECK-NEXT:        y[i] = t_1;
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  };

// SDK2:      class axpy_m : public poplar::Vertex {
// SDK2:        bool compute() {
// SDK2-NEXT:     const unsigned n = y.size();
// SDK2-NEXT:     for (unsigned i = 0; i < n; ++i) {
// SDK2:          return true;
