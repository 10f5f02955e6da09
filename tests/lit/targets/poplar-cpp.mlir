// RUN: ipu-opt %s -t poplar-cpp | filecheck %s
// RUN: ipu-opt %s -t 'poplar-cpp{sdk=2}' | filecheck %s --check-prefix=SDK2
// RUN: ipu-opt %s -t 'poplar-cpp{makefile=true}' | filecheck %s --check-prefix=MAKE

// host.cpp builds the graph once behind a C ABI. Each distinct tile map is one table
// of runs (a scalar's map is not: it is mapped directly); map_tensor and add_vertices
// are for_each_block loops over a table, whatever the tile count. A vertex is
// connected to the slice its rule computes from its block: the block, the block and
// its halo (x: halo<0, 2>), element block.index (partial), or the whole tensor,
// flattened when of rank > 1. Its perf estimate is the constant of its single run, or
// a table indexed by block.run. Views print inline where used; the run function
// writes, runs and reads. codelets.cpp holds one MultiVertex class per codelet: a
// field per block argument (scalar or Vector; Input/InOut/Output), and compute() is the
// body printed op by op: constants and worker ops inline, loads and stores as element
// accesses, scf.for as a for loop (a carried value as a variable updated by the
// yield), scf.if with results as variables assigned in each branch, math as <cmath>.
// SDK 2 prints Vertex classes with bool compute() run by worker 0 of 1.

