// popops::mulInPlace by a constant as a program step (popops/ElementWise.hpp).
#include <popops/ElementWise.hpp>

#include <ipu_lower_emulator/LibraryProgram.hpp>

#include <string>

namespace popops {
namespace detail {

void mulInPlaceByConstant(poplar::Graph &graph, const poplar::Tensor &A, double k,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext) {
  using namespace poplar::emulator;
  (void)graph;
  const ViewData &v = Access<poplar::Tensor>::data(A, "mulInPlace");
  const TypeId t = Access<poplar::Tensor>::type(A);
  if (t != TypeId::FLOAT && t != TypeId::HALF)
    fail("popops::mulInPlace: tensor " + v.describe() + " is " + typeName(t) +
         ", which a float constant does not multiply (FLOAT or HALF)");
  if (A.containsConstant())
    fail("popops::mulInPlace: tensor " + v.describe() + " is a constant");
  LibraryProgram p(poplar::core::ProgramImpl::Kind::MulInPlace, debugContext);
  poplar::core::ProgramImpl &n = p.node();
  n.out = A;
  n.scale = k;
  prog.add(p);
}

} // namespace detail
} // namespace popops
