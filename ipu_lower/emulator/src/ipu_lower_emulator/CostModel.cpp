// The BSP cycle cost model (ipu_lower_emulator/CostModel.hpp).
#include <ipu_lower_emulator/CostModel.hpp>

#include <algorithm>

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

std::uint64_t binaryOp1DInPlaceMultiplyCycles(bool half, std::uint64_t n, unsigned workers) {
  const std::uint64_t width = half ? 4 : 2;      // 64-bit data path
  const std::uint64_t perVector = 1 + 2;         // table cycles + asm loop overhead
  const std::uint64_t perWorker = ceilDiv(n, workers);
  return 11 + workers * (58 + ceilDiv(perWorker, width) * perVector);
}

std::uint64_t scaledAddSupervisorCycles(bool half, std::uint64_t n, unsigned workers) {
  const std::uint64_t width = half ? 4 : 2;
  const std::uint64_t vectors = n / width, tail = n % width;
  const std::uint64_t perWorker = vectors / workers, leftover = vectors % workers;
  const std::uint64_t supervisor = 21 + 11 + (tail == 0 ? 7 : 13) + 12 + 6; // :508-527
  std::uint64_t slowest = 0;
  for (unsigned w = 0; w < workers; ++w) {
    std::uint64_t c = 15; // :597
    if (perWorker != 0)
      c += 6 + 3 * (perWorker - 1); // :599-602, same types, unconstrained
    c += 2;                         // :603
    if (w == leftover) {            // :604 (leftover vectors are never costed)
      c += 1;
      if (tail != 0) {
        if (!half)
          c += 8; // :608
        else
          c += 5 + (tail >= 2 ? 7 + (tail == 3 ? 6 : 0) : 0); // :610-614
      }
    }
    c += 1; // :620
    slowest = std::max(slowest, c);
  }
  return supervisor + slowest * workers; // :625-627
}

} // namespace emulator
} // namespace poplar
