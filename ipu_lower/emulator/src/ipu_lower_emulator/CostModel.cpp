// The BSP cycle cost model (ipu_lower_emulator/CostModel.hpp).
#include <ipu_lower_emulator/CostModel.hpp>

#include <algorithm>
#include <cmath>

namespace poplar {
namespace emulator {

StepCost makeStepCost(const std::vector<std::uint64_t> &computeCycles,
                      const std::vector<std::uint64_t> &exchangeBytes,
                      unsigned exchangeBytesPerCycle, unsigned syncCycles,
                      bool alwaysSync) {
  StepCost c;
  std::uint64_t maxBytes = 0;
  for (unsigned t = 0; t < computeCycles.size(); ++t) {
    if (computeCycles[t] != 0) {
      c.tileCompute.emplace_back(t, computeCycles[t]);
      c.compute = std::max(c.compute, computeCycles[t]);
    }
    if (exchangeBytes[t] != 0) {
      c.tileExchange.emplace_back(t, exchangeBytes[t]);
      c.exchangeBytes += exchangeBytes[t];
      maxBytes = std::max(maxBytes, exchangeBytes[t]);
    }
  }
  c.exchange = ceilDiv(maxBytes, exchangeBytesPerCycle);
  c.sync = (alwaysSync || maxBytes != 0) ? syncCycles : 0;
  return c;
}

StepCost matMulCost(std::uint64_t flops, std::uint64_t bytes, unsigned tiles,
                    unsigned flopsPerCycle, unsigned exchangeBytesPerCycle,
                    unsigned syncCycles) {
  StepCost c;
  c.compute = ceilDiv(flops, std::uint64_t(tiles) * flopsPerCycle);
  c.exchange = ceilDiv(bytes, std::uint64_t(tiles) * exchangeBytesPerCycle);
  c.exchangeBytes = bytes;
  c.sync = syncCycles;
  return c;
}

StepCost remoteCopyCost(std::uint64_t bytes, double clockHz,
                        unsigned long long streamingBytesPerSecond,
                        unsigned syncCycles) {
  StepCost c;
  c.exchange = static_cast<std::uint64_t>(
      std::ceil(double(bytes) * clockHz / double(streamingBytesPerSecond)));
  c.exchangeBytes = bytes;
  c.sync = syncCycles;
  return c;
}

} // namespace emulator
} // namespace poplar
