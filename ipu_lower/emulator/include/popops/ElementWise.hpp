// CPU emulator of poplibs' <popops/ElementWise.hpp> (SDK 3.x): the one call the
// printer emits, mulInPlace of a tensor by a constant, with the signature of poplibs'
// header (include/popops/ElementWise.hpp:2159-2171, graphcore/poplibs sdk-release-3.3).
// It appends one program step to `prog`; the Engine multiplies each element in float32
// and rounds it into the tensor's type when the step runs. As poplibs' checkTypes
// (ElementWise.hpp:569-590), a float or double constant needs a FLOAT or HALF tensor;
// the emulator has no other constant types (a compile-time error, not a guess). The
// cycle estimate of the step is in ipu_lower_emulator/CostModel.hpp.
#ifndef IPU_LOWER_EMU_POPOPS_ELEMENTWISE_HPP
#define IPU_LOWER_EMU_POPOPS_ELEMENTWISE_HPP

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
