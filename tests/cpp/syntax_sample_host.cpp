// Hand-written host program exercising every Poplar host API declaration the
// code generator emits, in the way it emits them. It is only syntax-checked:
//   g++ -std=c++17 -fsyntax-only -Wall -Werror -I ipu_lower/emulator/include
// (see tests/test_emulator_headers.py). It is never linked or run.
#include <poplar/DebugContext.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// Ownership rules the generated code relies on.
static_assert(!std::is_copy_constructible<poplar::Device>::value,
              "Device is not copyable");
static_assert(std::is_move_constructible<poplar::Device>::value &&
                  std::is_move_assignable<poplar::Device>::value,
              "Device is movable");
static_assert(!std::is_copy_constructible<poplar::Engine>::value &&
                  std::is_move_constructible<poplar::Engine>::value,
              "Engine is movable, not copyable");
static_assert(!std::is_copy_constructible<poplar::Graph>::value,
              "Graph is not copyable");

namespace {

// Hardware path: DeviceManager -> getDevices -> attach -> move out.
poplar::Device attachToIpu() {
  auto manager = poplar::DeviceManager::createDeviceManager();
  std::vector<poplar::Device> devices =
      manager.getDevices(poplar::TargetType::IPU, 1);
  for (auto &d : devices) {
    if (d.attach()) {
      poplar::Device device = std::move(d); // Device is movable
      return device;
    }
  }
  return poplar::Device();
}

// IPU Model path.
poplar::Device modelDevice() {
  poplar::IPUModel model("ipu2");
  model.numIPUs = 1;
  model.tilesPerIPU = 4;
  model.memoryBytesPerTile = 624 * 1024;
  model.minIPUSyncDelay = 0;
  model.relativeSyncDelay = poplar::IPUModel::RelativeSyncDelayType::NO_DELAY;
  return model.createDevice();
}

void useTarget(const poplar::Target &target) {
  const unsigned numTiles = target.getNumTiles();
  const unsigned tilesPerIpu = target.getTilesPerIPU();
  const unsigned bytesPerTile = target.getBytesPerTile();
  const unsigned workers = target.getNumWorkerContexts();
  const unsigned floatSize = target.getTypeSize(poplar::FLOAT);
  const unsigned halfWidth = target.getVectorWidth(poplar::HALF);
  std::cout << numTiles << tilesPerIpu << bytesPerTile << workers << floatSize
            << halfWidth << '\n';
}

void useTypes() {
  // Every supported device type the generator may emit.
  const std::vector<poplar::Type> types = {
      poplar::FLOAT,          poplar::HALF,          poplar::INT,
      poplar::UNSIGNED_INT,   poplar::SHORT,         poplar::UNSIGNED_SHORT,
      poplar::CHAR,           poplar::SIGNED_CHAR,   poplar::UNSIGNED_CHAR,
      poplar::BOOL,           poplar::LONGLONG,      poplar::UNSIGNED_LONGLONG};
  for (const auto &t : types)
    std::cout << t.toString() << '\n';
}

void useValueTypes() {
  // DebugContext from const char*, std::string and {}.
  poplar::DebugContext fromCString("dc");
  poplar::DebugContext fromString(std::string("dc"));
  poplar::DebugContext fromBraces = {};
  std::cout << fromCString.getPathName() << fromString.getPathName()
            << fromBraces.getPathName() << '\n';

  // StringRef from const char* and std::string (implicitly).
  const std::string s = "handle";
  poplar::StringRef r1 = "literal";
  poplar::StringRef r2 = s;
  std::cout << r1 << r2.cloneAsString() << '\n';

  // ArrayRef from initializer_list, std::vector, pointer + size.
  const std::vector<std::size_t> v = {1, 2, 3};
  const std::size_t raw[] = {4, 5};
  poplar::ArrayRef<std::size_t> a1 = {1, 2};
  poplar::ArrayRef<std::size_t> a2 = v;
  poplar::ArrayRef<std::size_t> a3(raw, 2);
  std::cout << a1.size() + a2.size() + a3.size() << '\n';

  // Interval.
  const poplar::Interval interval(0, 4);
  std::cout << interval.size() << interval << '\n';

  // OptionFlags.
  poplar::OptionFlags opts{{"debug.instrument", "true"}};
  opts.set("autoReport.all", "true");
}

} // namespace

