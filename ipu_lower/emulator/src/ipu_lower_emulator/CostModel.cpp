// The BSP cycle cost model (ipu_lower_emulator/CostModel.hpp).
#include <ipu_lower_emulator/CostModel.hpp>
#include <ipu_lower_emulator/Arch.hpp>
#include <ipu_lower_emulator/Support.hpp>
#include <popops/ExprOp.hpp>

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
  c.busiest = maxBytes;
  c.exchange = ceilDiv(maxBytes, exchangeBytesPerCycle);
  c.syncs = (alwaysSync || maxBytes != 0) ? 1 : 0;
  c.sync = c.syncs * std::uint64_t(syncCycles);
  return c;
}

MatMulPartition matMulPartition(std::uint64_t g, std::uint64_t m, std::uint64_t k,
                                std::uint64_t n, unsigned elementBytes, unsigned tiles) {
  constexpr std::uint64_t kPartialBytes = 4; // float partials (PARTIAL_BYTES in cost_model.py)
  const std::uint64_t p = tiles;
  MatMulPartition best;
  bool found = false;
  for (std::uint64_t pg = 1; pg <= std::min(g, p); ++pg) {
    const std::uint64_t cg = ceilDiv(g, pg);
    for (std::uint64_t pm = 1; pm <= std::min(m, p / pg); ++pm) {
      const std::uint64_t cm = ceilDiv(m, pm);
      for (std::uint64_t pk = 1; pk <= std::min(k, p / (pg * pm)); ++pk) {
        const std::uint64_t ck = ceilDiv(k, pk);
        const std::uint64_t pn = std::min(n, p / (pg * pm * pk));
        const std::uint64_t cn = ceilDiv(n, pn);
        const std::uint64_t received = cg * (cm * ck + ck * cn) * elementBytes +
                                       cg * (pk - 1) * ceilDiv(cm * cn, pk) * kPartialBytes;
        const std::uint64_t flops = 2 * cg * cm * ck * cn;
        if (!found || received < best.receivedBytes ||
            (received == best.receivedBytes && flops < best.flops)) {
          best = {pg, pm, pk, pn, received, flops};
          found = true;
        }
      }
    }
  }
  return best;
}

StepCost matMulCost(std::uint64_t g, std::uint64_t m, std::uint64_t k, std::uint64_t n,
                    unsigned elementBytes, unsigned tiles, unsigned flopsPerCycle,
                    unsigned exchangeBytesPerCycle, unsigned syncCycles) {
  const MatMulPartition part = matMulPartition(g, m, k, n, elementBytes, tiles);
  StepCost c;
  c.compute = ceilDiv(part.flops * kMatmulEfficiencyWhole,
                      std::uint64_t(flopsPerCycle) * kMatmulEfficiencyShare);
  c.exchange = ceilDiv(part.receivedBytes, exchangeBytesPerCycle);
  c.exchangeBytes = part.receivedBytes * part.groups * part.rows * part.inner * part.columns;
  c.busiest = part.receivedBytes;
  c.sync = syncCycles;
  c.syncs = 1;
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
  c.syncs = 1;
  return c;
}

namespace {

constexpr std::uint64_t kFoldPerResult = 17; // CycleEstimationFunctions.cpp:313-322
constexpr std::uint64_t kNotFloatResult = 5; // :324-325
constexpr std::uint64_t kStageFactor = 64;   // ReductionPlan.hpp:147-150

std::uint64_t fold(std::uint64_t values, std::uint64_t results, unsigned width, bool floatResults,
                   unsigned workers) {
  if (results == 0)
    return 0;
  const std::uint64_t perResult = kFoldPerResult + (floatResults ? 0 : kNotFloatResult);
  return workers * (ceilDiv(results, workers) * perResult + ceilDiv(values, std::uint64_t(workers) * width));
}

} // namespace

