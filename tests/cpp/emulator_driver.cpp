// Host programs for tests/test_emulator.py: `emulator_driver SCENARIO [args]`
// builds a small graph against the Poplar API (the emulator, or the SDK),
// runs it and prints the results on stdout, one fact per line; errors print
// `ERROR: <what()>` and exit with code 3. Link with emulator_codelets.cpp.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/ElementWise.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <stdexcept>
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

extern "C" int emu_test_log_size(void);
extern "C" int emu_test_log_at(int i);
extern "C" void emu_test_log_clear(void);

namespace pp = poplar::program;
using poplar::Tensor;

namespace {

struct Env {
  poplar::Device device;
  poplar::Graph graph;
  explicit Env(const char *arch = "ipu2")
      : device(poplar::IPUModel(arch).createDevice()), graph(device.getTarget()) {
    graph.addCodelets("emulator_codelets.cpp");
  }
};

template <class T> void print(const char *label, const std::vector<T> &v) {
  std::cout << label;
  for (const T &x : v)
    std::cout << ' ' << +x;
  std::cout << '\n';
}

void report() {
#ifdef IPU_LOWER_EMULATOR
  std::cout << "REPORT " << ipu_lower_emulator_report() << '\n';
  std::cout << "MEASURED " << ipu_lower_emulator_measured() << '\n';
#endif
}

void reseed(unsigned long long seed) {
#ifdef IPU_LOWER_EMULATOR
  ipu_lower_emulator_seed(seed);
#else
  (void)seed;
#endif
}

// y = a * x + y over 12 elements, 4 per tile on tiles 0..2, run twice.
void saxpy() {
  Env env;
  auto &g = env.graph;
  Tensor a = g.addVariable(poplar::FLOAT, {}, "a");
  Tensor x = g.addVariable(poplar::FLOAT, {12}, "x");
  Tensor y = g.addVariable(poplar::FLOAT, {12}, "y");
  g.setTileMapping(a, 0);
  poplar::ComputeSet cs = g.addComputeSet("saxpy");
  for (unsigned t = 0; t < 3; ++t) {
    g.setTileMapping(x.slice(4 * t, 4 * t + 4), t);
    g.setTileMapping(y.slice(4 * t, 4 * t + 4), t);
    poplar::VertexRef v = g.addVertex(cs, "Saxpy");
    g.connect(v["a"], a);
    g.connect(v["x"], x.slice(4 * t, 4 * t + 4));
    g.connect(v["y"], y.slice(4 * t, 4 * t + 4));
    g.setTileMapping(v, t);
    g.setPerfEstimate(v, 100 + 10 * t);
  }
  g.createHostWrite("write_a", a);
  g.createHostWrite("write_x", x);
  g.createHostWrite("write_y", y);
  g.createHostRead("read_y", y);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  for (int r = 0; r < 2; ++r) {
    float av = r == 0 ? 2.0f : -1.0f;
    std::vector<float> xv(12), yv(12);
    for (int i = 0; i < 12; ++i) {
      xv[i] = float(i);
      yv[i] = r == 0 ? float(100 + i) : float(2 * i);
    }
    engine.writeTensor("write_a", &av, &av + 1);
    engine.writeTensor("write_x", xv.data(), xv.data() + 12);
    engine.writeTensor("write_y", yv.data(), yv.data() + 12);
    engine.run(0);
    engine.readTensor("read_y", yv.data(), yv.data() + 12);
    print(r == 0 ? "run1" : "run2", yv);
  }
  report();
}

// Vertex A writes x[0] while B (contiguous Input) and C (reversed view, a
// gathered Input) read it in the same compute set; D reads it in the next.
void snapshot() {
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(poplar::FLOAT, {2}, "x");
  Tensor y = g.addVariable(poplar::FLOAT, {2}, "y");
  g.setTileMapping(x, 0);
  g.setTileMapping(y, 1);
  poplar::ComputeSet cs1 = g.addComputeSet("cs1");
  poplar::VertexRef a = g.addVertex(cs1, "WriteAt");
  g.connect(a["out"], x);
  g.setInitialValue(a["index"], 0u);
  g.setInitialValue(a["value"], 42.0f);
  g.setTileMapping(a, 0);
  poplar::VertexRef b = g.addVertex(cs1, "CopyVec");
  g.connect(b["in"], x.slice(1, 2));
  g.connect(b["out"], y.slice(0, 1));
  g.setTileMapping(b, 1);
  poplar::ComputeSet cs2 = g.addComputeSet("cs2");
  poplar::VertexRef d = g.addVertex(cs2, "CopyVec");
  g.connect(d["in"], x.slice(0, 1));
  g.connect(d["out"], y.slice(1, 2));
  g.setTileMapping(d, 1);
  g.createHostWrite("write_x", x);
  g.createHostRead("read_x", x);
  g.createHostRead("read_y", y);
  poplar::Engine engine(g, pp::Sequence({pp::Execute(cs1), pp::Execute(cs2)}));
  engine.load(env.device);
  for (unsigned seed = 0; seed < 8; ++seed) {
    reseed(seed);
    std::vector<float> xv = {1.0f, 5.0f}, yv(2);
    engine.writeTensor("write_x", xv.data(), xv.data() + 2);
    engine.run();
    engine.readTensor("read_x", xv.data(), xv.data() + 2);
    engine.readTensor("read_y", yv.data(), yv.data() + 2);
    std::cout << "seed " << seed << " x " << xv[0] << ' ' << xv[1] << " y " << yv[0]
              << ' ' << yv[1] << '\n';
  }
}

// A vertex on tile 0 writes x (8 elements, tiles 0 and 1) while CopyVec on
// tile 1 reads x[2:6] into y. MODE: `output` (WriteAt: Output edge on all of x,
// assigns x[5] only), `unwritten` (the same, assigning x[1]), `reversed`
// (output, CopyVec reads x[2:6] reversed: a gathered, strided edge), `inout`
// (InterleavedInOut over x[0:6]: all its elements count as written).
void readRace(int argc, char **argv) {
  const std::string mode = argc > 2 ? argv[2] : "output";
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(poplar::FLOAT, {8}, "x");
  Tensor y = g.addVariable(poplar::FLOAT, {4}, "y");
  g.setTileMapping(x.slice(0, 4), 0);
  g.setTileMapping(x.slice(4, 8), 1);
  g.setTileMapping(y, 1);
  poplar::ComputeSet cs = g.addComputeSet("cs");
  if (mode == "inout") {
    poplar::VertexRef a = g.addVertex(cs, "InterleavedInOut<float>");
    g.connect(a["y"], x.slice(0, 6));
    g.setTileMapping(a, 0);
  } else {
    poplar::VertexRef a = g.addVertex(cs, "WriteAt");
    g.connect(a["out"], x);
    g.setInitialValue(a["index"], mode == "unwritten" ? 1u : 5u);
    g.setInitialValue(a["value"], 42.0f);
    g.setTileMapping(a, 0);
  }
  poplar::VertexRef b = g.addVertex(cs, "CopyVec");
  g.connect(b["in"], mode == "reversed" ? x.slice(2, 6).reverse(0) : x.slice(2, 6));
  g.connect(b["out"], y);
  g.setTileMapping(b, 1);
  g.createHostWrite("write_x", x);
  g.createHostRead("read_x", x);
  g.createHostRead("read_y", y);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  std::vector<float> xv = {0, 1, 2, 3, 4, 5, 6, 7}, yv(4);
  engine.writeTensor("write_x", xv.data(), xv.data() + 8);
  engine.run();
  engine.readTensor("read_x", xv.data(), xv.data() + 8);
  engine.readTensor("read_y", yv.data(), yv.data() + 4);
  print("x", xv);
  print("y", yv);
}

// 14 floats on tiles 0 (elements 0-4), 1 (5-8) and 2 (9-13).
Tensor overThreeTiles(poplar::Graph &g, const char *name) {
  Tensor t = g.addVariable(poplar::FLOAT, {14}, name);
  g.setTileMapping(t.slice(0, 5), 0);
  g.setTileMapping(t.slice(5, 9), 1);
  g.setTileMapping(t.slice(9, 14), 2);
  return t;
}

// Stencil3 over y[1:13] (14 elements, blocks of 4 on tiles 0..2), each vertex
// reading its block with one element of halo on each side. MODE: `inplace`
// (three vertices update y in place: the halos are the neighbours' writes),
// `single` (one vertex updates all of y[1:13] in place: it reads the old y),
// `twophase` (cs1 writes y from x, cs2 reads y with halos into z).
void stencil(int argc, char **argv) {
  const std::string mode = argc > 2 ? argv[2] : "inplace";
  Env env;
  auto &g = env.graph;
  Tensor x = overThreeTiles(g, "x"), y = overThreeTiles(g, "y"), z = overThreeTiles(g, "z");
  auto layer = [&](const std::string &name, const Tensor &in, const Tensor &out, unsigned vertices) {
    poplar::ComputeSet cs = g.addComputeSet(name);
    const unsigned block = 12 / vertices;
    for (unsigned t = 0; t < vertices; ++t) {
      poplar::VertexRef v = g.addVertex(cs, "Stencil3");
      g.connect(v["in"], in.slice(block * t, block * t + block + 2));
      g.connect(v["out"], out.slice(block * t + 1, block * t + block + 1));
      g.setTileMapping(v, t);
    }
    return pp::Execute(cs);
  };
  pp::Sequence prog;
  if (mode == "twophase") {
    prog.add(layer("first", x, y, 3));
    prog.add(layer("second", y, z, 3));
  } else {
    prog.add(layer("cs", y, y, mode == "single" ? 1 : 3));
  }
  g.createHostWrite("write_x", x);
  g.createHostWrite("write_y", y);
  g.createHostRead("read_y", y);
  g.createHostRead("read_z", z);
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  std::vector<float> xv(14), yv(14), zv(14, 0.0f);
  for (unsigned i = 0; i < 14; ++i)
    xv[i] = yv[i] = float(i * i);
  engine.writeTensor("write_x", xv.data(), xv.data() + 14);
  engine.writeTensor("write_y", yv.data(), yv.data() + 14);
  engine.run();
  engine.readTensor("read_y", yv.data(), yv.data() + 14);
  engine.readTensor("read_z", zv.data(), zv.data() + 14);
  print("y", yv);
  print("z", zv);
}

// Eight Logger vertices (ids from connect(field, value)); prints the order
// they ran in for each seed given (or "env": the default seed).
void order(int argc, char **argv) {
  Env env;
  auto &g = env.graph;
  poplar::ComputeSet cs = g.addComputeSet("log");
  for (int i = 0; i < 8; ++i) {
    poplar::VertexRef v = g.addVertex(cs, "Logger");
    g.connect(v["id"], i);
    g.setTileMapping(v, static_cast<unsigned>(i));
  }
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  for (int k = 2; k < argc; ++k) {
    if (std::strcmp(argv[k], "env") != 0)
      reseed(std::strtoull(argv[k], nullptr, 10));
    emu_test_log_clear();
    engine.run();
    std::cout << "order " << argv[k];
    for (int i = 0; i < emu_test_log_size(); ++i)
      std::cout << ' ' << emu_test_log_at(i);
    std::cout << '\n';
  }
}

// Two WriteAt vertices on tiles 3 and 4, both connected to all of y, write
// y[7] and y[first].
void race(int argc, char **argv) {
  const unsigned first = argc > 2 ? unsigned(std::atoi(argv[2])) : 7u;
  Env env;
  auto &g = env.graph;
  Tensor y = g.addVariable(poplar::FLOAT, {10}, "y");
  g.setTileMapping(y.slice(0, 5), 3);
  g.setTileMapping(y.slice(5, 10), 4);
  poplar::ComputeSet cs = g.addComputeSet("cs");
  const unsigned index[2] = {first, 7u};
  for (unsigned k = 0; k < 2; ++k) {
    poplar::VertexRef v = g.addVertex(cs, "WriteAt");
    g.connect(v["out"], y);
    g.setInitialValue(v["index"], index[k]);
    g.setInitialValue(v["value"], float(k + 1));
    g.setTileMapping(v, 3 + k);
  }
  g.createHostRead("read_y", y);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  engine.run();
  std::vector<float> yv(10);
  engine.readTensor("read_y", yv.data(), yv.data() + 10);
  print("y", yv);
}

void outputRead() {
  Env env;
  auto &g = env.graph;
  Tensor t = g.addVariable(poplar::FLOAT, {4}, "tmp0");
  g.setTileMapping(t, 2);
  poplar::ComputeSet cs = g.addComputeSet("cs");
  poplar::VertexRef v = g.addVertex(cs, "ReadsOutput");
  g.connect(v["y"], t);
  g.setTileMapping(v, 2);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  engine.run();
}

void unmapped() {
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(poplar::FLOAT, {10}, "x");
  g.setTileMapping(x.slice(0, 7), 0);
  poplar::Engine engine(g, pp::Sequence());
}

void unconnected() {
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(poplar::FLOAT, {4}, "x");
  g.setTileMapping(x, 0);
  poplar::ComputeSet cs = g.addComputeSet("cs");
  poplar::VertexRef v = g.addVertex(cs, "CopyVec");
  g.connect(v["in"], x);
  g.setTileMapping(v, 0);
  poplar::Engine engine(g, pp::Execute(cs));
}

void vertexUnmapped() {
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(poplar::FLOAT, {4}, "x");
  Tensor y = g.addVariable(poplar::FLOAT, {4}, "y");
  g.setTileMapping(x, 0);
  g.setTileMapping(y, 0);
  poplar::ComputeSet cs = g.addComputeSet("cs");
  poplar::VertexRef v = g.addVertex(cs, "CopyVec");
  g.connect(v["in"], x);
  g.connect(v["out"], y);
  poplar::Engine engine(g, pp::Execute(cs));
}

void unregistered() {
  Env env;
  poplar::ComputeSet cs = env.graph.addComputeSet("cs");
  env.graph.addVertex(cs, "NoSuchCodelet");
}

void unknownField() {
  Env env;
  Tensor x = env.graph.addVariable(poplar::FLOAT, {4}, "x");
  poplar::ComputeSet cs = env.graph.addComputeSet("cs");
  poplar::VertexRef v = env.graph.addVertex(cs, "CopyVec");
  env.graph.connect(v["input"], x);
}

void connectType() {
  Env env;
  Tensor i = env.graph.addVariable(poplar::INT, {4}, "i");
  poplar::ComputeSet cs = env.graph.addComputeSet("cs");
  poplar::VertexRef v = env.graph.addVertex(cs, "CopyVec");
  env.graph.connect(v["in"], i);
}

void connectScalar() {
  Env env;
  Tensor two = env.graph.addVariable(poplar::FLOAT, {2}, "two");
  poplar::ComputeSet cs = env.graph.addComputeSet("cs");
  poplar::VertexRef v = env.graph.addVertex(cs, "Saxpy");
  env.graph.connect(v["a"], two);
}

void writeSize(int argc, char **argv) {
  const bool read = argc > 2 && std::strcmp(argv[2], "read") == 0;
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(poplar::FLOAT, {4}, "x");
  Tensor h = g.addVariable(poplar::HALF, {4}, "h");
  g.setTileMapping(x, 0);
  g.setTileMapping(h, 0);
  g.createHostWrite("write_x", x);
  g.createHostRead("read_x", x);
  g.createHostWrite("write_h", h);
  poplar::Engine engine(g, pp::Sequence());
  engine.load(env.device);
  std::uint16_t hv[4] = {0, 0, 0, 0};
  engine.writeTensor("write_h", hv, hv + 4); // 8 bytes: HALF is 2 bytes/element
  std::cout << "half ok\n";
  float xv[3] = {1, 2, 3};
  if (read)
    engine.readTensor("read_x", xv, xv + 3);
  else
    engine.writeTensor("write_x", xv, xv + 3);
}

// Copies: across tiles, on one tile, and half/half.
void copy() {
  Env env;
  auto &g = env.graph;
  Tensor src = g.addVariable(poplar::FLOAT, {100}, "src");
  Tensor dst = g.addVariable(poplar::FLOAT, {100}, "dst");
  Tensor l1 = g.addVariable(poplar::FLOAT, {100}, "l1");
  Tensor l2 = g.addVariable(poplar::FLOAT, {100}, "l2");
  Tensor s2 = g.addVariable(poplar::FLOAT, {8}, "s2");
  Tensor d2 = g.addVariable(poplar::FLOAT, {8}, "d2");
  g.setTileMapping(src, 0);
  g.setTileMapping(dst, 1);
  g.setTileMapping(l1, 2);
  g.setTileMapping(l2, 2);
  g.setTileMapping(s2.slice(0, 4), 0);
  g.setTileMapping(s2.slice(4, 8), 1);
  g.setTileMapping(d2, 1);
  g.createHostWrite("write_src", src);
  g.createHostRead("read_dst", dst);
  pp::Sequence prog({pp::Copy(src, dst), pp::Copy(l1, l2), pp::Copy(s2, d2)});
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  std::vector<float> v(100);
  for (int i = 0; i < 100; ++i)
    v[i] = float(i * i);
  engine.writeTensor("write_src", v.data(), v.data() + 100);
  engine.run();
  std::vector<float> out(100);
  engine.readTensor("read_dst", out.data(), out.data() + 100);
  std::cout << "copied " << (out == v ? "equal" : "different") << '\n';
  report();
}

// What the emulator measures (ipu_lower_emulator/Measurement.hpp), on a graph
// whose numbers tests/test_emulator.py works out by hand: x, y and z of 14
// floats on tiles 0 (0-4), 1 (5-8) and 2 (9-13); a 3-point stencil x -> y
// over the three tiles and a copy of 4 floats from tile 0 to tile 1, three
// times; then, as `flag` (argv[2], "1" or "0") says, one WriteAt on tile 4 into
// `w` on tile 3 or one Saxpy on tile 0 updating z[3:7); then a Sync.
void measured(int argc, char **argv) {
  Env env;
  auto &g = env.graph;
  Tensor x = overThreeTiles(g, "x"), y = overThreeTiles(g, "y"), z = overThreeTiles(g, "z");
  Tensor a = g.addVariable(poplar::FLOAT, {}, "a");
  Tensor flag = g.addVariable(poplar::BOOL, {}, "flag");
  Tensor w = g.addVariable(poplar::FLOAT, {5}, "w");
  Tensor s2 = g.addVariable(poplar::FLOAT, {8}, "s2");
  Tensor d2 = g.addVariable(poplar::FLOAT, {8}, "d2");
  g.setTileMapping(a, 0);
  g.setTileMapping(flag, 0);
  g.setTileMapping(w, 3);
  g.setTileMapping(s2.slice(0, 4), 0);
  g.setTileMapping(s2.slice(4, 8), 1);
  g.setTileMapping(d2, 1);
  poplar::ComputeSet stencil = g.addComputeSet("stencil");
  for (unsigned t = 0; t < 3; ++t) {
    poplar::VertexRef v = g.addVertex(stencil, "Stencil3");
    g.connect(v["in"], x.slice(4 * t, 4 * t + 6));
    g.connect(v["out"], y.slice(4 * t + 1, 4 * t + 5));
    g.setTileMapping(v, t);
  }
  poplar::ComputeSet write = g.addComputeSet("write");
  poplar::VertexRef once = g.addVertex(write, "WriteAt", {{"out", w}});
  g.setInitialValue(once["index"], 2u);
  g.setInitialValue(once["value"], 7.0f);
  g.setTileMapping(once, 4);
  poplar::ComputeSet inout = g.addComputeSet("inout");
  poplar::VertexRef saxpy = g.addVertex(inout, "Saxpy", {{"a", a}, {"x", x.slice(0, 4)}, {"y", z.slice(3, 7)}});
  g.setTileMapping(saxpy, 0);
  g.createHostWrite("write_flag", flag);
  pp::Sequence prog({pp::Repeat(3, pp::Sequence({pp::Execute(stencil), pp::Copy(s2, d2)})),
                     pp::If(flag, pp::Execute(write), pp::Execute(inout)),
                     pp::Sync(poplar::SyncType::GLOBAL)});
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  const bool f = argc > 2 && std::string(argv[2]) == "1";
  engine.writeTensor("write_flag", &f, &f + 1);
  engine.run();
  report();
}

// Control flow on scalar tensors.
void control() {
  Env env;
  auto &g = env.graph;
  Tensor counter = g.addVariable(poplar::INT, {}, "counter");
  Tensor pred = g.addVariable(poplar::BOOL, {}, "pred");
  Tensor acc = g.addVariable(poplar::INT, {}, "acc");
  Tensor sel = g.addVariable(poplar::INT, {}, "sel");
  Tensor flag = g.addVariable(poplar::BOOL, {}, "flag");
  for (const Tensor &t : {counter, pred, acc, sel, flag})
    g.setTileMapping(t, 0);
  poplar::ComputeSet cond = g.addComputeSet("cond");
  poplar::VertexRef d = g.addVertex(cond, "Decrement");
  g.connect(d["counter"], counter);
  g.connect(d["pred"], pred);
  g.setTileMapping(d, 0);
  auto adder = [&](int step) {
    poplar::ComputeSet cs = g.addComputeSet("add" + std::to_string(step));
    poplar::VertexRef v = g.addVertex(cs, "Accumulate");
    g.connect(v["acc"], acc);
    g.setInitialValue(v["step"], step);
    g.setTileMapping(v, 0);
    return pp::Execute(cs);
  };
  pp::Program add10 = adder(10), add1 = adder(1), add100 = adder(100),
              add1000 = adder(1000);
  std::vector<pp::Program> progs = {
      pp::RepeatWhileTrue(pp::Execute(cond), pred, add10),
      pp::Switch(sel, {{0, add1}, {1, add100}}, add1000),
      pp::If(flag, add1, add100),
      pp::Repeat(3, add1000),
  };
  for (const char *h : {"counter", "acc", "sel", "flag"}) {
    g.createHostWrite(std::string("w_") + h,
                      h == std::string("counter") ? counter
                      : h == std::string("acc")   ? acc
                      : h == std::string("sel")   ? sel
                                                  : flag);
  }
  g.createHostRead("r_counter", counter);
  g.createHostRead("r_acc", acc);
  poplar::Engine engine(g, progs);
  engine.load(env.device);
  auto setInt = [&](const char *h, int v) { engine.writeTensor(h, &v, &v + 1); };
  auto getInt = [&](const char *h) {
    int v = 0;
    engine.readTensor(h, &v, &v + 1);
    return v;
  };
  auto setFlag = [&](bool b) { engine.writeTensor("w_flag", &b, &b + 1); };
  setInt("w_counter", 5);
  setInt("w_acc", 0);
  engine.run(0);
  std::cout << "while acc " << getInt("r_acc") << " counter " << getInt("r_counter") << '\n';
  report();
  for (int s : {0, 1, 7}) {
    setInt("w_acc", 0);
    setInt("w_sel", s);
    engine.run(1);
    std::cout << "switch " << s << " acc " << getInt("r_acc") << '\n';
  }
  for (bool b : {true, false}) {
    setInt("w_acc", 0);
    setFlag(b);
    engine.run(2);
    std::cout << "if " << b << " acc " << getInt("r_acc") << '\n';
  }
  setInt("w_acc", 0);
  engine.run(3);
  std::cout << "repeat acc " << getInt("r_acc") << '\n';
}

// HALF in and out as raw IEEE half bits (hex on argv), scaled by 0.5.
void halfScale(int argc, char **argv) {
  std::vector<std::uint16_t> bits;
  for (int k = 2; k < argc; ++k)
    bits.push_back(static_cast<std::uint16_t>(std::strtoul(argv[k], nullptr, 16)));
  const std::size_t n = bits.size();
  Env env;
  auto &g = env.graph;
  Tensor in = g.addVariable(poplar::HALF, {n}, "in");
  Tensor out = g.addVariable(poplar::HALF, {n}, "out");
  Tensor scale = g.addConstant<float>(poplar::FLOAT, {}, 0.5f, "scale");
  g.setTileMapping(in, 0);
  g.setTileMapping(out, 1);
  g.setTileMapping(scale, 1);
  poplar::ComputeSet cs = g.addComputeSet("half");
  poplar::VertexRef v = g.addVertex(cs, "HalfScale");
  g.connect(v["in"], in);
  g.connect(v["scale"], scale);
  g.connect(v["out"], out);
  g.setTileMapping(v, 1);
  g.createHostWrite("write_in", in);
  g.createHostRead("read_in", in);
  g.createHostRead("read_out", out);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  engine.writeTensor("write_in", bits.data(), bits.data() + n);
  engine.run();
  std::vector<std::uint16_t> back(n), res(n);
  engine.readTensor("read_in", back.data(), back.data() + n);
  engine.readTensor("read_out", res.data(), res.data() + n);
  print("in", back);
  print("out", res);
}

// float -> half -> float for the float bit patterns (decimal) read from stdin.
void halfConv() {
  std::uint32_t fb;
  while (std::cin >> fb) {
    float f;
    std::memcpy(&f, &fb, 4);
    const poplar::IeeeHalf h(f);
    const float back = h;
    std::uint32_t bb;
    std::memcpy(&bb, &back, 4);
    std::cout << h.bit16() << ' ' << bb << '\n';
  }
}

// What Target reports for each IPU Model, as JSON lines.
void targets() {
  for (const char *arch : {"ipu1", "ipu2", "ipu21"}) {
    poplar::IPUModel model(arch);
    poplar::Device d = model.createDevice();
    const poplar::Target &t = d.getTarget();
    std::cout << "{\"name\": \"" << arch << "\", \"tiles\": " << t.getNumTiles()
              << ", \"tiles_per_ipu\": " << t.getTilesPerIPU()
              << ", \"bytes_per_tile\": " << t.getBytesPerTile()
              << ", \"workers_per_tile\": " << t.getNumWorkerContexts()
              << ", \"clock_hz\": " << std::to_string(t.getTileClockFrequency())
              << ", \"exchange_bytes_per_cycle\": " << t.getExchangeBytesPerCycle()
              << ", \"float_vector_width\": " << t.getVectorWidth(poplar::FLOAT)
              << ", \"half_vector_width\": " << t.getVectorWidth(poplar::HALF)
              << ", \"char_vector_width\": " << t.getVectorWidth(poplar::CHAR)
              << ", \"float_size\": " << t.getTypeSize(poplar::FLOAT)
              << ", \"half_size\": " << t.getTypeSize(poplar::HALF)
              << ", \"model_tiles\": " << model.tilesPerIPU
              << ", \"model_bytes\": " << model.memoryBytesPerTile
              << ", \"model_ipus\": " << model.numIPUs
              << ", \"attach\": " << (d.attach() ? "true" : "false") << "}\n";
  }
  auto manager = poplar::DeviceManager::createDeviceManager();
  std::cout << "hardware " << manager.getDevices(poplar::TargetType::IPU, 1).size()
            << '\n';
  poplar::Device none;
  std::cout << "default attach " << (none.attach() ? "true" : "false") << '\n';
  poplar::IPUModel bad("ipu9");
}

// Vertex state: a Vector and a scalar set by setInitialValue; the second
// vertex's Vector is sized by setFieldSize and set element by element.
void state() {
  Env env;
  auto &g = env.graph;
  Tensor y = g.addVariable(poplar::FLOAT, {4}, "y");
  Tensor z = g.addVariable(poplar::FLOAT, {3}, "z");
  g.setTileMapping(y, 0);
  g.setTileMapping(z, 0);
  poplar::ComputeSet cs = g.addComputeSet("affine");
  poplar::VertexRef v = g.addVertex(cs, "Affine");
  g.connect(v["y"], y);
  g.setInitialValue(v["weights"], poplar::ArrayRef<float>({2.0f, 3.0f}));
  g.setInitialValue(v["bias"], 1u);
  g.setTileMapping(v, 0);
  poplar::VertexRef w = g.addVertex(cs, "Affine");
  g.connect(w["y"], z);
  g.setFieldSize(w["weights"], 3);
  for (unsigned i = 0; i < 3; ++i)
    g.setInitialValue(w["weights"][i], float(10 * (i + 1)));
  g.setInitialValue(w["bias"], 5);
  g.setTileMapping(w, 0);
  g.createHostWrite("write_y", y);
  g.createHostWrite("write_z", z);
  g.createHostRead("read_y", y);
  g.createHostRead("read_z", z);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  std::vector<float> yv = {1, 2, 3, 4}, zv = {1, 1, 1};
  engine.writeTensor("write_y", yv.data(), yv.data() + 4);
  engine.writeTensor("write_z", zv.data(), zv.data() + 3);
  engine.run();
  engine.readTensor("read_y", yv.data(), yv.data() + 4);
  engine.readTensor("read_z", zv.data(), zv.data() + 3);
  print("y", yv);
  print("z", zv);
}

// The C++ type the registry names for each field of three codelets, one line per field
// (the names the Graph and Engine errors quote).
void fieldTypes() {
  for (const char *name : {"Saxpy", "Affine", "RowSums"})
    for (const auto &f : poplar::emulator::findVertexClass(name)->fields)
      std::cout << name << "." << f.name << " " << f.cppType << "\n";
}

// VectorList rows and a Vector of (strided, gathered) column edges.
void lists() {
  Env env;
  auto &g = env.graph;
  Tensor m = g.addVariable(poplar::FLOAT, {3, 4}, "m");
  Tensor sums = g.addVariable(poplar::FLOAT, {3}, "sums");
  g.setTileMapping(m, 0);
  g.setTileMapping(sums, 1);
  poplar::ComputeSet cs = g.addComputeSet("rowsums");
  poplar::VertexRef v = g.addVertex(cs, "RowSums");
  g.connect(v["rows"], {m[0], m[1], m[2]});
  g.setFieldSize(v["extra"], 3);
  for (unsigned i = 0; i < 3; ++i)
    g.connect(v["extra"][i], m.transpose()[i]);
  g.connect(v["sums"], sums);
  g.setTileMapping(v, 1);
  g.createHostWrite("write_m", m);
  g.createHostRead("read_sums", sums);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  std::vector<float> mv(12);
  for (int i = 0; i < 12; ++i)
    mv[i] = float(i);
  engine.writeTensor("write_m", mv.data(), mv.data() + 12);
  engine.run();
  std::vector<float> s(3);
  engine.readTensor("read_sums", s.data(), s.data() + 3);
  print("sums", s);
  report();
}

// Tensor views: shapes, and data moved through them by Copy; a Saxpy on
// strided column views (copy-in / copy-out of an InOut edge).
void views() {
  Env env;
  auto &g = env.graph;
  Tensor m = g.addVariable(poplar::FLOAT, {3, 4}, "m");
  Tensor mt = g.addVariable(poplar::FLOAT, {4, 3}, "mt");
  Tensor cat = g.addVariable(poplar::FLOAT, {3, 6}, "cat");
  Tensor a = g.addConstant<float>(poplar::FLOAT, {}, 10.0f, "ten");
  g.setTileMapping(m, 0);
  g.setTileMapping(mt, 1);
  g.setTileMapping(cat, 1);
  g.setTileMapping(a, 0);
  std::cout << "shape t " << m.transpose().shapeToString() << " slice "
            << m.slice({1, 1}, {3, 3}).shapeToString() << " row "
            << m[2].shapeToString() << " dimshuffle "
            << m.reshape({3, 2, 2}).dimShuffle({2, 0, 1}).shapeToString()
            << " flat " << m.flatten().numElements() << " rank0 "
            << a.rank() << ' ' << a.numElements() << " contiguous "
            << m.slice(1, 3).isContiguous() << m.slice(1, 3, 1).isContiguous()
            << " aliases " << m.broadcast(2, 0).containsAliases()
            << m.containsAliases() << '\n';
  poplar::ComputeSet cs = g.addComputeSet("cols");
  poplar::VertexRef v = g.addVertex(cs, "Saxpy");
  g.connect(v["a"], a);
  g.connect(v["x"], m.transpose()[1]);
  g.connect(v["y"], m.transpose()[2]);
  g.setTileMapping(v, 0);
  g.setPerfEstimate(v, 7);
  pp::Sequence prog({pp::Copy(m.transpose(), mt),
                     pp::Copy(poplar::concat(m.slice(0, 2, 1), m, 1), cat),
                     pp::Execute(cs)});
  g.createHostWrite("write_m", m);
  g.createHostRead("read_m", m);
  g.createHostRead("read_mt", mt);
  g.createHostRead("read_cat", cat);
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  std::vector<float> mv(12), mtv(12), cv(18);
  for (int i = 0; i < 12; ++i)
    mv[i] = float(i);
  engine.writeTensor("write_m", mv.data(), mv.data() + 12);
  engine.run();
  engine.readTensor("read_m", mv.data(), mv.data() + 12);
  engine.readTensor("read_mt", mtv.data(), mtv.data() + 12);
  engine.readTensor("read_cat", cv.data(), cv.data() + 18);
  print("m", mv);
  print("mt", mtv);
  print("cat", cv);
}

// A 16M-element variable on all 1472 tiles of an ipu2: plain slices stay one
// run each, so building, running and reading it is fast.
void big() {
  const auto t0 = std::chrono::steady_clock::now();
  Env env;
  auto &g = env.graph;
  const std::size_t n = std::size_t(1) << 24;
  const unsigned tiles = g.getTarget().getNumTiles();
  Tensor x = g.addVariable(poplar::FLOAT, {n}, "x");
  Tensor y = g.addVariable(poplar::FLOAT, {n}, "y");
  Tensor a = g.addConstant<float>(poplar::FLOAT, {}, 3.0f, "a");
  g.setTileMapping(a, 0);
  poplar::ComputeSet cs = g.addComputeSet("big");
  const std::size_t per = (n + tiles - 1) / tiles;
  for (unsigned t = 0; t < tiles; ++t) {
    const std::size_t b = t * per, e = std::min(n, b + per);
    g.setTileMapping(x.slice(b, e), t);
    g.setTileMapping(y.slice(b, e), t);
    poplar::VertexRef v = g.addVertex(cs, "Saxpy");
    g.connect(v["a"], a);
    g.connect(v["x"], x.slice(b, e));
    g.connect(v["y"], y.slice(b, e));
    g.setTileMapping(v, t);
    g.setPerfEstimate(v, 1000);
  }
  g.createHostWrite("write_x", x);
  g.createHostRead("read_y", y);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  std::vector<float> xv(n);
  for (std::size_t i = 0; i < n; ++i)
    xv[i] = float(i % 1000);
  engine.writeTensor("write_x", xv.data(), xv.data() + n);
  engine.run();
  engine.readTensor("read_y", xv.data(), xv.data() + n);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "y " << xv[0] << ' ' << xv[1] << ' ' << xv[999] << ' ' << xv[n - 1]
            << "\nseconds " << s << '\n';
}

// FIFOs in a Repeat: a circular host buffer of 3 transfers each way.
void stream() {
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(poplar::FLOAT, {4}, "x");
  Tensor y = g.addVariable(poplar::FLOAT, {4}, "y");
  g.setTileMapping(x, 0);
  g.setTileMapping(y, 1);
  poplar::DataStream in = g.addHostToDeviceFIFO("in", poplar::FLOAT, 4);
  poplar::DataStream out = g.addDeviceToHostFIFO("out", poplar::FLOAT, 4);
  poplar::ComputeSet cs = g.addComputeSet("copy");
  poplar::VertexRef v = g.addVertex(cs, "CopyVec", {{"in", x}, {"out", y}});
  g.setTileMapping(v, 1);
  pp::Program prog = pp::Repeat(
      3, pp::Sequence({pp::Copy(in, x), pp::Execute(cs), pp::Copy(y, out)}));
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  std::vector<float> hin(12), hout(12, -1.0f);
  for (int i = 0; i < 12; ++i)
    hin[i] = float(i + 1);
  engine.connectStream("in", hin.data(), hin.data() + 12);
  engine.connectStream("out", hout.data(), hout.data() + 12);
  engine.run();
  print("out", hout);
  report();
}

// popops::dynamicSliceWithOutput then dynamicUpdate: row `from` of a 4x3 matrix (row r
// on tile r) goes to tile 4, then back into row `to`; `offset_type` INT is an error.
void dynamic(int argc, char **argv) {
  Env env;
  auto &g = env.graph;
  Tensor a = g.addVariable(poplar::FLOAT, {4, 3}, "a");
  for (unsigned r = 0; r < 4; ++r)
    g.setTileMapping(a[r], r);
  Tensor row = g.addVariable(poplar::FLOAT, {1, 3}, "row");
  g.setTileMapping(row, 4);
  const bool badType = argc > 4 && std::string(argv[4]) == "offset_type";
  Tensor from = g.addVariable(badType ? poplar::INT : poplar::UNSIGNED_INT, {1}, "from");
  Tensor to = g.addVariable(poplar::UNSIGNED_INT, {1}, "to");
  g.setTileMapping(from, 0);
  g.setTileMapping(to, 0);
  popops::addCodelets(g);
  pp::Sequence prog;
  popops::dynamicSliceWithOutput(g, row, a, from, {0}, {1}, prog, {"take"});
  popops::dynamicUpdate(g, a, row, to, {0}, {1}, prog, {"put"});
  g.createHostWrite("a", a);
  g.createHostWrite("from", from);
  g.createHostWrite("to", to);
  g.createHostRead("a_out", a);
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  std::vector<float> av(12);
  for (int i = 0; i < 12; ++i)
    av[i] = float(i);
  const unsigned f = unsigned(std::stoul(argv[2])), t = unsigned(std::stoul(argv[3]));
  engine.writeTensor("a", av.data(), av.data() + 12);
  engine.writeTensor("from", &f, &f + 1);
  engine.writeTensor("to", &t, &t + 1);
  engine.run();
  engine.readTensor("a_out", av.data(), av.data() + 12);
  print("a", av);
  report();
}

// poplin::matMul of a 2x3 and a 3x2 float matrix into a new tensor, then
// matMulWithOutput of the result by a 2-vector seen as a column; argv[2] picks an
// error instead: `rank` (a vector operand), `inner` (3x2 by 3x2), `types` (FLOAT by
// HALF), `output` (an output of the wrong shape).
void matmul(int argc, char **argv) {
  Env env;
  auto &g = env.graph;
  const std::string error = argc > 2 ? argv[2] : "";
  Tensor a = g.addVariable(poplar::FLOAT, {2, 3}, "a");
  Tensor b = g.addVariable(poplar::FLOAT, {error == "inner" ? 2u : 3u, 2}, "b");
  Tensor h = g.addVariable(poplar::HALF, {3, 2}, "h");
  Tensor x = g.addVariable(poplar::FLOAT, {2}, "x");
  Tensor y = g.addVariable(poplar::FLOAT, {error == "output" ? 3u : 2u}, "y");
  for (Tensor t : {a, b, h, x, y})
    g.setTileMapping(t, 1);
  poplin::addCodelets(g);
  pp::Sequence prog;
  const Tensor left = error == "rank" ? x : a;
  const Tensor right = error == "types" ? h : error == "inner" ? b.transpose() : b;
  Tensor c = poplin::matMul(g, left, right, prog, poplar::FLOAT, {"ab"});
  Tensor out = y.reshape({y.numElements(), 1});
  poplin::matMulWithOutput(g, c, x.reshape({2, 1}), out, prog, {"abx"});
  g.createHostWrite("a", a);
  g.createHostWrite("b", b);
  g.createHostWrite("x", x);
  g.createHostRead("c", c);
  g.createHostRead("y", y);
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  std::vector<float> av{1, 2, 3, 4, 5, 6}, bv{1, 0, 0, 1, 1, 1}, xv{1, -1}, cv(4), yv(2);
  engine.writeTensor("a", av.data(), av.data() + 6);
  engine.writeTensor("b", bv.data(), bv.data() + 6);
  engine.writeTensor("x", xv.data(), xv.data() + 2);
  engine.run();
  engine.readTensor("c", cv.data(), cv.data() + 4);
  engine.readTensor("y", yv.data(), yv.data() + 2);
  print("c", cv);
  print("y", yv);
  report();
}

// popops reductions: a 2x3 float `a` (row 0 on tile 1, row 1 on tile 2) summed over
// dim 0 into `cols` (tile 1) with update, the maximum of each row into `rows` (a new
// tensor from popops::reduce), five halves 2048, 1, 1, 1, 1 summed in float (the
// default) into `wide` and in half (accumType options) into `narrow`, and the sum of
// `a` times a scale of 0.5 into `f`; argv[2] picks an error instead: `update` (MUL
// with update), `option` (an unknown option), `value` (accumType int), `dims`
// (dimension 2 of a matrix), `shape` (a `cols` of 2), `types` (MIN of half into float),
// `operation` (LOGICAL_AND), `scale` (a HALF scale), `reduce-update` (reduce() with
// update).
void reduce(int argc, char **argv) {
  using popops::Operation;
  Env env;
  auto &g = env.graph;
  const std::string error = argc > 2 ? argv[2] : "";
  Tensor a = g.addVariable(poplar::FLOAT, {2, 3}, "a");
  Tensor cols = g.addVariable(poplar::FLOAT, {error == "shape" ? 2u : 3u}, "cols");
  Tensor h = g.addVariable(poplar::HALF, {5}, "h");
  Tensor wide = g.addVariable(poplar::HALF, {1}, "wide");
  Tensor narrow = g.addVariable(poplar::HALF, {}, "narrow");
  Tensor f = g.addVariable(poplar::FLOAT, {}, "f");
  Tensor scale = g.addVariable(error == "scale" ? poplar::HALF : poplar::FLOAT, {}, "scale");
  g.setTileMapping(a.slice({0, 0}, {1, 3}), 1);
  g.setTileMapping(a.slice({1, 0}, {2, 3}), 2);
  for (Tensor t : {cols, f, scale})
    g.setTileMapping(t, 1);
  for (Tensor t : {h, wide, narrow})
    g.setTileMapping(t, 3);
  popops::addCodelets(g);
  pp::Sequence prog;
  const popops::ReduceParams sum = error == "update" ? popops::ReduceParams(Operation::MUL, true)
                                                     : popops::ReduceParams(Operation::ADD, true);
  popops::reduceWithOutput(g, a, cols, {error == "dims" ? 2u : 0u}, sum, prog, {"cols"});
  const Operation max = error == "operation" ? Operation::LOGICAL_AND : Operation::MAX;
  Tensor rows = popops::reduce(g, a, {1}, popops::ReduceParams(max, error == "reduce-update"), prog, {"rows"});
  popops::reduceWithOutput(g, h, wide, {0}, Operation::ADD, prog, {"wide"});
  poplar::OptionFlags halves{{"accumType.inVertex", "half"}, {"accumType.interTile", "half"}};
  if (error == "option")
    halves = {{"accumType.everywhere", "half"}};
  if (error == "value")
    halves = {{"accumType.inVertex", "int"}};
  popops::reduceWithOutput(g, h, narrow, {0}, Operation::ADD, prog, {"narrow"}, halves);
  if (error == "types")
    popops::reduceWithOutput(g, h, f, {0}, Operation::MIN, prog);
  popops::reduceWithOutput(g, a, f, {0, 1}, popops::ReduceParams(Operation::ADD, false, scale), prog,
                           {"scaled"});
  g.createHostWrite("a", a);
  g.createHostWrite("cols", cols);
  g.createHostWrite("h", h);
  g.createHostWrite("scale", scale);
  g.createHostRead("cols", cols);
  g.createHostRead("rows", rows);
  g.createHostRead("wide", wide);
  g.createHostRead("narrow", narrow);
  g.createHostRead("f", f);
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  std::vector<float> av{1, 2, 3, 4, 5, 6}, cv{10, 20, 30}, rv(2), sv{0.5f}, fv(1);
  std::vector<poplar::IeeeHalf> hv{2048.0f, 1.0f, 1.0f, 1.0f, 1.0f}, wv(1), nv(1);
  engine.writeTensor("a", av.data(), av.data() + 6);
  engine.writeTensor("cols", cv.data(), cv.data() + 3);
  engine.writeTensor("h", hv.data(), hv.data() + 5);
  engine.writeTensor("scale", sv.data(), sv.data() + 1);
  engine.run();
  engine.readTensor("cols", cv.data(), cv.data() + 3);
  engine.readTensor("rows", rv.data(), rv.data() + 2);
  engine.readTensor("wide", wv.data(), wv.data() + 1);
  engine.readTensor("narrow", nv.data(), nv.data() + 1);
  engine.readTensor("f", fv.data(), fv.data() + 1);
  print("cols", cv);
  print("rows", rv);
  print("wide", std::vector<float>{float(wv[0])});
  print("narrow", std::vector<float>{float(nv[0])});
  print("f", fv);
  report();
}

// The scaled and grouped products: c = [[1, 2], [3, 4]] on tile 1 (3 elements) and
// tile 2 (1), scaled by 2 (popops::mulInPlace), then c += 0.5 a b
// (poplin::matMulAcc) with a = [[1, 0], [0, 1]], b = [[2, 4], [6, 8]]; and
// p = g q for two groups of 1x2 by 2x1 (matMulGroupedWithOutput), then p += -1 g q
// (matMulGroupedAcc). argv[2] picks an error instead: `acc_shape` (C of the wrong
// shape), `groups` (2 groups by 3), `int_scale` (mulInPlace of an INT tensor).
void matmulAcc(int argc, char **argv) {
  Env env;
  auto &g = env.graph;
  const std::string error = argc > 2 ? argv[2] : "";
  Tensor a = g.addVariable(poplar::FLOAT, {2, 2}, "a");
  Tensor b = g.addVariable(poplar::FLOAT, {2, 2}, "b");
  Tensor c = g.addVariable(poplar::FLOAT, {2, error == "acc_shape" ? 3u : 2u}, "c");
  Tensor gl = g.addVariable(poplar::FLOAT, {2, 1, 2}, "gl");
  Tensor gr = g.addVariable(poplar::FLOAT, {error == "groups" ? 3u : 2u, 2, 1}, "gr");
  Tensor p = g.addVariable(poplar::FLOAT, {2, 1, 1}, "p");
  Tensor n = g.addVariable(poplar::INT, {2}, "n");
  for (Tensor t : {a, b, gl, gr, p, n})
    g.setTileMapping(t, 1);
  g.setTileMapping(c.flatten().slice(0, 3), 1);
  g.setTileMapping(c.flatten().slice(3, c.numElements()), 2);
  poplin::addCodelets(g);
  popops::addCodelets(g);
  pp::Sequence prog;
  if (error == "int_scale")
    popops::mulInPlace(g, n, 2.0f, prog, "n2");
  popops::mulInPlace(g, c, 2.0f, prog, "c2");
  poplin::matMulAcc(g, c, 0.5f, a, b, prog, "acc");
  Tensor out = p;
  poplin::matMulGroupedWithOutput(g, gl, gr, out, prog, "grouped");
  poplin::matMulGroupedAcc(g, p, -1.0f, gl, gr, prog, "grouped_acc");
  for (auto [name, t] : {std::pair{"a", a}, {"b", b}, {"c", c}, {"gl", gl}, {"gr", gr}})
    g.createHostWrite(name, t);
  g.createHostRead("c", c);
  g.createHostRead("p", p);
  poplar::Engine engine(g, prog);
  engine.load(env.device);
  std::vector<float> av{1, 0, 0, 1}, bv{2, 4, 6, 8}, cv{1, 2, 3, 4}, glv{1, 2, 3, 4}, grv{1, 1, 2, -1}, pv(2);
  engine.writeTensor("a", av.data(), av.data() + 4);
  engine.writeTensor("b", bv.data(), bv.data() + 4);
  engine.writeTensor("c", cv.data(), cv.data() + 4);
  engine.writeTensor("gl", glv.data(), glv.data() + 4);
  engine.writeTensor("gr", grv.data(), grv.data() + 4);
  engine.run();
  engine.readTensor("c", cv.data(), cv.data() + 4);
  engine.readTensor("p", pv.data(), pv.data() + 2);
  print("c", cv);
  print("p", pv);
  report();
}

void printTensor() {
  Env env;
  auto &g = env.graph;
  Tensor m = g.addConstant<int>(poplar::INT, {2, 2}, {1, 2, 3, 4}, "m");
  g.setTileMapping(m, 0);
  poplar::Engine engine(g, pp::Sequence({pp::PrintTensor("m", m), pp::PrintTensor(m[1])}));
  engine.load(env.device);
  engine.run();
}

void returnsFalse() {
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(poplar::INT, {}, "x");
  g.setTileMapping(x, 0);
  poplar::ComputeSet cs = g.addComputeSet("cs");
  poplar::VertexRef v = g.addVertex(cs, "ReturnsFalse");
  g.connect(v["x"], x);
  g.setTileMapping(v, 0);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  engine.run();
}

// Inc<T> for every scalar type the IPU supports.
void types() {
  Env env;
  auto &g = env.graph;
  poplar::ComputeSet cs = g.addComputeSet("inc");
  struct Case {
    const char *codelet;
    poplar::Type type;
    long long in;
  };
  const std::vector<Case> cases = {
      {"Inc<int>", poplar::INT, -5},
      {"Inc<unsigned char>", poplar::UNSIGNED_CHAR, 255},
      {"Inc<signed char>", poplar::SIGNED_CHAR, -128},
      {"Inc<short>", poplar::SHORT, 32000},
      {"Inc<unsigned>", poplar::UNSIGNED_INT, 4000000000LL},
      {"Inc<long long>", poplar::LONGLONG, 1LL << 40},
      {"Inc<unsigned long long>", poplar::UNSIGNED_LONGLONG, 7},
      {"Inc<bool>", poplar::BOOL, 0}};
  std::vector<Tensor> outs;
  for (const Case &c : cases) {
    Tensor in = g.addConstant(c.type, {}, c.in, std::string("in_") + c.codelet);
    Tensor out = g.addVariable(c.type, {}, std::string("out_") + c.codelet);
    g.setTileMapping(in, 0);
    g.setTileMapping(out, 0);
    poplar::VertexRef v = g.addVertex(cs, c.codelet, {{"in", in}, {"out", out}});
    g.setTileMapping(v, 0);
    g.createHostRead(c.codelet, out);
    outs.push_back(out);
  }
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  engine.run();
  for (const Case &c : cases) {
    unsigned char buf[8] = {};
    const unsigned size = env.device.getTarget().getTypeSize(c.type);
    engine.readTensor(c.codelet, buf, buf + size);
    unsigned long long raw = 0;
    std::memcpy(&raw, buf, size);
    std::cout << c.codelet << ' ' << size << ' ' << raw << '\n';
  }
}

// `subword TYPE N CODELET BEGIN END [CODELET BEGIN END ...]`: one compute set,
// vertex k (CODELET<TYPE>, on tile k) connected to x[BEGIN, END) of an N-element
// TYPE (half, float or schar) variable x on tile 0 that holds 0, 1, 2, ...;
// prints x after the run.
void subword(int argc, char **argv) {
  const std::string type = argv[2];
  const std::size_t n = std::strtoul(argv[3], nullptr, 10);
  const bool isHalf = type == "half", isFloat = type == "float";
  const poplar::Type ptype = isHalf ? poplar::HALF : isFloat ? poplar::FLOAT : poplar::SIGNED_CHAR;
  const std::string cpp = isHalf || isFloat ? type : "signed char";
  Env env;
  auto &g = env.graph;
  Tensor x = g.addVariable(ptype, {n}, "x");
  g.setTileMapping(x, 0);
  poplar::ComputeSet cs = g.addComputeSet("cs");
  for (int k = 4; k + 2 < argc; k += 3) {
    const std::string codelet = argv[k];
    poplar::VertexRef v = g.addVertex(cs, codelet + "<" + cpp + ">");
    g.connect(v[codelet == "Interleaved" ? "out" : "y"],
              x.slice(std::strtoul(argv[k + 1], nullptr, 10), std::strtoul(argv[k + 2], nullptr, 10)));
    g.setTileMapping(v, unsigned(k - 4) / 3);
  }
  g.createHostWrite("write_x", x);
  g.createHostRead("read_x", x);
  poplar::Engine engine(g, pp::Execute(cs));
  engine.load(env.device);
  const unsigned size = env.device.getTarget().getTypeSize(ptype);
  std::vector<unsigned char> bytes(n * size);
  for (std::size_t i = 0; i < n; ++i) { // element i = i, in TYPE's bytes
    const float f = float(i);
    const poplar::IeeeHalf h(f);
    const signed char c = static_cast<signed char>(i);
    std::memcpy(&bytes[i * size], isHalf ? static_cast<const void *>(&h) : isFloat ? static_cast<const void *>(&f) : &c, size);
  }
  engine.writeTensor("write_x", bytes.data(), bytes.data() + bytes.size());
  engine.run();
  engine.readTensor("read_x", bytes.data(), bytes.data() + bytes.size());
  std::vector<float> xs(n);
  for (std::size_t i = 0; i < n; ++i) {
    float f = 0;
    poplar::IeeeHalf h;
    signed char c = 0;
    std::memcpy(isHalf ? static_cast<void *>(&h) : isFloat ? static_cast<void *>(&f) : &c, &bytes[i * size], size);
    xs[i] = isHalf ? float(h) : isFloat ? f : float(c);
  }
  print("x", xs);
}

void memory() {
  Env env;
  Tensor x = env.graph.addVariable(poplar::FLOAT, {200000}, "x");
  env.graph.setTileMapping(x, 0);
  poplar::Engine engine(env.graph, pp::Sequence());
}


#ifdef IPU_LOWER_EMULATOR
// Random chains of view operations on a {4,5,6} variable, compared with a
// naive model (shape + list of element indices): the runs of the emulator's
// view must list the same elements, and isContiguous must agree. Also the
// tile map against a per-element array.
void viewFuzz() {
  using namespace poplar::emulator;
  std::mt19937 rng(1);
  auto prod = [](const std::vector<std::size_t> &s, std::size_t b, std::size_t e) {
    std::size_t p = 1;
    for (std::size_t i = b; i < e; ++i)
      p *= s[i];
    return p;
  };
  for (int iter = 0; iter < 500; ++iter) {
    const std::size_t n = 1 + rng() % 40;
    TileMap m;
    std::vector<unsigned> naive(n, kUnmapped);
    for (int k = 0; k < 8; ++k) {
      const std::size_t b = rng() % n, e = b + rng() % (n - b + 1);
      const unsigned t = rng() % 3;
      m.assign(b, e, t);
      for (std::size_t i = b; i < e; ++i)
        naive[i] = t;
      std::size_t pos = 0;
      m.forEach(0, n, [&](std::size_t x, std::size_t y, unsigned t2) {
        if (x != pos)
          throw std::runtime_error("tile map: gap");
        for (; pos < y; ++pos)
          if (naive[pos] != t2)
            throw std::runtime_error("tile map: wrong tile");
      });
      if (pos != n)
        throw std::runtime_error("tile map: incomplete");
    }
  }
  Env env;
  Tensor base = env.graph.addVariable(poplar::FLOAT, {4, 5, 6}, "b");
  for (int iter = 0; iter < 1500; ++iter) {
    Tensor t = base;
    std::vector<std::size_t> shape = {4, 5, 6};
    std::vector<long> idx(120);
    for (long i = 0; i < 120; ++i)
      idx[i] = i;
    for (int op = 0; op < 4 && !shape.empty(); ++op) {
      const unsigned r = static_cast<unsigned>(shape.size());
      const unsigned dim = rng() % r;
      const std::size_t D = shape[dim], outer = prod(shape, 0, dim),
                        inner = prod(shape, dim + 1, r);
      std::vector<long> ni;
      switch (rng() % 6) {
      case 0: { // slice
        const std::size_t b = rng() % (D + 1), e = b + rng() % (D - b + 1);
        t = t.slice(b, e, dim);
        for (std::size_t o = 0; o < outer; ++o)
          for (std::size_t j = b; j < e; ++j)
            for (std::size_t i = 0; i < inner; ++i)
              ni.push_back(idx[(o * D + j) * inner + i]);
        shape[dim] = e - b;
        break;
      }
      case 1: { // dimShuffle
        std::vector<unsigned> perm(r);
        for (unsigned k = 0; k < r; ++k)
          perm[k] = k;
        std::shuffle(perm.begin(), perm.end(), rng);
        t = t.dimShuffle(perm);
        std::vector<std::size_t> ns(r), ix(r, 0);
        for (unsigned k = 0; k < r; ++k)
          ns[k] = shape[perm[k]];
        ni.resize(idx.size());
        for (std::size_t f = 0; f < ni.size(); ++f) {
          std::size_t src = 0;
          for (unsigned k = 0; k < r; ++k)
            src += ix[k] * prod(shape, perm[k] + 1, r);
          ni[f] = idx[src];
          for (unsigned k = r; k-- > 0;) {
            if (++ix[k] < ns[k])
              break;
            ix[k] = 0;
          }
        }
        shape = ns;
        break;
      }
      case 2: // reverse
        t = t.reverse(dim);
        for (std::size_t o = 0; o < outer; ++o)
          for (std::size_t j = D; j-- > 0;)
            for (std::size_t i = 0; i < inner; ++i)
              ni.push_back(idx[(o * D + j) * inner + i]);
        break;
      case 3: // concat with itself
        t = poplar::concat(t, t, dim);
        for (std::size_t o = 0; o < outer; ++o)
          for (int c = 0; c < 2; ++c)
            for (std::size_t j = 0; j < D * inner; ++j)
              ni.push_back(idx[o * D * inner + j]);
        shape[dim] *= 2;
        break;
      case 4: { // subSample
        const unsigned s = 1 + rng() % 3;
        t = t.subSample(s, dim);
        for (std::size_t o = 0; o < outer; ++o)
          for (std::size_t j = 0; j < D; j += s)
            for (std::size_t i = 0; i < inner; ++i)
              ni.push_back(idx[(o * D + j) * inner + i]);
        shape[dim] = (D + s - 1) / s;
        break;
      }
      default: { // operator[]
        if (shape[0] == 0)
          continue;
        const std::size_t i0 = rng() % shape[0], in0 = idx.size() / shape[0];
        t = t[i0];
        ni.assign(idx.begin() + i0 * in0, idx.begin() + (i0 + 1) * in0);
        shape.erase(shape.begin());
      }
      }
      idx = ni;
      const ViewData &v = *Access<Tensor>::view(t);
      std::vector<long> got;
      for (const Run &run : v.runs)
        for (std::size_t k = 0; k < run.count; ++k)
          got.push_back(static_cast<long>(run.addr(k)));
      bool contiguous = true;
      for (std::size_t i = 1; i < idx.size(); ++i)
        contiguous = contiguous && idx[i] == idx[i - 1] + 1;
      if (got != idx || t.shape() != shape || t.isContiguous() != contiguous)
        throw std::runtime_error("view mismatch at iteration " + std::to_string(iter));
    }
  }
  std::cout << "views ok\n";
}
#endif

const std::map<std::string, std::function<void(int, char **)>> &scenarios() {
  static const std::map<std::string, std::function<void(int, char **)>> s = {
      {"saxpy", [](int, char **) { saxpy(); }},
      {"snapshot", [](int, char **) { snapshot(); }},
      {"order", order},
      {"race", race},
      {"read_race", readRace},
      {"stencil", stencil},
      {"output_read", [](int, char **) { outputRead(); }},
      {"unmapped", [](int, char **) { unmapped(); }},
      {"unconnected", [](int, char **) { unconnected(); }},
      {"vertex_unmapped", [](int, char **) { vertexUnmapped(); }},
      {"unregistered", [](int, char **) { unregistered(); }},
      {"unknown_field", [](int, char **) { unknownField(); }},
      {"connect_type", [](int, char **) { connectType(); }},
      {"connect_scalar", [](int, char **) { connectScalar(); }},
      {"write_size", writeSize},
      {"copy", [](int, char **) { copy(); }},
      {"control", [](int, char **) { control(); }},
      {"measured", measured},
      {"dynamic", dynamic},
      {"matmul", matmul},
      {"reduce", reduce},
      {"matmul_acc", matmulAcc},
      {"half", halfScale},
      {"half_conv", [](int, char **) { halfConv(); }},
      {"targets", [](int, char **) { targets(); }},
      {"state", [](int, char **) { state(); }},
      {"lists", [](int, char **) { lists(); }},
      {"field_types", [](int, char **) { fieldTypes(); }},
      {"views", [](int, char **) { views(); }},
      {"big", [](int, char **) { big(); }},
      {"stream", [](int, char **) { stream(); }},
      {"print", [](int, char **) { printTensor(); }},
      {"returns_false", [](int, char **) { returnsFalse(); }},
      {"types", [](int, char **) { types(); }},
      {"memory", [](int, char **) { memory(); }},
      {"subword", subword},
#ifdef IPU_LOWER_EMULATOR
      {"view_fuzz", [](int, char **) { viewFuzz(); }},
#endif
  };
  return s;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || !scenarios().count(argv[1])) {
    std::cerr << "usage: emulator_driver SCENARIO [args]\n";
    return 2;
  }
  try {
    scenarios().at(argv[1])(argc, argv);
  } catch (const std::exception &e) {
    std::cout << "ERROR: " << e.what() << std::endl;
    return 3;
  }
  return 0;
}
