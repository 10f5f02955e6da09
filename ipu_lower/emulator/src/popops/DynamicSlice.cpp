// The poplibs dynamic slices as program steps (popops/DynamicSlice.hpp).
#include <popops/DynamicSlice.hpp>

#include <ipu_lower_emulator/LibraryProgram.hpp>

#include <string>

namespace poplar {
namespace emulator {
namespace {

void checkDynamicSlice(const char *call, const Tensor &t, const Tensor &slice,
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

program::Program dynamicStep(core::ProgramImpl::Kind kind, const Tensor &t,
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

} // namespace
} // namespace emulator
} // namespace poplar

namespace popops {

void dynamicSliceWithOutput(poplar::Graph &graph, const poplar::Tensor &output,
                            const poplar::Tensor &t, const poplar::Tensor &offset,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext) {
  (void)graph;
  poplar::emulator::checkDynamicSlice("dynamicSliceWithOutput", t, output, offset, dims, sizes);
  if (output.containsConstant())
    poplar::emulator::fail("popops::dynamicSliceWithOutput: the output is a constant");
  prog.add(poplar::emulator::dynamicStep(poplar::core::ProgramImpl::Kind::DynamicSlice, t,
                                         output, offset, dims, sizes, debugContext));
}

void dynamicUpdate(poplar::Graph &graph, const poplar::Tensor &t,
                   const poplar::Tensor &s, const poplar::Tensor &offset,
                   const std::vector<std::size_t> &dims,
                   const std::vector<std::size_t> &sizes,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext) {
  (void)graph;
  poplar::emulator::checkDynamicSlice("dynamicUpdate", t, s, offset, dims, sizes);
  if (t.containsConstant())
    poplar::emulator::fail("popops::dynamicUpdate: the updated tensor is a constant");
  prog.add(poplar::emulator::dynamicStep(poplar::core::ProgramImpl::Kind::DynamicUpdate, t,
                                         s, offset, dims, sizes, debugContext));
}

} // namespace popops

