// CPU emulator of poplibs' <popops/DynamicSlice.hpp> (SDK 3.x): slicing and updating a
// tensor at offsets read from a tensor at run time.
//
// Only the two calls the printer emits are here, with the signatures of poplibs'
// header: dynamicSliceWithOutput and dynamicUpdate. Each appends one program step to
// `prog`; the Engine reads the offsets when the step runs and copies the box of `t`
// they select (the full extent in the dimensions not in `dims`). Arguments are checked
// when the step is added, as poplibs does: element types, the offset tensor (rank 1,
// UNSIGNED_INT, one offset per entry of `dims`), distinct dims in range, sizes that
// fit, and the shape of the slice. An offset whose box leaves the tensor is an error
// when the step runs (poplibs leaves it undefined).
#ifndef IPU_LOWER_EMU_POPOPS_DYNAMICSLICE_HPP
#define IPU_LOWER_EMU_POPOPS_DYNAMICSLICE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <vector>

namespace popops {

/// Copy the box of `t` at `offset` (sizes `sizes` in `dims`, whole in the others)
/// into `output`, when the program runs.
void dynamicSliceWithOutput(poplar::Graph &graph, const poplar::Tensor &output,
                            const poplar::Tensor &t, const poplar::Tensor &offset,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {});

/// Copy `s` into the box of `t` at `offset`, when the program runs.
void dynamicUpdate(poplar::Graph &graph, const poplar::Tensor &t,
                   const poplar::Tensor &s, const poplar::Tensor &offset,
                   const std::vector<std::size_t> &dims,
                   const std::vector<std::size_t> &sizes,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // IPU_LOWER_EMU_POPOPS_DYNAMICSLICE_HPP
