// Mirrors Poplar SDK 3.x <poplar/Engine.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_ENGINE_HPP
#define IPU_LOWER_EMU_POPLAR_ENGINE_HPP

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

namespace poplar {

namespace core {
class Engine;
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

  void prepare(const Device &device);   // unverified: return type
  void deploy();                        // unverified: return type
  void load(const Device &device);      // unverified: return type
  void run(unsigned prog = 0, const std::string &debugName = ""); // unverified: return type
  void loadAndRun(const Device &device, unsigned prog = 0);         // unverified: return type
  void stop();                          // unverified: return type

  void writeTensor(StringRef handle, const void *buf, const void *bufEnd); // unverified: return type
  void readTensor(StringRef handle, void *buf, void *bufEnd);              // unverified: return type
  void connectStream(StringRef handle, void *begin, void *end);            // unverified: return type
  void connectStream(StringRef handle, void *p);                           // unverified: return type

  void printProfileSummary(std::ostream &outputStream,
                           const OptionFlags &opt = {}) const; // unverified

  void resetExecutionProfile();     // unverified: return type
  void disableExecutionProfiling(); // unverified: return type
  void enableExecutionProfiling();  // unverified: return type

private:
  std::unique_ptr<core::Engine> impl;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_ENGINE_HPP
