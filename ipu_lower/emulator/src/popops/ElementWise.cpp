// popops' elementwise calls as program steps: mulInPlace by a constant, mapWithOutput and
// mapInPlace of one expression op (popops/ElementWise.hpp), scaledAddTo and
// scaledSubtractFrom by a tensor (popops/ScaledAdd.hpp), cast (popops/Cast.hpp).
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ScaledAdd.hpp>

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

namespace poplar {
namespace emulator {
namespace {

/// Fails unless the tensors have one shape and FLOAT or HALF elements (one type when
/// `sameType`), as the emulator's elementwise popops calls need.
void checkElementwise(const std::string &call, const std::vector<const Tensor *> &ts,
                      bool sameType = true) {
  const ViewData &first = Access<Tensor>::data(*ts[0], call.c_str());
  for (const Tensor *t : ts) {
    const ViewData &v = Access<Tensor>::data(*t, call.c_str());
    const TypeId ty = Access<Tensor>::type(*t);
    if (ty != TypeId::FLOAT && ty != TypeId::HALF)
      fail("popops::" + call + ": tensor " + v.describe() + " is " + typeName(ty) +
           ", the emulator computes FLOAT or HALF elements");
    if (v.shape != first.shape)
      fail("popops::" + call + ": tensors " + first.describe() + " and " + v.describe() +
           " have different shapes");
    if (sameType && ty != Access<Tensor>::type(*ts[0]))
      fail("popops::" + call + ": tensors " + first.describe() + " and " + v.describe() +
           " have different element types");
  }
  if (ts.back()->containsConstant())
    fail("popops::" + call + ": the output " + Access<Tensor>::data(*ts.back(), call.c_str()).describe() +
         " is a constant");
}

bool emulatedUnary(popops::expr::UnaryOpType op) {
  using U = popops::expr::UnaryOpType;
  for (U known : {U::ABSOLUTE, U::CEIL, U::EXPONENT, U::EXPONENT2, U::FLOOR, U::LOGARITHM,
                  U::NEGATE, U::RSQRT, U::SQRT, U::TANH, U::TRUNC})
    if (op == known)
      return true;
  return false;
}

bool emulatedBinary(popops::expr::BinaryOpType op) {
  using B = popops::expr::BinaryOpType;
  for (B known : {B::ADD, B::SUBTRACT, B::MULTIPLY, B::DIVIDE, B::MAXIMUM, B::MINIMUM})
    if (op == known)
      return true;
  return false;
}

/// Appends the step of a map call of `op` (`known`: one the emulator runs; `b` null for a
/// unary op), the output `out` last among the tensors checked.
void mapStep(const char *call, bool known, int op, const Tensor &a, const Tensor *b, const Tensor &out,
             program::Sequence &prog, const DebugContext &debugContext) {
  if (!known)
    fail(std::string("popops::") + call + ": the emulator has no " + (b ? "BinaryOpType " : "UnaryOpType ") +
         std::to_string(op));
  if (b != nullptr && &out == &a)
    checkElementwise(call, {b, &a});
  else if (b != nullptr)
    checkElementwise(call, {&a, b, &out});
  else
    checkElementwise(call, {&a, &out});
  LibraryProgram p(core::ProgramImpl::Kind::Map, debugContext);
  core::ProgramImpl &n = p.node();
  n.mapOp = op;
  n.a = a;
  if (b != nullptr)
    n.b = *b;
  n.out = out;
  prog.add(p);
}

} // namespace
} // namespace emulator
} // namespace poplar

namespace popops {

void mapWithOutput(poplar::Graph &graph, expr::UnaryOpType op, const poplar::Tensor &in,
                   const poplar::Tensor &out, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  (void)graph;
  (void)options;
  poplar::emulator::mapStep("mapWithOutput", poplar::emulator::emulatedUnary(op), static_cast<int>(op), in,
                            nullptr, out, prog, debugContext);
}

void mapWithOutput(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a,
                   const poplar::Tensor &b, const poplar::Tensor &out,
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options) {
  (void)graph;
  (void)options;
  poplar::emulator::mapStep("mapWithOutput", poplar::emulator::emulatedBinary(op), static_cast<int>(op), a, &b,
                            out, prog, debugContext);
}

void mapInPlace(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a,
                const poplar::Tensor &b, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  (void)graph;
  (void)options;
  poplar::emulator::mapStep("mapInPlace", poplar::emulator::emulatedBinary(op), static_cast<int>(op), a, &b, a,
                            prog, debugContext);
}

} // namespace popops

namespace {

void scaledStep(const char *call, bool subtract, const poplar::Tensor &A, const poplar::Tensor &B,
                const poplar::Tensor &scaleB, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext) {
  using namespace poplar::emulator;
  checkElementwise(call, {&B, &A});
  const ViewData &sv = Access<poplar::Tensor>::data(scaleB, call);
  if (sv.size() != 1 || Access<poplar::Tensor>::type(scaleB) != Access<poplar::Tensor>::type(A))
    fail(std::string("popops::") + call + ": the scale " + sv.describe() + " must be one " +
         typeName(Access<poplar::Tensor>::type(A)) + " element");
  LibraryProgram p(poplar::core::ProgramImpl::Kind::ScaledAdd, debugContext);
  poplar::core::ProgramImpl &n = p.node();
  n.a = B;
  n.b = scaleB;
  n.out = A;
  n.subtract = subtract;
  prog.add(p);
}

} // namespace

namespace popops {

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                 const poplar::OptionFlags &options) {
  (void)graph;
  (void)options;
  scaledStep("scaledAddTo", false, A, B, scaleB, prog, debugContext);
}

void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options) {
  (void)graph;
  (void)options;
  scaledStep("scaledSubtractFrom", true, A, B, scaleB, prog, debugContext);
}

poplar::program::Program cast(poplar::Graph &graph, poplar::Tensor src, poplar::Tensor dst,
                              const poplar::DebugContext &debugContext) {
  using namespace poplar::emulator;
  (void)graph;
  checkElementwise("cast", {&src, &dst}, false);
  LibraryProgram p(poplar::core::ProgramImpl::Kind::Cast, debugContext);
  p.node().a = src;
  p.node().out = dst;
  return p;
}

} // namespace popops