poplar.codelet @g_m(%fa: memref<f32> input "a", %fx: memref<?xf32> input "x", %fy: memref<?xf32> inout "y", %ft: memref<?xf32> output "tmp0") {
  %c0 = arith.constant 0 : index
  %n = memref.dim %fy, %c0 : memref<?xf32>
  %w = poplar.worker_id
  %nw = poplar.num_workers
  %s = memref.load %fa[] : memref<f32>
  %s2 = arith.mulf %s, %s : f32
  scf.for %i = %w to %n step %nw {
    %x0 = memref.load %fx[%i] : memref<?xf32>
    %c2 = arith.constant 2 : index
    %i2 = arith.addi %i, %c2 : index
    %x2 = memref.load %fx[%i2] : memref<?xf32>
    %y0 = memref.load %fy[%i] : memref<?xf32>
    %sum = arith.addf %x0, %x2 : f32
    %r = arith.mulf %s2, %sum : f32
    %o = arith.addf %r, %y0 : f32
    memref.store %o, %fy[%i] : memref<?xf32>
    memref.store %r, %ft[%i] : memref<?xf32>
  }
}
poplar.codelet @total(%v: memref<?xf32> input "v", %out: memref<f32> output "out") {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  %w = poplar.worker_id
  %first = arith.cmpi eq, %w, %c0 : index
  scf.if %first {
    %zero = arith.constant 0.000000e+00 : f32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %v[%i] : memref<?xf32>
      %next = arith.addf %acc, %e : f32
      scf.yield %next : f32
    }
    memref.store %sum, %out[] : memref<f32>
  }
}
poplar.codelet @clip(%lo: memref<f32> input "lo", %x: memref<?xf32> inout "x", %n2: memref<?xi32> output "count") {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %w = poplar.worker_id
  %nw = poplar.num_workers
  %bound = memref.load %lo[] : memref<f32>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  scf.for %i = %w to %n step %nw {
    %e = memref.load %x[%i] : memref<?xf32>
    %r = math.exp %e : f32
    %big = arith.cmpf ogt, %r, %bound : f32
    %v, %k = scf.if %big -> (f32, i32) {
      scf.yield %r, %one : f32, i32
    } else {
      scf.yield %bound, %zero : f32, i32
    }
    memref.store %v, %x[%i] : memref<?xf32>
    memref.store %k, %n2[%i] : memref<?xi32>
  }
}
poplar.host_program @g arch "ipu2" args ["a", "x", "y", "m", "s"] : [memref<f32>, memref<30xf32>, memref<28xf32>, memref<2x3xf32>, memref<1xf32>] build {
  %a = poplar.add_variable "a" : !poplar.tensor<f32>
  poplar.map_tensor %a over <0 to 1 x 1> : !poplar.tensor<f32>
  %x = poplar.add_variable "x" : !poplar.tensor<30xf32>
  poplar.map_tensor %x over <0 to 2 x 14, 2 to 3 x 2> : !poplar.tensor<30xf32>
  %y = poplar.add_variable "y" : !poplar.tensor<28xf32>
  poplar.map_tensor %y over <0 to 2 x 13, 2 to 3 x 2> : !poplar.tensor<28xf32>
  %t = poplar.add_variable "__tmp0" : !poplar.tensor<28xf32>
  poplar.map_tensor %t over <0 to 2 x 13, 2 to 3 x 2> : !poplar.tensor<28xf32>
  %m = poplar.add_variable "m" : !poplar.tensor<2x3xf32>
  poplar.map_tensor %m over <0 to 3 x 2> : !poplar.tensor<2x3xf32>
  %p = poplar.add_variable "p" : !poplar.tensor<1x3xf32>
  poplar.map_tensor %p over <0 to 3 x 1> : !poplar.tensor<1x3xf32>
  %total = poplar.add_variable "s" : !poplar.tensor<1xf32>
  poplar.map_tensor %total over <0 to 1 x 1> : !poplar.tensor<1xf32>
  poplar.create_host_write "write_a" to %a : !poplar.tensor<f32>
  poplar.create_host_write "write_x" to %x : !poplar.tensor<30xf32>
  poplar.create_host_write "write_y" to %y : !poplar.tensor<28xf32>
  %lo = poplar.add_variable "lo" : !poplar.tensor<f32>
  poplar.map_tensor %lo over <3 to 4 x 1> : !poplar.tensor<f32>
  %cnt = poplar.add_variable "cnt" : !poplar.tensor<2x3xi32>
  poplar.map_tensor %cnt over <0 to 3 x 2> : !poplar.tensor<2x3xi32>
  %cc = poplar.add_compute_set "clip"
  poplar.add_vertices %cc @clip over <0 to 1 x 2, 1 to 2 x 2, 2 to 3 x 2> ["lo" = %lo whole, "x" = %m block, "count" = %cnt block] cycles [120, 120, 96] : !poplar.tensor<f32>, !poplar.tensor<2x3xf32>, !poplar.tensor<2x3xi32>
  %ec = poplar.execute %cc
  %cs_m = poplar.add_compute_set "g_m"
  poplar.add_vertices %cs_m @g_m over <0 to 2 x 13, 2 to 3 x 2> ["a" = %a whole, "x" = %x halo<0, 2>, "y" = %y block, "tmp0" = %t block] cycles [270, 138] : !poplar.tensor<f32>, !poplar.tensor<30xf32>, !poplar.tensor<28xf32>, !poplar.tensor<28xf32>
  %run_m = poplar.execute %cs_m
  %cs_r = poplar.add_compute_set "reduce"
  poplar.add_vertices %cs_r @total over <0 to 2 x 13, 2 to 3 x 2> ["v" = %y block, "out" = %p partial] cycles [390, 126] : !poplar.tensor<28xf32>, !poplar.tensor<1x3xf32>
  %run_r = poplar.execute %cs_r
  %cs_c = poplar.add_compute_set "combine"
  poplar.add_vertices %cs_c @total over <7 to 8 x 1> ["v" = %p whole, "out" = %total whole] cycles [150] : !poplar.tensor<1x3xf32>, !poplar.tensor<1xf32>
  %run_c = poplar.execute %cs_c
  %copy_y = poplar.copy %t to %y : !poplar.tensor<28xf32>, !poplar.tensor<28xf32>
  %t_part = poplar.slice %t[2 : 5] : !poplar.tensor<28xf32> -> !poplar.tensor<3xf32>
  %m_flat = poplar.flatten %m : !poplar.tensor<2x3xf32> -> !poplar.tensor<6xf32>
  %m_part = poplar.slice %m_flat[3 : 6] : !poplar.tensor<6xf32> -> !poplar.tensor<3xf32>
  %copy_m = poplar.copy %t_part to %m_part : !poplar.tensor<3xf32>, !poplar.tensor<3xf32>
  poplar.create_host_read "read_y" from %y : !poplar.tensor<28xf32>
  poplar.create_host_read "read_m" from %m : !poplar.tensor<2x3xf32>
  poplar.create_host_read "read_s" from %total : !poplar.tensor<1xf32>
  %seq = poplar.sequence(%ec, %run_m, %run_r, %run_c, %copy_y, %copy_m)
  poplar.engine %seq
} run {
  poplar.write_tensor "write_a" from "a"
  poplar.write_tensor "write_x" from "x"
  poplar.write_tensor "write_y" from "y"
  poplar.run 0
  poplar.read_tensor "read_y" to "y"
  poplar.read_tensor "read_m" to "m"
  poplar.read_tensor "read_s" to "s"
}

