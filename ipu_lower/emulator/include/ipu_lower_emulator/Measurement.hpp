// ipu-lower CPU emulator internals (no Poplar SDK counterpart): what a run measured.
//
// Counted from what ran and from the graph as the host code built it (tile
// mappings, connected edges), never from an estimate, so that the compiler's
// plan can be checked against it (ipu_lower/cost_model.py ProgramEstimate):
//
//  * per step (a program node that ran): executions; syncs (each superstep,
//    each copy that crosses tiles, each dynamic slice or update, each
//    predicate evaluation, each Sync); the bytes the busiest tile moves in the
//    exchange, summed over the executions: for an Execute, the elements its
//    vertices' edges connect that another tile holds (by the variables' tile
//    mappings; Input and Output once, InOut twice: in, and back), counted at
//    the vertex's tile; for a copy or a dynamic slice, the elements its
//    destination tile receives from another tile (a dynamic slice's box is
//    the one its offsets select when it runs); for a stream or remote buffer
//    copy, the elements each tile holds.
//    Steps of poplibs calls the emulator does not run as supersteps (matmul,
//    reduce, elementwise) are `modelled`: their syncs and bytes are those of
//    the cost model (CostModel.hpp), not measured.
//  * per compute set that ran: its runs, its busiest tile and that tile's
//    exchange bytes per run, and per vertex the elements it touched over the
//    run: read, the elements of its Input and InOut edges as bound, per
//    execution; written, the Output elements its codelet assigned (counted
//    through the written flag each Output element carries) plus its InOut
//    elements, which are written back whole. Reads are counted by bound size,
//    not per access: Input elements are plain references (codelets take their
//    addresses and loop over pointers, as popc code does), and a counting
//    proxy would change the types codelet code sees.
#ifndef IPU_LOWER_EMU_MEASUREMENT_HPP
#define IPU_LOWER_EMU_MEASUREMENT_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace poplar {
namespace emulator {

/// One program node that ran, with totals over its executions.
struct StepStats {
  std::string name, kind;
  std::uint64_t executions = 0, compute = 0, exchange = 0, sync = 0; ///< cycles
  std::uint64_t exchangeBytes = 0; ///< over all tiles
  std::uint64_t busiestBytes = 0;  ///< the busiest tile's, per execution, summed
  std::uint64_t syncs = 0;
  unsigned vertices = 0, unestimated = 0;
  bool modelled = false; ///< a poplibs call: syncs and bytes from the cost model
};

/// Appends `{"name": ..., "kind": ..., "executions": ...` of a step to `j` (the
/// step's object in the report and in the measurement, unclosed).
void stepHead(std::string &j, const StepStats &s);

/// The elements one vertex touched over a run.
struct VertexElements {
  unsigned tile = 0;
  std::uint64_t read = 0, written = 0;
};

/// A compute set that ran: its runs, its exchange per run and its vertices.
struct ComputeSetMeasure {
  std::string name;
  std::uint64_t runs = 0;
  unsigned busiestTile = 0;
  std::uint64_t busiestBytes = 0, exchangeBytes = 0; ///< per run
  std::vector<VertexElements> vertices;
};

struct Measurement {
  unsigned program = 0;
  std::uint64_t engineRuns = 0;
  std::vector<StepStats> steps;              ///< in order of first execution
  std::vector<ComputeSetMeasure> computeSets; ///< in order of first execution
  std::string json() const;
};

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_MEASUREMENT_HPP