int main(int argc, char **argv) {
  (void)argv;
  useTypes();
  useValueTypes();

  std::optional<poplar::Device> maybeDevice;
  if (argc > 1)
    maybeDevice.emplace(attachToIpu());
  else
    maybeDevice.emplace(modelDevice());
  poplar::Device device = std::move(*maybeDevice);

  useTarget(device.getTarget());

  poplar::Graph graph(device.getTarget());
  useTarget(graph.getTarget());

  // Codelets (default arguments and all four explicit).
  graph.addCodelets("codelets.cpp");
  graph.addCodelets("codelets.cpp", poplar::CodeletFileType::CppSource, "-O3",
                    "");

  // Variables and constants.
  poplar::Tensor x = graph.addVariable(poplar::FLOAT, {100000}, "x");
  poplar::Tensor y = graph.addVariable(poplar::FLOAT, {100000}, "y");
  poplar::Tensor m = graph.addVariable(poplar::HALF, {4, 8}, "m");
  poplar::Tensor lin = graph.addVariable(
      poplar::INT, {16}, poplar::VariableMappingMethod::LINEAR, "lin");
  poplar::Tensor a = graph.addConstant<float>(poplar::FLOAT, {}, 2.0f, "a");
  poplar::Tensor n = graph.addConstant<unsigned>(poplar::UNSIGNED_INT, {}, 3u);
  poplar::Tensor c4 =
      graph.addConstant<float>(poplar::FLOAT, {4}, {1.0f, 1.5f, 2.0f, 2.5f});
  poplar::Tensor pred = graph.addVariable(poplar::BOOL, {}, "pred");
  poplar::Tensor ctrl = graph.addVariable(poplar::INT, {}, "ctrl");

  // Tile mapping of tensors.
  graph.setTileMapping(x, 0);
  graph.setTileMapping(y, 0);
  graph.setTileMapping(m, 1);
  graph.setTileMapping(lin, 1);
  graph.setTileMapping(a, 0);
  graph.setTileMapping(n, 0);
  graph.setTileMapping(c4, 1);
  graph.setTileMapping(pred, 0);
  graph.setTileMapping(ctrl, 0);

  // Tensor views.
  poplar::Tensor s1 = x.slice(0, 50000);
  poplar::Tensor s2 = m.slice(0, 4, 1);
  poplar::Tensor s3 = m.slice({0, 0}, {2, 4});
  poplar::Tensor row = m[1];
  poplar::Tensor r = m.reshape({8, 4});
  poplar::Tensor f = m.flatten();
  poplar::Tensor t = m.dimShuffle({1, 0});
  poplar::Tensor cat = poplar::concat({s1, y.slice(0, 50000)});
  poplar::Tensor cat2 = poplar::concat(s2, s3, 1);
  const std::size_t numElements = r.numElements();
  const unsigned rank = t.rank();
  const std::vector<std::size_t> shape = f.shape();
  const std::size_t dim0 = row.dim(0);
  const poplar::Type elemType = cat.elementType();
  std::cout << numElements << rank << shape.size() << dim0
            << elemType.toString() << cat2.numElements() << '\n';

  // Compute set with one vertex per tile chunk.
  poplar::ComputeSet cs = graph.addComputeSet("saxpy_map_0");
  poplar::VertexRef v = graph.addVertex(cs, "saxpy_map_0");
  graph.connect(v["a"], a);
  graph.connect(v["x"], x.slice(0, 50000));
  graph.connect(v["y"], y.slice(0, 50000));
  graph.setInitialValue<unsigned>(v["n"], 50000u);
  graph.setTileMapping(v, 0);
  graph.setPerfEstimate(v, std::uint64_t{1000});

  poplar::VertexRef v2;
  v2 = graph.addVertex(cs, "saxpy_map_0",
                       {{"a", a}, {"x", x.slice(50000, 100000)},
                        {"y", y.slice(50000, 100000)}});
  graph.setInitialValue(v2["n"], 50000u);
  graph.setTileMapping(v2, 1);
  graph.setPerfEstimate(v2, 1000, 2000);

  // The generated form: a lambda per block of a tile map, slices and tiles computed from
  // std::size_t / unsigned fields of the block, a cycle estimate per run from an array.
  static const std::uint64_t cycles[] = {426, 396};
  poplar::Tensor partials = graph.addVariable(poplar::FLOAT, {2}, "partials");
  const auto each = [&](unsigned tile, std::size_t index, std::size_t run,
                        std::size_t begin, std::size_t end) {
    graph.setTileMapping(m.flatten().slice(begin, end), tile);
    graph.setTileMapping(partials.slice(index, index + 1), tile);
    poplar::VertexRef vertex = graph.addVertex(cs, "saxpy_map_0");
    graph.setTileMapping(vertex, tile);
    graph.connect(vertex["a"], a);
    graph.connect(vertex["x"], x.slice(begin, end + 1));
    graph.connect(vertex["y"], y.slice(begin, end));
    graph.connect(vertex["p"], partials[index]);
    graph.setPerfEstimate(vertex, cycles[run]);
  };
  each(2, 0, 0, 0, 16);
  each(3, 1, 1, 16, 32);

  // Host handles and FIFOs.
  graph.createHostWrite("x-write", x);
  graph.createHostRead("y-read", y);
  poplar::DataStream inStream =
      graph.addHostToDeviceFIFO("in", poplar::FLOAT, 100000);
  poplar::DataStream outStream =
      graph.addDeviceToHostFIFO("out", poplar::FLOAT, 100000);

  // Programs.
  namespace pp = poplar::program;
  pp::Sequence body;
  body.add(pp::Sync(poplar::SyncType::INTERNAL));
  body.add(pp::Execute(cs));
  body.add(pp::Execute(cs, poplar::DebugContext{}));
  body.add(pp::Execute(cs, "exec"));
  body.add(pp::Copy(x, y));
  body.add(pp::Copy(inStream, x));
  body.add(pp::Copy(y, outStream));
  body.add(pp::PrintTensor("y", y));
  body.add(pp::PrintTensor(y));

  pp::Sequence cond({pp::Copy(pred, pred)}, "cond");
  pp::Program loop = pp::RepeatWhileTrue(cond, pred.reshape({}), body);
  pp::Program rep = pp::Repeat(10, body, "repeat");
  pp::Program branch = pp::If(pred, body, pp::Sequence(), "if");
  pp::Program sw = pp::Switch(ctrl, {{0, body}, {1, rep}});
  pp::Program swDefault = pp::Switch(ctrl, {{0, body}}, rep, "switch");
  pp::Switch swAdd(ctrl);
  swAdd.add(0, body).add(1, rep);
  pp::Sequence main({loop, rep, branch, sw, swDefault, swAdd,
                     pp::Sync(poplar::SyncType::GLOBAL)});

  // Engine: single program, then a list of programs; movable.
  std::optional<poplar::Engine> single;
  single.emplace(graph, main);
  std::vector<pp::Program> progs = {pp::Sequence(), main, pp::Sequence()};
  auto engine = std::make_unique<poplar::Engine>(
      graph, progs, poplar::OptionFlags{{"debug.instrument", "true"}});
  poplar::Engine moved = std::move(*engine);

  moved.load(device);
  std::vector<float> hostX(100000, 1.0f), hostY(100000, 0.0f);
  std::vector<float> hostIn(100000), hostOut(100000);
  moved.connectStream("in", hostIn.data());
  moved.connectStream("out", hostOut.data(), hostOut.data() + hostOut.size());
  moved.writeTensor("x-write", hostX.data(), hostX.data() + hostX.size());
  moved.run();
  moved.run(1);
  moved.run(2, "download");
  moved.readTensor("y-read", hostY.data(), hostY.data() + hostY.size());
  moved.printProfileSummary(std::cout);
  moved.printProfileSummary(std::cout, {{"showExecutionSteps", "true"}});

  if (argc > 1)
    device.detach();
  return 0;
}
