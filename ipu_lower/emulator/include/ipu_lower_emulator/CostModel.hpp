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
//    the same formula as ipu_lower/cost_model.py matmul_cycles), on the busiest
//    tile of an explicit split of the product over the tiles (matMulPartition,
//    the same search as cost_model.py matmul_partition): of the (g, m, k, n)
//    splits with g m k n <= tiles, the one whose busiest tile receives the fewest
//    bytes, then computes the fewest FLOPs; a tile receives its blocks of A and B
//    in A's element type and, for k > 1, k - 1 float partials of its 1/k of the
//    result block (a reduce-scatter) (assumption: no operand lies where it is used);
//    compute_cycles  = ceil(busiest tile's FLOPs / (flops_per_cycle x 0.65)),
//                      flops_per_cycle the arch's AMP peak per tile and cycle for
//                      A's element type (Arch.hpp), 0.65 an assumed fraction of it
//                      read off a published plot (kMatmulEfficiency*, sourced in
//                      arch.py); adding the partials is not counted (assumption);
//    exchange_cycles = ceil(busiest tile's bytes / exchange_bytes_per_cycle);
//    sync_cycles     = sync_cycles of the target.
//    matMulGroupedWithOutput of G groups: the groups are a fourth dimension of
//    the split.
//    matMulAcc / matMulGroupedAcc (C += k A B): the product as above, then
//    popops::scaledAddTo(C, product, k), as poplin does (lib/poplin/MatMul.cpp:
//    499-521): compute = poplibs' ScaledAddSupervisor estimate for the elements
//    of C on its busiest tile (scaledAddSupervisorCycles below), plus a second
//    sync_cycles (assumption: the product is already on C's tiles, so only the
//    compute set's sync is added).
//  popops::mulInPlace(A, constant), per execution: compute = poplibs'
//    BinaryOp1DInPlace MULTIPLY estimate for the elements of A on its busiest
//    tile (binaryOp1DInPlaceMultiplyCycles below; poplibs places the vertices
//    where A lies, so nothing moves; the scalar-broadcast vertex poplibs picks for
//    a constant is estimated with this, the nearest formula ipu-lower restates),
//    plus sync_cycles.
//  popops::scaledAddTo / scaledSubtractFrom (A +-= k B), mapWithOutput / mapInPlace of
//    one expression op, cast, per execution (one superstep; the same formula as
//    ipu_lower/cost_model.py elementwise_cycles): popops puts the vertices where the
//    output (A) lies (lib/popops/ScaledAdd.cpp:219, ElementWise.cpp:531, 703,
//    Cast.cpp:110 of graphcore/poplibs at 7eac0f26), so
//    compute_cycles  = poplibs' estimate of the vertex for the output elements of the
//                      busiest tile: ScaledAddSupervisor (scaledAddSupervisorCycles;
//                      7 more for ScaledSubtractSupervisor), BinaryOp1D[InPlace]
//                      (binaryOp1DCycles), UnaryOp1D (unaryOp1DCycles), Cast1D
//                      (cast1DCycles);
//    exchange_cycles = ceil(max over tiles of the bytes of the input elements whose
//                      output element lies on that tile and which lie elsewhere, plus
//                      the scale's bytes on each tile of A but the scale's /
//                      exchange_bytes_per_cycle);
//    sync_cycles     = sync_cycles of the target.
//  Copy between a remote buffer and a tensor (one repeat), per execution:
//    exchange_cycles = ceil(bytes x clock_hz / streaming_bytes_per_second), the
//    repeat crossing the IPU's link to streaming memory (Arch.hpp), plus
//    sync_cycles (the same formula as ipu_lower/cost_model.py
//    remote_copy_cycles; assumption: the link, not the tiles' exchange,
//    bounds the copy).
//  popops::reduceWithOutput of `in` over `dims` into `out`, per execution (the same
//    formula as ipu_lower/cost_model.py reduce_cycles): popops' plan of stages
//    (lib/popops/reduction/Reduction.cpp:289-405 of graphcore/poplibs at 7eac0f26),
//    each one superstep: the busiest tile's compute, the bytes the busiest tile
//    receives, and sync_cycles. A tile folds v values of w per cycle into f results
//    (w: the 64-bit data path, 2 float / 4 half values, 1 int: getAccVectorWidth and
//    getCyclesEstimateForSingleInput, lib/popops/reduction/CycleEstimationFunctions.cpp
//    :292-330, 362-366), its 6 workers sharing them (combined as poplibs combines
//    worker cycles, lib/popops/PerformanceEstimation.cpp:625-626):
//      fold(v, f) = 6 * (ceil(f / 6) * (17 + 5 if the results are not float)
//                        + ceil(v / (6 w)))
//    (17 per result: entry and exit 3, init 6, remainder 5, summing the accumulators
//    3, :313-322; 5 more for a result not float, :324-325). k_o is the number of
//    tiles holding values of output o, P the sum of k_o, O the outputs.
//    1. On the input's tiles (inputToIntermediateNoExchange): tile t folds its n_t
//       values into one result per output they belong to, no exchange. When every
//       k_o is 1 (inputToOutputNoExchange) the results are the outputs (plus the old
//       value of each under update) and an output held by another tile crosses the
//       exchange once (twice under update), counted at the folding tile; otherwise
//       they are partials in the accumulator type, where they lie.
//    2. Intermediate stages, while P > 64 O (ReductionPlan.hpp:147-150) unless the
//       fan-in k = max k_o is under 2 sqrt(tiles) and the partials lie on more than
//       3/4 of the tiles (calculateNextStep, ReductionPlan.cpp:311-341): each
//       output's partials go in min(k_o, s) groups, s = floor(sqrt(P / O))
//       (ReductionPlan.cpp:226-231); the groups spread evenly over the tiles
//       (assumption): the busiest tile receives and folds ceil(G / tiles) groups of
//       ceil(k / s) partials.
//    3. At the destination: the tile of each output receives its k_o partials
//       (each one crossing: assumption) and folds them, with the old value under
//       update.
//  Sync: sync_cycles. If / Switch / RepeatWhileTrue / RepeatWhileFalse /
//    AbortOnCondition: sync_cycles per predicate evaluation (assumption: the
//    predicate is broadcast to every tile's control flow). Sequence, Repeat,
//    Loop, PrintTensor, WriteUndef: free.
//  total_cycles = sum over executed steps; estimated_seconds = total_cycles /
//    clock_hz.
#ifndef IPU_LOWER_EMU_COSTMODEL_HPP
#define IPU_LOWER_EMU_COSTMODEL_HPP

