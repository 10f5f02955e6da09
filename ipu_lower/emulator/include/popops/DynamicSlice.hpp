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
#include <string>
#include <vector>

namespace poplar {
namespace emulator {

/// A program step of a poplibs call, built by the functions below.
class LibraryProgram : public program::Program {
public:
  LibraryProgram(Kind kind, const DebugContext &dc) : Program(kind, dc) {}
  core::ProgramImpl &node() { return own(); }
};

inline void checkDynamicSlice(const char *call, const Tensor &t, const Tensor &slice,
                              const Tensor &offset, const std::vector<std::size_t> &dims,
                              const std::vector<std::size_t> &sizes) {
  const ViewData &tv = Access<Tensor>::data(t, call);
  const ViewData &sv = Access<Tensor>::data(slice, call);
  const ViewData &ov = Access<Tensor>::data(offset, call);
  const std::string where = std::string("popops::") + call + ": ";
  if (Access<Tensor>::type(t) != Access<Tensor>::type(slice))
    fail(where + "tensor " + tv.describe() + " is " + typeName(Access<Tensor>::type(t)) +
         " but slice " + sv.describe() + " is " + typeName(Access<Tensor>::type(slice)));
  if (Access<Tensor>::type(offset) != TypeId::UNSIGNED_INT || ov.shape.size() != 1 ||
      ov.shape[0] != dims.size())
    fail(where + "the offset tensor " + ov.describe() + " must be UNSIGNED_INT of shape {" +
         std::to_string(dims.size()) + "}, not " + typeName(Access<Tensor>::type(offset)) +
         " " + shapeString(ov.shape));
  if (sizes.size() != dims.size())
    fail(where + std::to_string(dims.size()) + " dims but " + std::to_string(sizes.size()) +
         " sizes");
  std::vector<std::size_t> shape = tv.shape;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] >= tv.shape.size())
      fail(where + "dimension " + std::to_string(dims[k]) + " out of range for tensor " +
           tv.describe() + " of shape " + shapeString(tv.shape));
    for (std::size_t j = 0; j < k; ++j)
      if (dims[j] == dims[k])
        fail(where + "dimension " + std::to_string(dims[k]) + " is sliced twice");
    if (sizes[k] == 0 || sizes[k] > tv.shape[dims[k]])
      fail(where + "size " + std::to_string(sizes[k]) + " does not fit dimension " +
           std::to_string(dims[k]) + " of tensor " + tv.describe() + " of shape " +
           shapeString(tv.shape));
    shape[dims[k]] = sizes[k];
  }
  if (sv.shape != shape)
    fail(where + "slice " + sv.describe() + " has shape " + shapeString(sv.shape) +
         ", not " + shapeString(shape));
}

inline program::Program dynamicStep(core::ProgramImpl::Kind kind, const Tensor &t,
                                    const Tensor &slice, const Tensor &offset,
                                    const std::vector<std::size_t> &dims,
                                    const std::vector<std::size_t> &sizes,
                                    const DebugContext &debugContext) {
  LibraryProgram p(kind, debugContext);
  core::ProgramImpl &n = p.node();
  n.a = t;
  n.b = slice;
  n.offset = offset;
  n.dims = dims;
  n.sizes = sizes;
  return p;
}

} // namespace emulator
} // namespace poplar

namespace popops {

/// Copy the box of `t` at `offset` (sizes `sizes` in `dims`, whole in the others)
/// into `output`, when the program runs.
inline void dynamicSliceWithOutput(poplar::Graph &graph, const poplar::Tensor &output,
                                   const poplar::Tensor &t, const poplar::Tensor &offset,
                                   const std::vector<std::size_t> &dims,
                                   const std::vector<std::size_t> &sizes,
                                   poplar::program::Sequence &prog,
                                   const poplar::DebugContext &debugContext = {}) {
  (void)graph;
  poplar::emulator::checkDynamicSlice("dynamicSliceWithOutput", t, output, offset, dims, sizes);
  if (output.containsConstant())
    poplar::emulator::fail("popops::dynamicSliceWithOutput: the output is a constant");
  prog.add(poplar::emulator::dynamicStep(poplar::core::ProgramImpl::Kind::DynamicSlice, t,
                                         output, offset, dims, sizes, debugContext));
}

/// Copy `s` into the box of `t` at `offset`, when the program runs.
inline void dynamicUpdate(poplar::Graph &graph, const poplar::Tensor &t,
                          const poplar::Tensor &s, const poplar::Tensor &offset,
                          const std::vector<std::size_t> &dims,
                          const std::vector<std::size_t> &sizes,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {}) {
  (void)graph;
  poplar::emulator::checkDynamicSlice("dynamicUpdate", t, s, offset, dims, sizes);
  if (t.containsConstant())
    poplar::emulator::fail("popops::dynamicUpdate: the updated tensor is a constant");
  prog.add(poplar::emulator::dynamicStep(poplar::core::ProgramImpl::Kind::DynamicUpdate, t,
                                         s, offset, dims, sizes, debugContext));
}

} // namespace popops

#endif // IPU_LOWER_EMU_POPOPS_DYNAMICSLICE_HPP
