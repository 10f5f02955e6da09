// poplin's matrix products as program steps (poplin/MatMul.hpp).
#include <poplin/MatMul.hpp>

#include <ipu_lower_emulator/LibraryProgram.hpp>

#include <string>

namespace poplar {
namespace emulator {
namespace {

bool isFloat(TypeId t) { return t == TypeId::FLOAT || t == TypeId::HALF; }

/// Fails unless A and B are FLOAT or HALF matrices whose inner dimensions agree.
void checkOperands(const char *call, const Tensor &a, const Tensor &b) {
  const std::string where = std::string("poplin::") + call + ": ";
  const ViewData &av = Access<Tensor>::data(a, call);
  const ViewData &bv = Access<Tensor>::data(b, call);
  for (const auto *t : {&a, &b}) {
    const ViewData &v = t == &a ? av : bv;
    if (v.shape.size() != 2)
      fail(where + "operand " + v.describe() + " of shape " + shapeString(v.shape) +
           " is not a matrix");
    if (!isFloat(Access<Tensor>::type(*t)))
      fail(where + "operand " + v.describe() + " is " + typeName(Access<Tensor>::type(*t)) +
           ", not FLOAT or HALF");
  }
  if (Access<Tensor>::type(a) != Access<Tensor>::type(b))
    fail(where + "operands " + av.describe() + " and " + bv.describe() +
         " have different element types");
  if (av.shape[1] != bv.shape[0])
    fail(where + "operands of shapes " + shapeString(av.shape) + " and " +
         shapeString(bv.shape) + " do not agree");
}

} // namespace
} // namespace emulator
} // namespace poplar

namespace poplin {

poplar::Tensor matMul(poplar::Graph &graph, const poplar::Tensor &A,
                      const poplar::Tensor &B, poplar::program::Sequence &prog,
                      const poplar::Type &outputType,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options, PlanningCache *cache) {
  poplar::emulator::checkOperands("matMul", A, B);
  poplar::Tensor out = graph.addVariable(outputType, {A.dim(0), B.dim(1)},
                                         poplar::VariableMappingMethod::LINEAR,
                                         debugContext);
  matMulWithOutput(graph, A, B, out, prog, debugContext, options, cache);
  return out;
}

poplar::Tensor matMul(poplar::Graph &graph, const poplar::Tensor &A,
                      const poplar::Tensor &B, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options, PlanningCache *cache) {
  return matMul(graph, A, B, prog, A.elementType(), debugContext, options, cache);
}

void matMulWithOutput(poplar::Graph &graph, const poplar::Tensor &A_,
                      const poplar::Tensor &B_, poplar::Tensor &out,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options_, PlanningCache *cache) {
  using namespace poplar::emulator;
  (void)graph;
  (void)options_;
  (void)cache;
  checkOperands("matMulWithOutput", A_, B_);
  const ViewData &ov = Access<poplar::Tensor>::data(out, "matMulWithOutput");
  const std::vector<std::size_t> shape{A_.dim(0), B_.dim(1)};
  if (ov.shape != shape)
    fail("poplin::matMulWithOutput: output " + ov.describe() + " has shape " +
         shapeString(ov.shape) + ", not " + shapeString(shape));
  if (!isFloat(Access<poplar::Tensor>::type(out)))
    fail("poplin::matMulWithOutput: output " + ov.describe() + " is " +
         typeName(Access<poplar::Tensor>::type(out)) + ", not FLOAT or HALF");
  if (out.containsConstant())
    fail("poplin::matMulWithOutput: the output is a constant");
  LibraryProgram p(poplar::core::ProgramImpl::Kind::MatMul, debugContext);
  poplar::core::ProgramImpl &n = p.node();
  n.a = A_;
  n.b = B_;
  n.out = out;
  prog.add(p);
}

} // namespace poplin
