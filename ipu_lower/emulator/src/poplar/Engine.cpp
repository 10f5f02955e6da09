// The Engine and the emulator hooks (poplar/Engine.hpp); the work is done by
// emulator::EngineCore (ipu_lower_emulator/EngineImpl.hpp).
#include <poplar/Engine.hpp>

#include <ipu_lower_emulator/EngineImpl.hpp>

#include <utility>
#include <vector>

namespace poplar {

namespace core {
class Engine : public emulator::EngineCore {
  using EngineCore::EngineCore;
};
} // namespace core

Engine::Engine(const Graph &graph, ArrayRef<program::Program> progs,
               const OptionFlags &opt, ProgressFunc progressCallBack,
               const DebugContext &debugContext) {
  (void)opt;
  (void)debugContext;
  std::vector<core::ProgramImpl::Node> nodes;
  for (const program::Program &p : progs)
    nodes.push_back(emulator::Access<program::Program>::impl(p));
  impl.reset(new core::Engine(emulator::Access<Graph>::data(graph), std::move(nodes)));
  if (progressCallBack)
    progressCallBack(1, 1);
}

Engine::Engine(const Graph &graph, program::Program prog, const OptionFlags &opt,
               ProgressFunc progressCallBack, const DebugContext &debugContext)
    : Engine(graph, ArrayRef<program::Program>(&prog, 1), opt,
             std::move(progressCallBack), debugContext) {}

Engine::Engine(Engine &&) noexcept = default;
Engine &Engine::operator=(Engine &&) noexcept = default;
Engine::~Engine() = default;

void Engine::prepare(const Device &device) { get().load(device.getTarget()); }
void Engine::deploy() { get(); }
void Engine::load(const Device &device) { get().load(device.getTarget()); }

void Engine::run(unsigned prog, const std::string &debugName) {
  (void)debugName;
  get().run(prog);
}

void Engine::loadAndRun(const Device &device, unsigned prog) {
  load(device);
  run(prog);
}

void Engine::stop() { get(); }

void Engine::writeTensor(StringRef handle, const void *buf, const void *bufEnd) {
  get().writeTensor(handle.cloneAsString(), buf, bufEnd);
}

void Engine::readTensor(StringRef handle, void *buf, void *bufEnd) {
  get().readTensor(handle.cloneAsString(), buf, bufEnd);
}

void Engine::connectStream(StringRef handle, void *begin, void *end) {
  get().connectStream(handle.cloneAsString(), begin, end);
}

void Engine::connectStream(StringRef handle, void *p) {
  get().connectStream(handle.cloneAsString(), p);
}

void Engine::copyToRemoteBuffer(const void *data, StringRef handle,
                                std::uint64_t repeatIndex, unsigned replicationIndex) {
  get().copyRemote(handle.cloneAsString(), const_cast<void *>(data), repeatIndex,
                   replicationIndex, true);
}

void Engine::copyFromRemoteBuffer(StringRef handle, void *data,
                                  std::uint64_t repeatIndex, unsigned replicationIndex) {
  get().copyRemote(handle.cloneAsString(), data, repeatIndex, replicationIndex, false);
}

void Engine::printProfileSummary(std::ostream &outputStream,
                                 const OptionFlags &opt) const {
  (void)opt;
  get().printSummary(outputStream);
}

core::Engine &Engine::get() const {
  if (!impl)
    emulator::fail("Engine: moved-from engine");
  return *impl;
}

} // namespace poplar

const char *ipu_lower_emulator_report(void) {
  return poplar::emulator::processState().report.c_str();
}

const char *ipu_lower_emulator_measured(void) {
  poplar::emulator::ProcessState &state = poplar::emulator::processState();
  if (!state.measurement)
    return "{}";
  if (state.measured.empty())
    state.measured = state.measurement->json();
  return state.measured.c_str();
}

void ipu_lower_emulator_seed(unsigned long long seed) {
  poplar::emulator::reseed(seed);
}