StepCost reduceCost(const ReduceShape &r, unsigned tiles, unsigned workers,
                    unsigned exchangeBytesPerCycle, unsigned syncCycles) {
  const std::size_t outputs = r.outTiles.size();
  std::vector<std::uint64_t> pairs(r.inTiles.size());
  for (std::size_t i = 0; i < pairs.size(); ++i)
    pairs[i] = std::uint64_t(r.inTiles[i]) * outputs + r.outputOf[i];
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::vector<std::uint64_t> values(tiles, 0), results(tiles, 0), spread(outputs, 0);
  std::vector<unsigned> folder(outputs, 0);
  for (const unsigned t : r.inTiles)
    values[t]++;
  for (const std::uint64_t key : pairs) {
    const unsigned t = unsigned(key / outputs);
    const std::size_t o = key % outputs;
    results[t]++;
    spread[o]++;
    folder[o] = t;
  }
  std::uint64_t fanIn = 0, partials = 0;
  for (const std::uint64_t k : spread) {
    fanIn = std::max(fanIn, k);
    partials += k;
  }
  StepCost total;
  auto add = [&](const std::vector<std::uint64_t> &compute, const std::vector<std::uint64_t> &bytes) {
    const StepCost c = makeStepCost(compute, bytes, exchangeBytesPerCycle, syncCycles, true);
    total.compute += c.compute;
    total.exchange += c.exchange;
    total.sync += c.sync;
    total.syncs += c.syncs;
    total.busiest += c.busiest;
    total.exchangeBytes += c.exchangeBytes;
    total.tileCompute.insert(total.tileCompute.end(), c.tileCompute.begin(), c.tileCompute.end());
    total.tileExchange.insert(total.tileExchange.end(), c.tileExchange.begin(), c.tileExchange.end());
  };
  // 1. on the input's tiles
  const bool final = fanIn <= 1;
  std::vector<std::uint64_t> compute(tiles, 0), bytes(tiles, 0);
  for (unsigned t = 0; t < tiles; ++t) {
    const std::uint64_t v = values[t] + (final && r.update ? results[t] : 0);
    compute[t] = fold(v, results[t], r.valueWidth, final ? r.outFloat : r.accumFloat, workers);
  }
  if (final) {
    for (std::size_t o = 0; o < outputs; ++o)
      if (spread[o] != 0 && r.outTiles[o] != folder[o])
        bytes[folder[o]] += std::uint64_t(r.outBytes) * (r.update ? 2 : 1);
    add(compute, bytes);
    return total;
  }
  add(compute, bytes);
  // 2. intermediate stages
  std::uint64_t holding = 0;
  for (const std::uint64_t n : values)
    holding += n != 0;
  while (partials > kStageFactor * outputs &&
         !(double(fanIn) < 2 * std::sqrt(double(tiles)) && holding > std::uint64_t(tiles) * 3 / 4)) {
    const std::uint64_t s = std::max<std::uint64_t>(1, std::uint64_t(std::sqrt(double(partials / outputs))));
    std::uint64_t groups = 0;
    for (std::uint64_t &k : spread) {
      k = std::min(k, s);
      groups += k;
    }
    const std::uint64_t perTile = ceilDiv(groups, tiles), received = perTile * ceilDiv(fanIn, s);
    total.compute += fold(received, perTile, r.accumWidth, r.accumFloat, workers);
    total.exchange += ceilDiv(received * r.accumBytes, exchangeBytesPerCycle);
    total.exchangeBytes += partials * r.accumBytes;
    total.busiest += received * r.accumBytes;
    total.sync += syncCycles;
    total.syncs++;
    fanIn = std::min(fanIn, s);
    partials = groups;
    holding = std::min<std::uint64_t>(tiles, groups);
  }
  // 3. at the destination
  std::vector<std::uint64_t> folded(tiles, 0), owned(tiles, 0);
  std::fill(bytes.begin(), bytes.end(), 0);
  for (std::size_t o = 0; o < outputs; ++o) {
    const unsigned d = r.outTiles[o];
    folded[d] += spread[o] + (r.update ? 1 : 0);
    owned[d]++;
    bytes[d] += spread[o] * r.accumBytes;
  }
  for (unsigned t = 0; t < tiles; ++t)
    compute[t] = fold(folded[t], owned[t], r.accumWidth, r.outFloat, workers);
  add(compute, bytes);
  return total;
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

std::uint64_t scaledSubtractSupervisorCycles(bool half, std::uint64_t n, unsigned workers) {
  return scaledAddSupervisorCycles(half, n, workers) + 7; // :523-525
}

namespace {

/// One row of poplibs' OpPerformanceInfo tables (popopsCycleEstimators.hpp:43-66): a
/// loop of `cycles` over a natural vector (plus an overhead), over `unroll` elements,
/// or (unroll 0) over one element (plus an overhead).
struct LoopCost {
  unsigned cycles;
  bool naturalVector;
  unsigned unroll;
};

LoopCost binaryLoop(int op, bool half, bool inPlace) {
  using B = popops::expr::BinaryOpType;
  switch (static_cast<B>(op)) {
  case B::ADD:      // hpp:310-311, 472-473
  case B::SUBTRACT: // hpp:410-411, 572-573
  case B::MULTIPLY: // hpp:371-372, 533-534
    return {1, true, 0};
  case B::DIVIDE: // hpp:348-349, 509-510
    return half ? LoopCost{21, false, 4} : LoopCost{10, false, 2};
  case B::MAXIMUM: // hpp:357-358, 519-520
  case B::MINIMUM: // hpp:364-365, 526-527
    return half ? LoopCost{4, false, 4} : LoopCost{inPlace ? 4u : 3u, false, 2};
  default:
    fail("the emulator has no cycle estimate for BinaryOpType " + std::to_string(op));
  }
}

LoopCost unaryLoop(int op, bool half) {
  using U = popops::expr::UnaryOpType;
  switch (static_cast<U>(op)) {
  case U::ABSOLUTE: // hpp:105-106
    return {1, false, 0};
  case U::CEIL:  // hpp:127-128
  case U::FLOOR: // hpp:153-154
    return {2, true, 0};
  case U::EXPONENT:  // hpp:142, 144
  case U::EXPONENT2: // hpp:148, 150
    return half ? LoopCost{4, false, 4} : LoopCost{6, false, 2};
  case U::LOGARITHM: // hpp:172-173
  case U::TANH:      // hpp:202-203
    return half ? LoopCost{4, false, 4} : LoopCost{12, false, 2};
  case U::NEGATE: // hpp:177-178
    return {2, false, half ? 4u : 2u};
  case U::SQRT: // hpp:193-194
    return half ? LoopCost{23, false, 4} : LoopCost{10, false, 2};
  case U::RSQRT: // hpp:208-209
    return half ? LoopCost{19, false, 4} : LoopCost{8, false, 2};
  case U::TRUNC: // hpp:204-205
    return half ? LoopCost{11, false, 4} : LoopCost{3, false, 2};
  default:
    fail("the emulator has no cycle estimate for UnaryOpType " + std::to_string(op));
  }
}

} // namespace

std::uint64_t binaryOp1DCycles(int op, bool half, bool inPlace, std::uint64_t n, unsigned workers) {
  const LoopCost cost = binaryLoop(op, half, inPlace);
  const std::uint64_t perWorker = ceilDiv(n, workers); // cpp:1519, 1628
  // cpp:63-84: a natural vector per loop, plus 2 for the asm codelets of add, subtract
  // and multiply (cpp:38-42, 75); else `unroll` elements per loop.
  const std::uint64_t inner = cost.naturalVector ? ceilDiv(perWorker, half ? 4 : 2) * (cost.cycles + 2)
                                                 : ceilDiv(perWorker, cost.unroll) * cost.cycles;
  const std::uint64_t worker = inPlace ? 58 : (half ? 26 : 29); // cpp:1515, 1619
  return 11 + workers * (worker + inner);                       // cpp:1514, 1522, 1618, 1630
}

std::uint64_t unaryOp1DCycles(int op, bool half, std::uint64_t n, unsigned workers) {
  const LoopCost cost = unaryLoop(op, half);
  const std::uint64_t perWorker = ceilDiv(n, workers); // cpp:1553
  std::uint64_t inner;
  if (!cost.naturalVector && cost.unroll > 0) { // cpp:1497-1498
    inner = ceilDiv(perWorker, cost.unroll) * cost.cycles;
  } else { // cpp:1500-1506, basicOpLoopCycles (PerformanceEstimation.cpp:33-37)
    const std::uint64_t width = cost.naturalVector ? (half ? 4 : 2) : 1;
    inner = (cost.cycles + 4) * (perWorker + width - 1) / width;
  }
  const bool exponent = static_cast<popops::expr::UnaryOpType>(op) == popops::expr::UnaryOpType::EXPONENT;
  return 11 + 9 + workers * ((exponent ? 33 : 17) + inner); // cpp:1546-1557
}

std::uint64_t cast1DCycles(bool fromHalf, bool toHalf, std::uint64_t n, unsigned workers) {
  // castWorkerCycles for float <-> half (PerformanceEstimation.cpp:266-329): the vector
  // two 64-bit loads and one 64-bit store allow, max(load, store) cycles per vector,
  // 19 cycles of prologue, per bit of the remainder a check and 2 if it is set.
  const std::uint64_t perWorker = ceilDiv(n, workers); // :359-360
  const std::uint64_t fromWidth = fromHalf ? 4 : 2, toWidth = toHalf ? 4 : 2;
  const std::uint64_t vector = std::min(fromWidth * 2, toWidth);
  const std::uint64_t perVector =
      std::max(vector / std::min(vector, fromWidth), vector / std::min(vector, toWidth));
  std::uint64_t worker = 19 + perVector * (perWorker / vector);
  for (std::uint64_t bit = 1; bit < vector; bit <<= 1)
    worker += 1 + ((perWorker % vector) & bit ? 2 : 0);
  return 12 + workers * (worker + 18); // :361-363
}

} // namespace emulator
} // namespace poplar
