// The poplibs reductions as program steps (popops/Reduce.hpp).
#include <popops/Reduce.hpp>

#include <ipu_lower_emulator/LibraryProgram.hpp>

#include <string>

namespace poplar {
namespace emulator {
namespace {

const char *operationName(popops::Operation op) {
  switch (op) {
  case popops::Operation::ADD:
    return "ADD";
  case popops::Operation::MUL:
    return "MUL";
  case popops::Operation::MIN:
    return "MIN";
  case popops::Operation::MAX:
    return "MAX";
  case popops::Operation::LOGICAL_AND:
    return "LOGICAL_AND";
  case popops::Operation::LOGICAL_OR:
    return "LOGICAL_OR";
  case popops::Operation::SQUARE_ADD:
    return "SQUARE_ADD";
  case popops::Operation::LOG_ADD:
    return "LOG_ADD";
  }
  return "?";
}

/// The input -> output types poplibs reduces with `op` (include/popops/Reduce.hpp:85-91).
bool supportedTypes(popops::Operation op, TypeId in, TypeId out) {
  const bool floats = (in == TypeId::FLOAT || in == TypeId::HALF) &&
                      (out == TypeId::FLOAT || out == TypeId::HALF);
  if (op == popops::Operation::ADD || op == popops::Operation::MUL)
    return floats || (in == TypeId::INT && out == TypeId::INT);
  return in == out && (in == TypeId::FLOAT || in == TypeId::HALF || in == TypeId::INT);
}

/// The output shape: the dimensions of `shape` not in `dims`.
std::vector<std::size_t> keptShape(const std::vector<std::size_t> &shape,
                                   const std::vector<std::size_t> &dims) {
  std::vector<std::size_t> kept;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    bool reduced = false;
    for (const std::size_t r : dims)
      reduced = reduced || r == d;
    if (!reduced)
      kept.push_back(shape[d]);
  }
  return kept;
}

std::vector<std::size_t> withoutOnes(const std::vector<std::size_t> &shape) {
  std::vector<std::size_t> out;
  for (const std::size_t n : shape)
    if (n != 1)
      out.push_back(n);
  return out;
}

/// The accumulator type an option names ("half" or "float"), or a failure.
TypeId accumType(const std::string &where, const std::string &option, const std::string &value) {
  if (value == "float")
    return TypeId::FLOAT;
  if (value == "half")
    return TypeId::HALF;
  fail(where + "option '" + option + "' takes half or float, not '" + value + "'");
}

void checkReduce(const char *call, const Tensor &in, TypeId outType,
                 const std::vector<std::size_t> &outShape, const std::vector<std::size_t> &dims,
                 const popops::ReduceParams &params) {
  const std::string where = std::string("popops::") + call + ": ";
  const ViewData &iv = Access<Tensor>::data(in, call);
  const TypeId inType = Access<Tensor>::type(in);
  const popops::Operation op = params.op;
  if (op != popops::Operation::ADD && op != popops::Operation::MUL &&
      op != popops::Operation::MIN && op != popops::Operation::MAX)
    fail(where + "Operation::" + operationName(op) + " is not emulated (ADD, MUL, MIN and MAX are)");
  for (const std::size_t d : dims)
    if (d >= iv.shape.size())
      fail(where + "invalid dimension " + std::to_string(d) + " for tensor " + iv.describe() +
           " of rank " + std::to_string(iv.shape.size()));
  const std::vector<std::size_t> kept = keptShape(iv.shape, dims);
  if (withoutOnes(outShape) != withoutOnes(kept))
    fail(where + "dimension mismatch in output: input " + iv.describe() + " of shape " +
         shapeString(iv.shape) + " reduced over " + shapeString(dims) + " gives " +
         shapeString(kept) + ", not " + shapeString(outShape));
  if (!supportedTypes(op, inType, outType))
    fail(where + "Operation::" + operationName(op) + " does not reduce " + typeName(inType) +
         " into " + typeName(outType));
  if (params.update && op != popops::Operation::ADD)
    fail(where + "update can only be used with ADD, LOG_ADD or SQUARE_ADD, not " +
         operationName(op));
  if (params.useScale) {
    if (op != popops::Operation::ADD)
      fail(where + "scale can only be used with ADD, LOG_ADD or SQUARE_ADD, not " +
           operationName(op));
    const ViewData &sv = Access<Tensor>::data(params.scale, call);
    if (Access<Tensor>::type(params.scale) != TypeId::FLOAT || sv.size() != 1)
      fail(where + "the scale " + sv.describe() + " must be one FLOAT element");
  }
}

/// The step: its accumulator types from the options (lib/popops/reduction/
/// Reduction.cpp:445-511: float for a half ADD or MUL, else the output type; an
/// option smaller than the output type is ignored).
program::Program reduceStep(const char *call, const Tensor &in, const Tensor &out,
                            const std::vector<std::size_t> &dims,
                            const popops::ReduceParams &params, const DebugContext &debugContext,
                            const OptionFlags &options) {
  const std::string where = std::string("popops::") + call + ": ";
  const TypeId outType = Access<Tensor>::type(out);
  const bool widen = outType == TypeId::HALF &&
                     (params.op == popops::Operation::ADD || params.op == popops::Operation::MUL);
  TypeId inVertex = widen ? TypeId::FLOAT : outType, interTile = inVertex;
  for (const auto &entry : options) {
    if (entry.first == "accumType.inVertex")
      inVertex = accumType(where, entry.first, entry.second);
    else if (entry.first == "accumType.interTile")
      interTile = accumType(where, entry.first, entry.second);
    else
      fail(where + "unrecognised option '" + entry.first + "'");
  }
  for (TypeId *t : {&inVertex, &interTile})
    if (typeSize(*t) < typeSize(outType))
      *t = outType;
  LibraryProgram p(core::ProgramImpl::Kind::Reduce, debugContext);
  core::ProgramImpl &n = p.node();
  n.a = in;
  n.out = out;
  n.dims = dims;
  n.reduceOp = static_cast<int>(params.op);
  n.update = params.update;
  if (params.useScale)
    n.b = params.scale;
  n.inVertex = inVertex;
  n.interTile = interTile;
  return p;
}

} // namespace
} // namespace emulator
} // namespace poplar

namespace popops {

poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                      const poplar::Type &outType, const std::vector<std::size_t> &dims,
                      ReduceParams params, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options) {
  using namespace poplar::emulator;
  if (params.update)
    fail("popops::reduce: cannot do an update using reduce(); call reduceWithOutput() instead");
  const std::vector<std::size_t> shape =
      keptShape(Access<poplar::Tensor>::data(in, "reduce").shape, dims);
  checkReduce("reduce", in, idOf(outType), shape, dims, params);
  poplar::Tensor out =
      graph.addVariable(outType, shape, poplar::VariableMappingMethod::LINEAR, debugContext);
  prog.add(reduceStep("reduce", in, out, dims, params, debugContext, options));
  return out;
}

poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options) {
  return reduce(graph, in, in.elementType(), dims, params, prog, debugContext, options);
}

void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options) {
  using namespace poplar::emulator;
  (void)graph;
  const ViewData &ov = Access<poplar::Tensor>::data(out, "reduceWithOutput");
  checkReduce("reduceWithOutput", in, Access<poplar::Tensor>::type(out), ov.shape, dims, params);
  if (out.containsConstant())
    fail("popops::reduceWithOutput: the output is a constant");
  prog.add(reduceStep("reduceWithOutput", in, out, dims, params, debugContext, options));
}

} // namespace popops
