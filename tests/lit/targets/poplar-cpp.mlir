// RUN: ipu-opt %inputs/axpy.mlir --symbols N=5 -p sdfg-to-poplar -t poplar-cpp | filecheck %s
// RUN: ipu-opt %inputs/axpy.mlir --symbols N=5 -p sdfg-to-poplar -t 'poplar-cpp{sdk=2}' | filecheck %s --check-prefix=SDK2

// host.cpp builds the graph once behind a C ABI (runs of per-tile calls as loops over
// tables); codelets.cpp holds MultiVertex classes that register with the CPU emulator;
// program.json describes the C ABI.

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
// CHECK-NEXT:      static const std::size_t x_mapping[][3] = {
// CHECK-NEXT:        {0, 0, 2}, {1, 2, 4}, {2, 4, 5},
// CHECK-NEXT:      };
// CHECK-NEXT:      for (const auto &row : x_mapping) {
// CHECK-NEXT:        graph.setTileMapping(x.slice(row[1], row[2]), static_cast<unsigned>(row[0]));
// CHECK-NEXT:      }
// CHECK:           poplar::ComputeSet cs_axpy_m = graph.addComputeSet("axpy_m");
// CHECK-NEXT:      static const std::size_t cs_axpy_m_vertices[][6] = {
// CHECK-NEXT:        {0, [[CYCLES:[0-9]+]], 0, 2, 0, 2}, {1, [[CYCLES]], 2, 4, 2, 4}, {2, [[CYCLES]], 4, 5, 4, 5},
// CHECK-NEXT:      };
// CHECK-NEXT:      for (const auto &row : cs_axpy_m_vertices) {
// CHECK-NEXT:        poplar::VertexRef vertex = graph.addVertex(cs_axpy_m, "axpy_m");
// CHECK-NEXT:        graph.setTileMapping(vertex, static_cast<unsigned>(row[0]));
// CHECK-NEXT:        graph.connect(vertex["a"], a);
// CHECK-NEXT:        graph.connect(vertex["x"], x.slice(row[2], row[3]));
// CHECK-NEXT:        graph.connect(vertex["y"], y.slice(row[4], row[5]));
// CHECK-NEXT:        graph.setPerfEstimate(vertex, row[1]);
// CHECK-NEXT:      }
// CHECK-NEXT:      poplar::program::Execute run_cs_axpy_m(cs_axpy_m);
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
// CHECK-NEXT:  #ifdef IPU_LOWER_EMULATOR
// CHECK-NEXT:  static const poplar::emulator::VertexRegistration<axpy_m> axpy_m_registration{
// CHECK-NEXT:    "axpy_m",
// CHECK-NEXT:    {poplar::emulator::field("a", &axpy_m::a), poplar::emulator::field("x", &axpy_m::x), poplar::emulator::field("y", &axpy_m::y)}};
// CHECK-NEXT:  #endif
// CHECK-LABEL: // FILE: program.json
// CHECK:         "functions": {
// CHECK-NEXT:      "init": "axpy_init",
// CHECK:         "name": "y",
// CHECK-NEXT:    "dtype": "float32",
// CHECK-NEXT:    "shape": [
// CHECK-NEXT:      5
// CHECK-NEXT:    ],
// CHECK-NEXT:    "output": true

// SDK2:      class axpy_m : public poplar::Vertex {
// SDK2:        bool compute() {
// SDK2-NEXT:     const unsigned n = y.size();
// SDK2-NEXT:     for (unsigned i = 0; i < n; ++i) {
// SDK2:          return true;