// CHECK-LABEL: // FILE: host.cpp
// CHECK:       #include <poplar/Engine.hpp>
// CHECK-NOT:   popops
// CHECK-NOT:   poplin
// CHECK:       struct TileRun {
// CHECK:       template <std::size_t N, class F> void for_each_block(const TileRun (&runs)[N], F f, std::size_t start = 0) {
// CHECK:      const TileRun tile_map_0[] = {{[{][{]}}0, 2, 14}, {2, 3, 2}};
// CHECK-NEXT: const TileRun tile_map_1[] = {{[{][{]}}0, 2, 13}, {2, 3, 2}};
// CHECK-NEXT: const TileRun tile_map_2[] = {{[{][{]}}0, 3, 2}};
// CHECK-NEXT: const TileRun tile_map_3[] = {{[{][{]}}0, 3, 1}};
// CHECK-NEXT: const TileRun tile_map_4[] = {{[{][{]}}0, 1, 1}};
// CHECK-NEXT: const TileRun tile_map_5[] = {{[{][{]}}0, 1, 2}, {1, 2, 2}, {2, 3, 2}};
// CHECK-NEXT: const TileRun tile_map_6[] = {{[{][{]}}7, 8, 1}};
// CHECK:       std::unique_ptr<g_context> g_state;
// CHECK:      extern "C" int g_init(const char *codelets_path) {
// CHECK-NEXT:   try {
// CHECK-NEXT:     poplar::Device device = ipu_lower_attach("ipu2");
// CHECK-NEXT:     poplar::Graph graph(device.getTarget());
// CHECK-NEXT:     graph.addCodelets(codelets_path);
// CHECK-NEXT:     poplar::Tensor a = graph.addVariable(poplar::FLOAT, {}, "a");
// CHECK-NEXT:     graph.setTileMapping(a, 0);
// CHECK-NEXT:     poplar::Tensor x = graph.addVariable(poplar::FLOAT, {30}, "x");
// CHECK-NEXT:     for_each_block(tile_map_0, [&](const TileBlock &block) {
// CHECK-NEXT:       graph.setTileMapping(x.slice(block.begin, block.end), block.tile);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::Tensor y = graph.addVariable(poplar::FLOAT, {28}, "y");
// CHECK-NEXT:     for_each_block(tile_map_1, [&](const TileBlock &block) {
// CHECK-NEXT:       graph.setTileMapping(y.slice(block.begin, block.end), block.tile);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::Tensor tmp0 = graph.addVariable(poplar::FLOAT, {28}, "__tmp0");
// CHECK-NEXT:     for_each_block(tile_map_1, [&](const TileBlock &block) {
// CHECK-NEXT:       graph.setTileMapping(tmp0.slice(block.begin, block.end), block.tile);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::Tensor m = graph.addVariable(poplar::FLOAT, {2, 3}, "m");
// CHECK-NEXT:     for_each_block(tile_map_2, [&](const TileBlock &block) {
// CHECK-NEXT:       graph.setTileMapping(m.flatten().slice(block.begin, block.end), block.tile);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::Tensor p = graph.addVariable(poplar::FLOAT, {1, 3}, "p");
// CHECK-NEXT:     for_each_block(tile_map_3, [&](const TileBlock &block) {
// CHECK-NEXT:       graph.setTileMapping(p.flatten().slice(block.begin, block.end), block.tile);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::Tensor s = graph.addVariable(poplar::FLOAT, {1}, "s");
// CHECK-NEXT:     for_each_block(tile_map_4, [&](const TileBlock &block) {
// CHECK-NEXT:       graph.setTileMapping(s.slice(block.begin, block.end), block.tile);
// CHECK-NEXT:     });
// CHECK-NEXT:     graph.createHostWrite("write_a", a);
// CHECK-NEXT:     graph.createHostWrite("write_x", x);
// CHECK-NEXT:     graph.createHostWrite("write_y", y);
// CHECK-NEXT:     poplar::Tensor lo = graph.addVariable(poplar::FLOAT, {}, "lo");
// CHECK-NEXT:     graph.setTileMapping(lo, 3);
// CHECK-NEXT:     poplar::Tensor cnt = graph.addVariable(poplar::INT, {2, 3}, "cnt");
// CHECK-NEXT:     for_each_block(tile_map_2, [&](const TileBlock &block) {
// CHECK-NEXT:       graph.setTileMapping(cnt.flatten().slice(block.begin, block.end), block.tile);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::ComputeSet cs_clip = graph.addComputeSet("clip");
// CHECK-NEXT:     static const std::uint64_t clip_cycles[] = {120, 120, 96};
// CHECK-NEXT:     for_each_block(tile_map_5, [&](const TileBlock &block) {
// CHECK-NEXT:       poplar::VertexRef vertex = graph.addVertex(cs_clip, "clip");
// CHECK-NEXT:       graph.setTileMapping(vertex, block.tile);
// CHECK-NEXT:       graph.connect(vertex["lo"], lo);
// CHECK-NEXT:       graph.connect(vertex["x"], m.flatten().slice(block.begin, block.end));
// CHECK-NEXT:       graph.connect(vertex["count"], cnt.flatten().slice(block.begin, block.end));
// CHECK-NEXT:       graph.setPerfEstimate(vertex, clip_cycles[block.run]);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::program::Execute run_cs_clip(cs_clip);
// CHECK-NEXT:     poplar::ComputeSet cs_g_m = graph.addComputeSet("g_m");
// CHECK-NEXT:     static const std::uint64_t g_m_cycles[] = {270, 138};
// CHECK-NEXT:     for_each_block(tile_map_1, [&](const TileBlock &block) {
// CHECK-NEXT:       poplar::VertexRef vertex = graph.addVertex(cs_g_m, "g_m");
// CHECK-NEXT:       graph.setTileMapping(vertex, block.tile);
// CHECK-NEXT:       graph.connect(vertex["a"], a);
// CHECK-NEXT:       graph.connect(vertex["x"], x.slice(block.begin, block.end + 2));
// CHECK-NEXT:       graph.connect(vertex["y"], y.slice(block.begin, block.end));
// CHECK-NEXT:       graph.connect(vertex["tmp0"], tmp0.slice(block.begin, block.end));
// CHECK-NEXT:       graph.setPerfEstimate(vertex, g_m_cycles[block.run]);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::program::Execute run_cs_g_m(cs_g_m);
// CHECK-NEXT:     poplar::ComputeSet cs_reduce = graph.addComputeSet("reduce");
// CHECK-NEXT:     static const std::uint64_t total_cycles[] = {390, 126};
// CHECK-NEXT:     for_each_block(tile_map_1, [&](const TileBlock &block) {
// CHECK-NEXT:       poplar::VertexRef vertex = graph.addVertex(cs_reduce, "total");
// CHECK-NEXT:       graph.setTileMapping(vertex, block.tile);
// CHECK-NEXT:       graph.connect(vertex["v"], y.slice(block.begin, block.end));
// CHECK-NEXT:       graph.connect(vertex["out"], p.flatten()[block.index]);
// CHECK-NEXT:       graph.setPerfEstimate(vertex, total_cycles[block.run]);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::program::Execute run_cs_reduce(cs_reduce);
// CHECK-NEXT:     poplar::ComputeSet cs_combine = graph.addComputeSet("combine");
// CHECK-NEXT:     for_each_block(tile_map_6, [&](const TileBlock &block) {
// CHECK-NEXT:       poplar::VertexRef vertex = graph.addVertex(cs_combine, "total");
// CHECK-NEXT:       graph.setTileMapping(vertex, block.tile);
// CHECK-NEXT:       graph.connect(vertex["v"], p.flatten());
// CHECK-NEXT:       graph.connect(vertex["out"], s);
// CHECK-NEXT:       graph.setPerfEstimate(vertex, 150);
// CHECK-NEXT:     });
// CHECK-NEXT:     poplar::program::Execute run_cs_combine(cs_combine);
// CHECK-NEXT:     poplar::program::Copy copy(tmp0, y);
// CHECK-NEXT:     poplar::program::Copy copy_1(tmp0.slice(2, 5), m.flatten().slice(3, 6));
// CHECK-NEXT:     graph.createHostRead("read_y", y);
// CHECK-NEXT:     graph.createHostRead("read_m", m);
// CHECK-NEXT:     graph.createHostRead("read_s", s);
// CHECK-NEXT:     poplar::program::Sequence program;
// CHECK-NEXT:     program.add(run_cs_clip);
// CHECK-NEXT:     program.add(run_cs_g_m);
// CHECK-NEXT:     program.add(run_cs_reduce);
// CHECK-NEXT:     program.add(run_cs_combine);
// CHECK-NEXT:     program.add(copy);
// CHECK-NEXT:     program.add(copy_1);
// CHECK-NEXT:     poplar::Engine engine(graph, program);
// CHECK-NEXT:     engine.load(device);
// CHECK-NEXT:     g_state.reset(new g_context{std::move(device), std::move(engine)});
// CHECK-NEXT:   } catch (const std::exception &error) {
// CHECK-NEXT:     g_error = std::string("g_init: ") + error.what();
// CHECK-NEXT:     return 1;
// CHECK-NEXT:   }
// CHECK-NEXT:   return 0;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT:  // Runs the program on the given data; any number of times after init. Each array
// CHECK-NEXT:  // comes with its element count: a count other than the compiled one is an error
// CHECK-NEXT:  // before anything is read or written.
// CHECK-NEXT: extern "C" int g_run(float a, float *x, std::size_t x_count, float *y, std::size_t y_count, float *m, std::size_t m_count, float *s, std::size_t s_count) {
// CHECK-NEXT:   if (!g_state) {
// CHECK-NEXT:     g_error = "g_run: g_init has not succeeded";
// CHECK-NEXT:     return 1;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (!ipu_lower_check_count(g_error, "g_run", "x", x, x_count, 30)) return 1;
// CHECK-NEXT:   if (!ipu_lower_check_count(g_error, "g_run", "y", y, y_count, 28)) return 1;
// CHECK-NEXT:   if (!ipu_lower_check_count(g_error, "g_run", "m", m, m_count, 6)) return 1;
// CHECK-NEXT:   if (!ipu_lower_check_count(g_error, "g_run", "s", s, s_count, 1)) return 1;
// CHECK-NEXT:   try {
// CHECK-NEXT:     poplar::Engine &engine = g_state->engine;
// CHECK-NEXT:     engine.writeTensor("write_a", &a, &a + 1);
// CHECK-NEXT:     engine.writeTensor("write_x", x, x + 30);
// CHECK-NEXT:     engine.writeTensor("write_y", y, y + 28);
// CHECK-NEXT:     engine.run(0);
// CHECK-NEXT:     engine.readTensor("read_y", y, y + 28);
// CHECK-NEXT:     engine.readTensor("read_m", m, m + 6);
// CHECK-NEXT:     engine.readTensor("read_s", s, s + 1);
// CHECK-NEXT:   } catch (const std::exception &error) {
// CHECK-NEXT:     g_error = std::string("g_run: ") + error.what();
// CHECK-NEXT:     return 1;
// CHECK-NEXT:   }
// CHECK-NEXT:   return 0;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT:  // The arguments of run as JSON: name, dtype, shape and output of each, in order.
// CHECK-NEXT:  extern "C" const char *g_signature(void) {
// CHECK-NEXT:    return "[{\"name\": \"a\", \"dtype\": \"float32\", \"shape\": [], \"output\": false}, {\"name\": \"x\", {{.*}}, {\"name\": \"s\", \"dtype\": \"float32\", \"shape\": [1], \"output\": true}]";
// CHECK-NEXT:  }
// CHECK:       extern "C" void g_exit(void) {
// CHECK-LABEL: // FILE: codelets.cpp
// CHECK-NEXT:  // Codelets generated by ipu-lower (Poplar SDK 3.x vertex API).
// CHECK:       }  // namespace ipu_lower_rt
// CHECK-EMPTY:
// CHECK-NEXT: class g_m : public poplar::MultiVertex {
// CHECK-NEXT: public:
// CHECK-NEXT:   poplar::Input<float> a;
// CHECK-NEXT:   poplar::Input<poplar::Vector<float>> x;
// CHECK-NEXT:   poplar::InOut<poplar::Vector<float>> y;
// CHECK-NEXT:   poplar::Output<poplar::Vector<float>> tmp0;
// CHECK-EMPTY:
// CHECK-NEXT:   void compute(unsigned workerId) {
// CHECK-NEXT:     const unsigned n = y.size();
// CHECK-NEXT:     const float s = *a;
// CHECK-NEXT:     const float s2 = (s * s);
// CHECK-NEXT:     for (unsigned i = workerId; i < n; i += numWorkers()) {
// CHECK-NEXT:       const float x0 = x[i];
// CHECK-NEXT:       const unsigned i2 = (i + 2u);
// CHECK-NEXT:       const float x2 = x[i2];
// CHECK-NEXT:       const float y0 = y[i];
// CHECK-NEXT:       const float sum = (x0 + x2);
// CHECK-NEXT:       const float r = (s2 * sum);
// CHECK-NEXT:       const float o = (r + y0);
// CHECK-NEXT:       y[i] = o;
// CHECK-NEXT:       tmp0[i] = r;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: };
// CHECK-NEXT: #ifdef IPU_LOWER_EMULATOR
// CHECK-NEXT: static const poplar::emulator::VertexRegistration<g_m> g_m_registration{
// CHECK-NEXT:   "g_m",
// CHECK-NEXT:   {poplar::emulator::field("a", &g_m::a), poplar::emulator::field("x", &g_m::x), poplar::emulator::field("y", &g_m::y), poplar::emulator::field("tmp0", &g_m::tmp0)}};
// CHECK-NEXT: #endif
// CHECK-EMPTY:
// CHECK-NEXT: class total : public poplar::MultiVertex {
// CHECK-NEXT: public:
// CHECK-NEXT:   poplar::Input<poplar::Vector<float>> v;
// CHECK-NEXT:   poplar::Output<float> out;
// CHECK-EMPTY:
// CHECK-NEXT:   void compute(unsigned workerId) {
// CHECK-NEXT:     const unsigned n = v.size();
// CHECK-NEXT:     const bool first = (workerId == 0u);
// CHECK-NEXT:     if (first) {
// CHECK-NEXT:       float sum = 0.0f;
// CHECK-NEXT:       for (unsigned i = 0u; i < n; i += 1u) {
// CHECK-NEXT:         const float e = v[i];
// CHECK-NEXT:         const float next = (sum + e);
// CHECK-NEXT:         sum = next;
// CHECK-NEXT:       }
// CHECK-NEXT:       *out = sum;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: };
// CHECK-NEXT: #ifdef IPU_LOWER_EMULATOR
// CHECK-NEXT: static const poplar::emulator::VertexRegistration<total> total_registration{
// CHECK-NEXT:   "total",
// CHECK-NEXT:   {poplar::emulator::field("v", &total::v), poplar::emulator::field("out", &total::out)}};
// CHECK-NEXT: #endif
// CHECK-EMPTY:
// CHECK-NEXT: class clip : public poplar::MultiVertex {
// CHECK-NEXT: public:
// CHECK-NEXT:   poplar::Input<float> lo;
// CHECK-NEXT:   poplar::InOut<poplar::Vector<float>> x;
// CHECK-NEXT:   poplar::Output<poplar::Vector<int>> count;
// CHECK-EMPTY:
// CHECK-NEXT:   void compute(unsigned workerId) {
// CHECK-NEXT:     const unsigned n = x.size();
// CHECK-NEXT:     const float bound = *lo;
// CHECK-NEXT:     for (unsigned i = workerId; i < n; i += numWorkers()) {
// CHECK-NEXT:       const float e = x[i];
// CHECK-NEXT:       const float r = std::exp(e);
// CHECK-NEXT:       const bool big = (r > bound);
// CHECK-NEXT:       float v;
// CHECK-NEXT:       int k;
// CHECK-NEXT:       if (big) {
// CHECK-NEXT:         v = r;
// CHECK-NEXT:         k = 1;
// CHECK-NEXT:       }
// CHECK-NEXT:       else {
// CHECK-NEXT:         v = bound;
// CHECK-NEXT:         k = 0;
// CHECK-NEXT:       }
// CHECK-NEXT:       x[i] = v;
// CHECK-NEXT:       count[i] = k;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: };
// CHECK-NEXT: #ifdef IPU_LOWER_EMULATOR
// CHECK-NEXT: static const poplar::emulator::VertexRegistration<clip> clip_registration{
// CHECK-NEXT:   "clip",
// CHECK-NEXT:   {poplar::emulator::field("lo", &clip::lo), poplar::emulator::field("x", &clip::x), poplar::emulator::field("count", &clip::count)}};
// CHECK-NEXT: #endif
// CHECK-NEXT:  // FILE: program.json
// CHECK:       "arguments": [
// CHECK:       "name": "s",
// CHECK-NEXT:    "dtype": "float32",
// CHECK-NEXT:    "shape": [
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK-NEXT:    "output": true
// CHECK-NOT:   // FILE: Makefile

