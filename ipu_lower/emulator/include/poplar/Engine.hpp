// CPU emulator of Poplar SDK 3.x <poplar/Engine.hpp>: runs programs on the CPU with BSP semantics and a cycle estimate.
//
// See ipu_lower_emulator/EngineImpl.hpp for what construction checks and how
// a compute set executes, and ipu_lower_emulator/CostModel.hpp for the cycle
// estimate. Emulator hooks (not SDK API, C linkage so Python's ctypes can
// call them; visible even under -fvisibility=hidden):
//   const char *ipu_lower_emulator_report(void): JSON report of the last
//       completed Engine::run in this library ("{}" before any), valid until
//       the next run;
//   void ipu_lower_emulator_seed(unsigned long long seed): reseeds the vertex
//       order shuffle (default seed 0, or env IPU_LOWER_EMULATOR_SEED).
#ifndef IPU_LOWER_EMU_POPLAR_ENGINE_HPP
#define IPU_LOWER_EMU_POPLAR_ENGINE_HPP

#include <ipu_lower_emulator/EngineImpl.hpp>
#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/StringRef.hpp>

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace poplar {

namespace core {
class Engine : public emulator::EngineCore {
  using EngineCore::EngineCore;
};
} // namespace core

/// Compilation progress callback: (step, total).
using ProgressFunc = std::function<void(int, int)>;

/// A graph compute engine: compiles a Graph with its programs, loads it onto a
/// Device and runs programs. Movable, not copyable.
class Engine {
public:
  Engine(const Graph &graph, ArrayRef<program::Program> progs,
         const OptionFlags &opt = {},
         ProgressFunc progressCallBack = ProgressFunc(),
         const DebugContext &debugContext = {}) {
    (void)opt;
    (void)debugContext;
    std::vector<core::ProgramImpl::Node> nodes;
    for (const program::Program &p : progs)
      nodes.push_back(emulator::Access<program::Program>::impl(p));
    impl.reset(new core::Engine(emulator::Access<Graph>::data(graph), std::move(nodes)));
    if (progressCallBack)
      progressCallBack(1, 1);
  }
  Engine(const Graph &graph, program::Program prog, const OptionFlags &opt = {},
         ProgressFunc progressCallBack = ProgressFunc(),
         const DebugContext &debugContext = {})
      : Engine(graph, ArrayRef<program::Program>(&prog, 1), opt,
               std::move(progressCallBack), debugContext) {}
  Engine(Engine &&) noexcept = default;
  Engine &operator=(Engine &&) noexcept = default; // unverified
  ~Engine() = default;

  void prepare(const Device &device) { get().load(device.getTarget()); } // unverified: return type
  void deploy() { get(); }                                                // unverified: return type
  void load(const Device &device) { get().load(device.getTarget()); }    // unverified: return type
  void run(unsigned prog = 0, const std::string &debugName = "") {       // unverified: return type
    (void)debugName;
    get().run(prog);
  }
  void loadAndRun(const Device &device, unsigned prog = 0) { // unverified: return type
    load(device);
    run(prog);
  }
  void stop() { get(); } // unverified: return type

  void writeTensor(StringRef handle, const void *buf, const void *bufEnd) { // unverified: return type
    get().writeTensor(handle.cloneAsString(), buf, bufEnd);
  }
  void readTensor(StringRef handle, void *buf, void *bufEnd) { // unverified: return type
    get().readTensor(handle.cloneAsString(), buf, bufEnd);
  }
  void connectStream(StringRef handle, void *begin, void *end) { // unverified: return type
    get().connectStream(handle.cloneAsString(), begin, end);
  }
  void connectStream(StringRef handle, void *p) { // unverified: return type
    get().connectStream(handle.cloneAsString(), p);
  }

  void printProfileSummary(std::ostream &outputStream,
                           const OptionFlags &opt = {}) const { // unverified
    (void)opt;
    get().printSummary(outputStream);
  }

  void resetExecutionProfile() {}     // unverified: return type
  void disableExecutionProfiling() {} // unverified: return type
  void enableExecutionProfiling() {}  // unverified: return type

private:
  core::Engine &get() const {
    if (!impl)
      emulator::fail("Engine: moved-from engine");
    return *impl;
  }
  std::unique_ptr<core::Engine> impl;
};

} // namespace poplar

// Emulator hooks (see the top of this file).
extern "C" __attribute__((used, visibility("default"))) inline const char *
ipu_lower_emulator_report(void) {
  return poplar::emulator::processState().report.c_str();
}
extern "C" __attribute__((used, visibility("default"))) inline void
ipu_lower_emulator_seed(unsigned long long seed) {
  poplar::emulator::reseed(seed);
}

#endif // IPU_LOWER_EMU_POPLAR_ENGINE_HPP
