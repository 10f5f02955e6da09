// CPU emulator of poplibs' <popops/ElementWise.hpp> (SDK 3.x): the calls the printer
// emits, with the signatures of poplibs' header: mulInPlace of a tensor by a constant
// (include/popops/ElementWise.hpp:2159-2171, graphcore/poplibs sdk-release-3.3), and
// mapWithOutput / mapInPlace of one unary or binary expression op (ElementWise.hpp:
// 192-210, 241-262 at 7eac0f26). Each appends one program step to `prog`; the Engine
// computes each element in float32 and rounds it into the output's type when the step
// runs (the ops of ipu_lower/dialects/popops_elementwise.py; another op, or tensors of
// other shapes or of elements other than FLOAT or HALF, fail when the call is made). As poplibs' checkTypes
// (ElementWise.hpp:569-590), a float or double constant needs a FLOAT or HALF tensor;
// the emulator has no other constant types (a compile-time error, not a guess). The
// cycle estimate of the step is in ipu_lower_emulator/CostModel.hpp.
#ifndef IPU_LOWER_EMU_POPOPS_ELEMENTWISE_HPP
#define IPU_LOWER_EMU_POPOPS_ELEMENTWISE_HPP

#include <popops/ExprOp.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <type_traits>

namespace popops {
namespace detail {
/// Appends the step of mulInPlace(A, k).
void mulInPlaceByConstant(poplar::Graph &graph, const poplar::Tensor &A, double k,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext);
} // namespace detail

/// out = op(in), elementwise, when the program runs.
void mapWithOutput(poplar::Graph &graph, expr::UnaryOpType op, const poplar::Tensor &in,
                   const poplar::Tensor &out, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});

/// out = a op b, elementwise, when the program runs.
void mapWithOutput(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a,
                   const poplar::Tensor &b, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});

/// a = a op b, elementwise, when the program runs.
void mapInPlace(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a,
                const poplar::Tensor &b, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {});

/// A *= B for a constant B, when the program runs.
template <typename constType>
inline void mulInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                       const constType B, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {}) {
  static_assert(std::is_floating_point<constType>::value,
                "the emulator implements popops::mulInPlace by a float or double constant");
  (void)options;
  detail::mulInPlaceByConstant(graph, A, static_cast<double>(B), prog, debugContext);
}

} // namespace popops

#endif // IPU_LOWER_EMU_POPOPS_ELEMENTWISE_HPP
