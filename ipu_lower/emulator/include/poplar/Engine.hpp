// CPU emulator of Poplar SDK 3.x <poplar/Engine.hpp>: runs programs on the CPU with BSP semantics and a cycle estimate.
//
// See ipu_lower_emulator/EngineImpl.hpp for what construction checks and how
// a compute set executes, and ipu_lower_emulator/CostModel.hpp for the cycle
// estimate. Emulator hooks (not SDK API, C linkage so Python's ctypes can
// call them; visible even under -fvisibility=hidden):
//   const char *ipu_lower_emulator_report(void): JSON report of the last
//       completed Engine::run in this library ("{}" before any), valid until
//       the next run;
//   const char *ipu_lower_emulator_measured(void): JSON of what the last
//       completed Engine::run measured, counted from what ran and never from
//       an estimate ("{}" before any; ipu_lower_emulator/Measurement.hpp),
//       valid until the next run;
//   void ipu_lower_emulator_seed(unsigned long long seed): reseeds the vertex
//       order shuffle (default seed 0, or env IPU_LOWER_EMULATOR_SEED).
#ifndef IPU_LOWER_EMU_POPLAR_ENGINE_HPP
#define IPU_LOWER_EMU_POPLAR_ENGINE_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/StringRef.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace poplar {

namespace core {
class Engine; // the emulator's engine (ipu_lower_emulator/EngineImpl.hpp)
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
         const DebugContext &debugContext = {});
  Engine(const Graph &graph, program::Program prog, const OptionFlags &opt = {},
         ProgressFunc progressCallBack = ProgressFunc(),
         const DebugContext &debugContext = {});
  Engine(Engine &&) noexcept;
  Engine &operator=(Engine &&) noexcept; // unverified
  ~Engine();

  void prepare(const Device &device); // unverified: return type
  void deploy();                      // unverified: return type
  void load(const Device &device);    // unverified: return type
  void run(unsigned prog = 0, const std::string &debugName = ""); // unverified: return type
  void loadAndRun(const Device &device, unsigned prog = 0);       // unverified: return type
  void stop(); // unverified: return type

  void writeTensor(StringRef handle, const void *buf, const void *bufEnd); // unverified: return type
  void readTensor(StringRef handle, void *buf, void *bufEnd);              // unverified: return type
  void connectStream(StringRef handle, void *begin, void *end);            // unverified: return type
  void connectStream(StringRef handle, void *p);                           // unverified: return type
  // Fill or read one repeat of a remote buffer (the argument order of public SDK
  // code); unverified: the parameter types.
  void copyToRemoteBuffer(const void *data, StringRef handle, std::uint64_t repeatIndex,
                          unsigned replicationIndex = 0);
  void copyFromRemoteBuffer(StringRef handle, void *data, std::uint64_t repeatIndex,
                            unsigned replicationIndex = 0);

  void printProfileSummary(std::ostream &outputStream,
                           const OptionFlags &opt = {}) const; // unverified

  void resetExecutionProfile() {}     // unverified: return type
  void disableExecutionProfiling() {} // unverified: return type
  void enableExecutionProfiling() {}  // unverified: return type

private:
  core::Engine &get() const;
  std::unique_ptr<core::Engine> impl;
};

} // namespace poplar

// Emulator hooks (see the top of this file).
extern "C" __attribute__((visibility("default"))) const char *
ipu_lower_emulator_report(void);
extern "C" __attribute__((visibility("default"))) const char *
ipu_lower_emulator_measured(void);
extern "C" __attribute__((visibility("default"))) void
ipu_lower_emulator_seed(unsigned long long seed);

#endif // IPU_LOWER_EMU_POPLAR_ENGINE_HPP
