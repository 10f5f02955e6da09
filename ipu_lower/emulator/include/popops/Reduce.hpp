// CPU emulator of poplibs' <popops/Reduce.hpp> (SDK 3.x): reductions of a tensor
// over some of its dimensions.
//
// ReduceParams and the Sequence forms of reduce and reduceWithOutput, with the
// signatures of poplibs' header (include/popops/Reduce.hpp:23-130 of
// graphcore/poplibs at 7eac0f26); the deprecated ComputeSet-vector forms and
// reduceMany are not here. Each call appends one program step to `prog`; the Engine
// reduces when the step runs: each tile's values into partial results in the
// accumulator type `accumType.inVertex`, the partials of each output in
// `accumType.interTile` (as popops' stages do), the old value of the output added
// under `update`, times `scale` when given, rounded once into the output. Both types
// default to float for a half ADD or MUL and to the output type otherwise, and a type
// smaller than the output's is ignored (lib/popops/reduction/Reduction.cpp:445-511).
// Arguments are checked when the step is added, as poplibs does: dimensions in range,
// the output's shape without its extent-1 dimensions that of the kept dimensions, the
// input and output types the operation supports (Reduce.hpp:85-91), update and scale
// only for ADD, a FLOAT scale, the option names and values. The emulator reduces ADD,
// MUL, MIN and MAX; the other operations are an error. reduce() maps the output it
// creates linearly (poplibs maps it by its plan). The cycle estimate of the step is
// in ipu_lower_emulator/CostModel.hpp.
#ifndef IPU_LOWER_EMU_POPOPS_REDUCE_HPP
#define IPU_LOWER_EMU_POPOPS_REDUCE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popops/OperationDef.hpp>

#include <cstddef>
#include <vector>

namespace popops {

/// The operation of a reduction, whether it updates its output
/// (`out += reduce(in)` rather than `out = reduce(in)`), and an optional FLOAT
/// scalar tensor that scales the result.
struct ReduceParams {
  ReduceParams() = default;
  ReduceParams(popops::Operation op, bool update = false) : op(op), update(update) {
    useScale = false;
  }
  ReduceParams(popops::Operation op, bool update, poplar::Tensor scale)
      : op(op), update(update), scale(scale) {
    useScale = true;
  }
  ReduceParams(popops::Operation op, float constantScale, bool update = false) = delete;

  popops::Operation op;
  bool update;
  bool useScale;
  poplar::Tensor scale;
};

/// A new tensor of `outType` holding `in` reduced over `dims`, when the program runs.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                      const poplar::Type &outType,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

/// As above, the output of `in`'s element type.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

/// Write `in` reduced over `dims` into `out` (or add it, under `params.update`),
/// when the program runs.
void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in,
                      const poplar::Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

} // namespace popops

#endif // IPU_LOWER_EMU_POPOPS_REDUCE_HPP
