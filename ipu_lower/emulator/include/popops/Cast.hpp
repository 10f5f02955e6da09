// CPU emulator of poplibs' <popops/Cast.hpp> (SDK 3.x): the call the printer emits,
// the program converting a tensor into another of the same shape, with the signature
// of poplibs' header (include/popops/Cast.hpp:86-88 of graphcore/poplibs at 7eac0f26).
// The emulator converts between FLOAT and HALF (else the call fails), rounding to
// nearest when the program runs. The cycle estimate of the step is in
// ipu_lower_emulator/CostModel.hpp.
#ifndef IPU_LOWER_EMU_POPOPS_CAST_HPP
#define IPU_LOWER_EMU_POPOPS_CAST_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// The program writing src, converted to dst's element type, into dst.
poplar::program::Program cast(poplar::Graph &graph, poplar::Tensor src,
                              poplar::Tensor dst,
                              const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // IPU_LOWER_EMU_POPOPS_CAST_HPP