// SDK2-LABEL: // FILE: codelets.cpp
// SDK2-NEXT:  // Codelets generated by ipu-lower (Poplar SDK 2.x vertex API).
// SDK2:      class g_m : public poplar::Vertex {
// SDK2-NEXT: public:
// SDK2-NEXT:   poplar::Input<float> a;
// SDK2-NEXT:   poplar::Input<poplar::Vector<float>> x;
// SDK2-NEXT:   poplar::InOut<poplar::Vector<float>> y;
// SDK2-NEXT:   poplar::Output<poplar::Vector<float>> tmp0;
// SDK2-EMPTY:
// SDK2-NEXT:   bool compute() {
// SDK2-NEXT:     const unsigned n = y.size();
// SDK2-NEXT:     const float s = *a;
// SDK2-NEXT:     const float s2 = (s * s);
// SDK2-NEXT:     for (unsigned i = 0u; i < n; i += 1u) {
// SDK2-NEXT:       const float x0 = x[i];
// SDK2-NEXT:       const unsigned i2 = (i + 2u);
// SDK2-NEXT:       const float x2 = x[i2];
// SDK2-NEXT:       const float y0 = y[i];
// SDK2-NEXT:       const float sum = (x0 + x2);
// SDK2-NEXT:       const float r = (s2 * sum);
// SDK2-NEXT:       const float o = (r + y0);
// SDK2-NEXT:       y[i] = o;
// SDK2-NEXT:       tmp0[i] = r;
// SDK2-NEXT:     }
// SDK2-NEXT:     return true;
// SDK2-NEXT:   }
// SDK2-NEXT: };
// SDK2:      class total : public poplar::Vertex {
// SDK2-NEXT: public:
// SDK2-NEXT:   poplar::Input<poplar::Vector<float>> v;
// SDK2-NEXT:   poplar::Output<float> out;
// SDK2-EMPTY:
// SDK2-NEXT:   bool compute() {
// SDK2-NEXT:     const unsigned n = v.size();
// SDK2-NEXT:     const bool first = (0u == 0u);
// SDK2-NEXT:     if (first) {
// SDK2-NEXT:       float sum = 0.0f;
// SDK2-NEXT:       for (unsigned i = 0u; i < n; i += 1u) {
// SDK2-NEXT:         const float e = v[i];
// SDK2-NEXT:         const float next = (sum + e);
// SDK2-NEXT:         sum = next;
// SDK2-NEXT:       }
// SDK2-NEXT:       *out = sum;
// SDK2-NEXT:     }
// SDK2-NEXT:     return true;
// SDK2-NEXT:   }
// SDK2-NEXT: };
// SDK2-NOT:   MultiVertex

// MAKE: // FILE: Makefile
// MAKE: all: libg.so codelets.gp