#include <cstddef>
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
  std::uint64_t busiest = 0;       ///< bytes of the tile that moves the most
  unsigned syncs = 0;              ///< how many syncs `sync` counts
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

/// A split of G products [M, K] x [K, N] over the tiles (see the rules above):
/// parts per dimension, and the busiest tile's received bytes and FLOPs.
struct MatMulPartition {
  std::uint64_t groups = 1, rows = 1, inner = 1, columns = 1;
  std::uint64_t receivedBytes = 0, flops = 0;
};

/// The split whose busiest tile receives the fewest bytes, then computes the fewest FLOPs.
MatMulPartition matMulPartition(std::uint64_t g, std::uint64_t m, std::uint64_t k,
                                std::uint64_t n, unsigned elementBytes, unsigned tiles);

/// Cost of one poplin matrix product of G [M, K] x [K, N] (see the rules above).
StepCost matMulCost(std::uint64_t g, std::uint64_t m, std::uint64_t k, std::uint64_t n,
                    unsigned elementBytes, unsigned tiles, unsigned flopsPerCycle,
                    unsigned exchangeBytesPerCycle, unsigned syncCycles);

/// Cost of copying `bytes` between a remote buffer and tiles (see the rules above).
StepCost remoteCopyCost(std::uint64_t bytes, double clockHz,
                        unsigned long long streamingBytesPerSecond,
                        unsigned syncCycles);

