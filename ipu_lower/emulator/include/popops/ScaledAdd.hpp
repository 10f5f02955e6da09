// CPU emulator of poplibs' <popops/ScaledAdd.hpp> (SDK 3.x): the calls the printer
// emits, A += scaleB * B and A -= scaleB * B with the scale a tensor, with the
// signatures of poplibs' header (include/popops/ScaledAdd.hpp:79-82, 129-132 of
// graphcore/poplibs at 7eac0f26). Each appends one program step to `prog`; the Engine
// computes each element in float32 and rounds it into A's type when the step runs.
// A and B must have one shape and FLOAT or HALF elements, the scale one element of
// A's type (else the call fails). The cycle estimate of the step is in
// ipu_lower_emulator/CostModel.hpp.
#ifndef IPU_LOWER_EMU_POPOPS_SCALEDADD_HPP
#define IPU_LOWER_EMU_POPOPS_SCALEDADD_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A += scaleB * B, when the program runs.
void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = {});

/// A -= scaleB * B, when the program runs.
void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = {});

} // namespace popops

#endif // IPU_LOWER_EMU_POPOPS_SCALEDADD_HPP
