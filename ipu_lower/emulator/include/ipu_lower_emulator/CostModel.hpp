// ipu-lower CPU emulator internals (no Poplar SDK counterpart): the BSP cycle cost model, in one place.
//
// Every number the model uses comes from the target (kArchTable in Arch.hpp,
// the copy of ipu_lower/arch.py, possibly overridden through IPUModel
// members) or from a vertex's Graph::setPerfEstimate. The rules:
//
//  Execute(cs), per execution (one BSP superstep):
//    compute_cycles  = max over tiles of the sum of setPerfEstimate cycles of
//                      the vertices on that tile. A vertex without an estimate
//                      counts 0 and is counted in "vertices_without_estimate".
//                      (source: the IPU Model takes cycles from perf estimates;
//                      tiles run their vertices concurrently, so the slowest
//                      tile sets the phase length.)
//    exchange_cycles = ceil(max over tiles of X[tile] / exchange_bytes_per_cycle)
//                      where X[tile] = bytes of the connected edge elements that
//                      live on another tile than their vertex, summed over the
//                      vertices on that tile; Input and Output elements count
//                      once, InOut elements twice (read in, written back).
//                      (assumption: every off-tile element crosses the exchange
//                      once per direction; no broadcast or multicast savings.)
//    sync_cycles     = sync_cycles of the target (assumption, see arch.py: one
//                      global sync per superstep).
//  Copy(src, dst) between tensors:
//    elements whose source and destination tiles differ move in the exchange:
//    exchange_cycles = ceil(max over destination tiles of their bytes /
//                      exchange_bytes_per_cycle), plus sync_cycles if any byte
//                      crosses tiles;
//    elements on the same tile are copied by that tile:
//    compute_cycles  = max over tiles of ceil(bytes / data_path_bytes)
//                      (assumption: one 64-bit load/store per cycle).
//  Copy between a stream and a tensor: treated as exchange into (or out of)
//    the tiles holding the tensor: ceil(max bytes per tile /
//    exchange_bytes_per_cycle) + sync_cycles (assumption: the host link is not
//    modelled separately).
//  popops::dynamicSliceWithOutput / dynamicUpdate, per execution: as a Copy
//    between the box the offsets select and the slice, plus sync_cycles
//    (assumption: the offsets reach the tiles holding the box in a sync).
//  poplin::matMulWithOutput of [M, K] x [K, N], per execution (one superstep;
//    the same formula as ipu_lower/cost_model.py matmul_cycles):
//    compute_cycles  = ceil(2 M K N / (tiles x flops_per_cycle)), flops_per_cycle
//                      the arch's peak per tile and cycle for A's element type
//                      (Arch.hpp: FP32 / FP16 AMP peaks over tiles x clock), at
//                      efficiency 1: no public measurement of poplin's fraction of
//                      peak was found, so this is the compute bound, a lower bound;
//    exchange_cycles = ceil(bytes of A, B and the product / (tiles x
//                      exchange_bytes_per_cycle)) (assumption: poplin's plan
//                      moves every operand and result element across the
//                      exchange once, spread evenly over the tiles);
//    sync_cycles     = sync_cycles of the target.
//  Copy between a remote buffer and a tensor (one repeat), per execution:
//    exchange_cycles = ceil(bytes x clock_hz / streaming_bytes_per_second), the
//    repeat crossing the IPU's link to streaming memory (Arch.hpp), plus
//    sync_cycles (the same formula as ipu_lower/cost_model.py
//    remote_copy_cycles; assumption: the link, not the tiles' exchange,
//    bounds the copy).
//  Sync: sync_cycles. If / Switch / RepeatWhileTrue / RepeatWhileFalse /
//    AbortOnCondition: sync_cycles per predicate evaluation (assumption: the
//    predicate is broadcast to every tile's control flow). Sequence, Repeat,
//    Loop, PrintTensor, WriteUndef: free.
//  total_cycles = sum over executed steps; estimated_seconds = total_cycles /
//    clock_hz.
#ifndef IPU_LOWER_EMU_COSTMODEL_HPP
#define IPU_LOWER_EMU_COSTMODEL_HPP

#include <cstdint>
#include <utility>
#include <vector>

namespace poplar {
namespace emulator {

inline std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

/// Cost of one execution of a step.
struct StepCost {
  std::uint64_t compute = 0, exchange = 0, sync = 0;
  std::uint64_t exchangeBytes = 0; ///< sum over tiles
  unsigned vertices = 0, unestimated = 0;
  std::vector<std::pair<unsigned, std::uint64_t>> tileCompute;  ///< cycles
  std::vector<std::pair<unsigned, std::uint64_t>> tileExchange; ///< bytes
  std::uint64_t cycles() const { return compute + exchange + sync; }
};

/// Turns per-tile totals (indexed by tile) into a StepCost.
///   computeCycles[t]: compute cycles of tile t;
///   exchangeBytes[t]: bytes tile t moves in the exchange.
StepCost makeStepCost(const std::vector<std::uint64_t> &computeCycles,
                      const std::vector<std::uint64_t> &exchangeBytes,
                      unsigned exchangeBytesPerCycle, unsigned syncCycles,
                      bool alwaysSync);

/// Cost of one poplin matrix product (see the rules above); `bytes` is the size
/// of A, B and the product together.
StepCost matMulCost(std::uint64_t flops, std::uint64_t bytes, unsigned tiles,
                    unsigned flopsPerCycle, unsigned exchangeBytesPerCycle,
                    unsigned syncCycles);

/// Cost of copying `bytes` between a remote buffer and tiles (see the rules above).
StepCost remoteCopyCost(std::uint64_t bytes, double clockHz,
                        unsigned long long streamingBytesPerSecond,
                        unsigned syncCycles);

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_COSTMODEL_HPP
