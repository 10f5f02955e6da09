// CPU emulator of poplibs' <poplin/MatMul.hpp> (SDK 3.x): products of matrices.
//
// The calls the printer emits and the plain matMul / matMulGrouped, with the
// signatures of poplibs' header (include/poplin/MatMul.hpp:110-130, 181-195, 243-248,
// 288-293, graphcore/poplibs sdk-release-3.3). Each appends one program step to
// `prog`; the Engine multiplies when the step runs, in float32 whatever the element
// type (poplin's default partialsType is float), and rounds once into the output.
// The Acc forms do as poplin does (lib/poplin/MatMul.cpp:499-521, 578-600): the
// product rounded to C's type, then popops::scaledAddTo(C, product, k), computed in
// float32 and rounded once. Arguments are checked when the step is added, as poplin
// does: operands of FLOAT or HALF, matrices (rank 2) or groups of them (rank 3, the
// same number of groups), inner dimensions that agree, an output of shape {rows of
// A, columns of B} (per group) that is not a constant. Options and the planning cache
// are accepted and ignored: the emulator has no plans. The cycle estimate of the step
// is in ipu_lower_emulator/CostModel.hpp.
#ifndef IPU_LOWER_EMU_POPLIN_MATMUL_HPP
#define IPU_LOWER_EMU_POPLIN_MATMUL_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace poplin {

/// Plans are cached by poplin; the emulator has none.
class PlanningCache;

/// A new tensor of `outputType` holding A B, mapped linearly over the tiles.
poplar::Tensor matMul(poplar::Graph &graph, const poplar::Tensor &A,
                      const poplar::Tensor &B, poplar::program::Sequence &prog,
                      const poplar::Type &outputType,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {},
                      PlanningCache *cache = nullptr);

/// As above, the output of A's element type.
poplar::Tensor matMul(poplar::Graph &graph, const poplar::Tensor &A,
                      const poplar::Tensor &B, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {},
                      PlanningCache *cache = nullptr);

/// Write A B into `out`, when the program runs.
void matMulWithOutput(poplar::Graph &graph, const poplar::Tensor &A_,
                      const poplar::Tensor &B_, poplar::Tensor &out,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options_ = {},
                      PlanningCache *cache = nullptr);

/// A new tensor of `outputType` holding A[g] B[g] for each group g (rank-3 A, B).
poplar::Tensor matMulGrouped(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B,
                             poplar::program::Sequence &prog,
                             const poplar::Type &outputType,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {},
                             PlanningCache *cache = nullptr);

/// Write A[g] B[g] into out[g], when the program runs.
void matMulGroupedWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B, poplar::Tensor &out,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options_ = {},
                             PlanningCache *cache = nullptr);

/// C += k A B, when the program runs.
void matMulAcc(poplar::Graph &graph, const poplar::Tensor &C, float k,
               const poplar::Tensor &A, const poplar::Tensor &B,
               poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = {},
               PlanningCache *cache = nullptr);

/// C[g] += k A[g] B[g], when the program runs.
void matMulGroupedAcc(poplar::Graph &graph, const poplar::Tensor &C, float k,
                      const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {},
                      PlanningCache *cache = nullptr);

} // namespace poplin

#endif // IPU_LOWER_EMU_POPLIN_MATMUL_HPP
