// poplin's matrix products as program steps (poplin/MatMul.hpp).
#include <poplin/MatMul.hpp>

#include <ipu_lower_emulator/LibraryProgram.hpp>

#include <string>

namespace poplar {
namespace emulator {
namespace {

bool isFloat(TypeId t) { return t == TypeId::FLOAT || t == TypeId::HALF; }

/// Fails unless A and B are FLOAT or HALF matrices (`groups`: groups of matrices,
/// rank 3, as many of each) whose inner dimensions agree.
void checkOperands(const char *call, const Tensor &a, const Tensor &b, bool groups) {
  const std::string where = std::string("poplin::") + call + ": ";
  const ViewData &av = Access<Tensor>::data(a, call);
  const ViewData &bv = Access<Tensor>::data(b, call);
  const std::size_t rank = groups ? 3 : 2;
  for (const auto *t : {&a, &b}) {
    const ViewData &v = t == &a ? av : bv;
    if (v.shape.size() != rank)
      fail(where + "operand " + v.describe() + " of shape " + shapeString(v.shape) +
           (groups ? " is not a group of matrices" : " is not a matrix"));
    if (!isFloat(Access<Tensor>::type(*t)))
      fail(where + "operand " + v.describe() + " is " + typeName(Access<Tensor>::type(*t)) +
           ", not FLOAT or HALF");
  }
  if (Access<Tensor>::type(a) != Access<Tensor>::type(b))
    fail(where + "operands " + av.describe() + " and " + bv.describe() +
         " have different element types");
  if (av.shape[rank - 1] != bv.shape[rank - 2] || (groups && av.shape[0] != bv.shape[0]))
    fail(where + "operands of shapes " + shapeString(av.shape) + " and " +
         shapeString(bv.shape) + " do not agree");
}

/// The shape of the product of A and B (of groups of matrices, with `groups`).
std::vector<std::size_t> productShape(const Tensor &a, const Tensor &b, bool groups) {
  std::vector<std::size_t> shape{a.dim(groups ? 1 : 0), b.dim(groups ? 2 : 1)};
  if (groups)
    shape.insert(shape.begin(), a.dim(0));
  return shape;
}

/// A new variable for the product of A and B, mapped linearly (matMul, matMulGrouped).
Tensor newOutput(const char *call, Graph &graph, const Tensor &a, const Tensor &b,
                 const Type &type, bool groups, const DebugContext &debugContext) {
  checkOperands(call, a, b, groups);
  return graph.addVariable(type, productShape(a, b, groups), VariableMappingMethod::LINEAR,
                           debugContext);
}

/// Checks the output (or, for the Acc forms, C) and appends the step.
void addProduct(const char *call, const Tensor &a, const Tensor &b, const Tensor &out,
                bool groups, bool accumulate, float k, program::Sequence &prog,
                const DebugContext &debugContext) {
  checkOperands(call, a, b, groups);
  const std::string where = std::string("poplin::") + call + ": ";
  const ViewData &ov = Access<Tensor>::data(out, call);
  const std::vector<std::size_t> shape = productShape(a, b, groups);
  const char *what = accumulate ? "C " : "output ";
  if (ov.shape != shape)
    fail(where + what + ov.describe() + " has shape " + shapeString(ov.shape) + ", not " +
         shapeString(shape));
  if (!isFloat(Access<Tensor>::type(out)))
    fail(where + what + ov.describe() + " is " + typeName(Access<Tensor>::type(out)) +
         ", not FLOAT or HALF");
  if (out.containsConstant())
    fail(where + "the " + what + "is a constant");
  LibraryProgram p(core::ProgramImpl::Kind::MatMul, debugContext);
  core::ProgramImpl &n = p.node();
  n.a = a;
  n.b = b;
  n.out = out;
  n.accumulate = accumulate;
  n.scale = k;
  prog.add(p);
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
  poplar::Tensor out = poplar::emulator::newOutput("matMul", graph, A, B, outputType, false,
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

// The emulator has no plans: the graph, options and cache are not used.

void matMulWithOutput(poplar::Graph &, const poplar::Tensor &A_, const poplar::Tensor &B_,
                      poplar::Tensor &out, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext, const poplar::OptionFlags &,
                      PlanningCache *) {
  poplar::emulator::addProduct("matMulWithOutput", A_, B_, out, false, false, 1, prog,
                               debugContext);
}

poplar::Tensor matMulGrouped(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B,
                             poplar::program::Sequence &prog,
                             const poplar::Type &outputType,
                             const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options, PlanningCache *cache) {
  poplar::Tensor out = poplar::emulator::newOutput("matMulGrouped", graph, A, B, outputType,
                                                   true, debugContext);
  matMulGroupedWithOutput(graph, A, B, out, prog, debugContext, options, cache);
  return out;
}

void matMulGroupedWithOutput(poplar::Graph &, const poplar::Tensor &A, const poplar::Tensor &B,
                             poplar::Tensor &out, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &, PlanningCache *) {
  poplar::emulator::addProduct("matMulGroupedWithOutput", A, B, out, true, false, 1, prog,
                               debugContext);
}

void matMulAcc(poplar::Graph &, const poplar::Tensor &C, float k, const poplar::Tensor &A,
               const poplar::Tensor &B, poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext, const poplar::OptionFlags &,
               PlanningCache *) {
  poplar::emulator::addProduct("matMulAcc", A, B, C, false, true, k, prog, debugContext);
}

void matMulGroupedAcc(poplar::Graph &, const poplar::Tensor &C, float k,
                      const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext, const poplar::OptionFlags &,
                      PlanningCache *) {
  poplar::emulator::addProduct("matMulGroupedAcc", A, B, C, true, true, k, prog,
                               debugContext);
}

} // namespace poplin