/// What the cost of a popops reduction depends on (see the rules above).
struct ReduceShape {
  std::vector<unsigned> inTiles;     ///< the tile of each input element
  std::vector<std::size_t> outputOf; ///< the output each input element goes to
  std::vector<unsigned> outTiles;    ///< the tile of each output element
  unsigned valueWidth = 1, accumWidth = 1; ///< values folded per cycle
  unsigned outBytes = 4, accumBytes = 4;
  bool accumFloat = true, outFloat = true, update = false;
};

/// Cost of one popops reduction, its stages summed.
StepCost reduceCost(const ReduceShape &r, unsigned tiles, unsigned workers,
                    unsigned exchangeBytesPerCycle, unsigned syncCycles);

/// poplibs' estimate of a BinaryOp1DInPlace MULTIPLY vertex over `n` float (or,
/// with `half`, half) elements on `workers` workers: 11 + workers * (58 +
/// ceil(ceil(n / workers) / vector width) * (1 + 2))
/// (lib/popops/popopsCycleEstimators.cpp:1510-1523, 63-84; the table entry
/// popopsCycleEstimators.hpp:533-534; vector width 2 floats or 4 halves; restated
/// in ipu_lower/poplibs_estimates.py binary_op_1d_in_place).
std::uint64_t binaryOp1DInPlaceMultiplyCycles(bool half, std::uint64_t n, unsigned workers);

/// poplibs' estimate of a ScaledAddSupervisor vertex (A += k B, A and B of one
/// type, not memory-constrained, as scaledAddTo picks by default) over `n` elements
/// (lib/popops/PerformanceEstimation.cpp:473-628; restated with its quirks in
/// ipu_lower/poplibs_estimates.py scaled_add_supervisor).
std::uint64_t scaledAddSupervisorCycles(bool half, std::uint64_t n, unsigned workers);

/// poplibs' estimate of a ScaledSubtractSupervisor vertex: scaledAddSupervisorCycles
/// plus the 7 supervisor cycles of SUBTRACT (lib/popops/PerformanceEstimation.cpp:
/// 523-525; ipu_lower/poplibs_estimates.py scaled_subtract_supervisor).
std::uint64_t scaledSubtractSupervisorCycles(bool half, std::uint64_t n, unsigned workers);

/// poplibs' estimate of a BinaryOp1D (or, `inPlace`, BinaryOp1DInPlace) vertex of the
/// popops::expr::BinaryOpType `op` over `n` elements (lib/popops/
/// popopsCycleEstimators.cpp:1510-1523, 1615-1632, 63-84; the tables
/// popopsCycleEstimators.hpp:305-585; restated in ipu_lower/poplibs_estimates.py
/// binary_op_1d, binary_op_1d_in_place).
std::uint64_t binaryOp1DCycles(int op, bool half, bool inPlace, std::uint64_t n, unsigned workers);

/// poplibs' estimate of a UnaryOp1D vertex of the popops::expr::UnaryOpType `op` over
/// `n` elements (popopsCycleEstimators.cpp:1493-1507, 1543-1559; the table
/// popopsCycleEstimators.hpp:104-212; ipu_lower/poplibs_estimates.py unary_op_1d).
std::uint64_t unaryOp1DCycles(int op, bool half, std::uint64_t n, unsigned workers);

/// poplibs' estimate of a Cast1D vertex converting `n` elements between float and
/// half (lib/popops/PerformanceEstimation.cpp:266-329, 356-365;
/// ipu_lower/poplibs_estimates.py cast_1d).
std::uint64_t cast1DCycles(bool fromHalf, bool toHalf, std::uint64_t n, unsigned workers);

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_COSTMODEL_HPP
