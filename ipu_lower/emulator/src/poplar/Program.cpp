// Control programs as a tree the Engine interprets (poplar/Program.hpp).
#include <poplar/Program.hpp>

namespace poplar {

namespace emulator {

void checkScalarPredicate(const char *program, const Tensor &t) {
  const ViewData &v = Access<Tensor>::data(t, program);
  const TypeId ty = Access<Tensor>::type(t);
  if (!v.shape.empty())
    fail(std::string(program) + ": the predicate/control tensor " + v.describe() +
         " must be a scalar (rank 0; use .reshape({})), not of shape " +
         shapeString(v.shape));
  if (typeInfo(ty).floating)
    fail(std::string(program) + ": the predicate/control tensor " + v.describe() +
         " must have an integral or bool type, not " + typeName(ty));
}

} // namespace emulator

namespace program {

Program::Program(Kind kind, const DebugContext &dc)
    : impl(std::make_shared<core::ProgramImpl>()) {
  impl->kind = kind;
  impl->name = dc.getPathName();
}

core::ProgramImpl &Program::own() {
  if (impl.use_count() > 1)
    impl = std::make_shared<core::ProgramImpl>(*impl);
  return *impl;
}

Execute::Execute(ComputeSet cs, const DebugContext &debugContext)
    : Program(Kind::Execute, debugContext) {
  impl->cs = cs.getId();
}

Execute::Execute(ComputeSet cs, Tensor t, const DebugContext &debugContext)
    : Program(Kind::Execute, debugContext) {
  emulator::checkScalarPredicate("Execute", t);
  impl->cs = cs.getId();
  impl->a = std::move(t);
  impl->executeResult = true;
}

Sequence::Sequence(std::initializer_list<Program> programs,
                   const DebugContext &debugContext)
    : Program(Kind::Sequence, debugContext) {
  for (const Program &p : programs)
    impl->children.push_back(node(p));
}

void Sequence::add(const Program &p) { own().children.push_back(node(p)); }

Repeat::Repeat(unsigned count, const Program &prog,
               const DebugContext &debugContext)
    : Program(Kind::Repeat, debugContext) {
  impl->count = count;
  impl->body = node(prog);
}

RepeatWhileFalse::RepeatWhileFalse(const Program &cond, Tensor predicate, const Program &body,
                                   const DebugContext &debugContext)
    : Program(Kind::RepeatWhileFalse, debugContext) {
  emulator::checkScalarPredicate("RepeatWhileFalse", predicate);
  impl->cond = node(cond);
  impl->a = std::move(predicate);
  impl->body = node(body);
}

RepeatWhileTrue::RepeatWhileTrue(const Program &cond, Tensor predicate, const Program &body,
                                 const DebugContext &debugContext)
    : Program(Kind::RepeatWhileTrue, debugContext) {
  emulator::checkScalarPredicate("RepeatWhileTrue", predicate);
  impl->cond = node(cond);
  impl->a = std::move(predicate);
  impl->body = node(body);
}

Loop::Loop(const Program &prog, const DebugContext &debugContext)
    : Program(Kind::Loop, debugContext) {
  impl->body = node(prog);
}

If::If(Tensor predicate, const Program &trueBody, const Program &falseBody,
       const DebugContext &debugContext)
    : Program(Kind::If, debugContext) {
  emulator::checkScalarPredicate("If", predicate);
  impl->a = std::move(predicate);
  impl->body = node(trueBody);
  impl->elseBody = node(falseBody);
}

Switch::Switch(Tensor control,
               const std::vector<std::pair<std::int32_t, Program>> &cases,
               const Program &defaultCaseBody, const DebugContext &debugContext)
    : Program(Kind::Switch, debugContext) {
  emulator::checkScalarPredicate("Switch", control);
  impl->a = std::move(control);
  impl->elseBody = node(defaultCaseBody);
  for (const auto &c : cases)
    add(c.first, c.second);
}

Switch &Switch::add(std::int32_t value, const Program &body) {
  core::ProgramImpl &n = own();
  for (const auto &c : n.cases)
    if (c.first == value)
      emulator::fail("Switch::add: duplicate case value " + std::to_string(value));
  n.cases.emplace_back(value, node(body));
  return *this;
}

Switch Switch::switchWithBoundsChecking(
    Tensor control, const std::vector<std::pair<std::int32_t, Program>> &cases,
    const DebugContext &debugContext) {
  Switch s(std::move(control), cases, debugContext);
  s.own().elseBody = node(Abort("Switch: control value out of bounds"));
  return s;
}

Switch Switch::switchWithUnreachableDefault(Tensor control,
                                            const DebugContext &debugContext) {
  Switch s(std::move(control), debugContext);
  s.own().elseBody = node(Abort("Switch: reached the unreachable default case"));
  return s;
}

Copy::Copy(Tensor src, Tensor dst, bool dontOutline,
           const DebugContext &debugContext)
    : Program(Kind::Copy, debugContext) {
  (void)dontOutline;
  const emulator::ViewData &s = emulator::Access<Tensor>::data(src, "Copy");
  const emulator::ViewData &d = emulator::Access<Tensor>::data(dst, "Copy");
  if (src.elementType() != dst.elementType() || s.size() != d.size() ||
      s.vars != d.vars)
    emulator::fail("Copy: source " + s.describe() + " (" +
                   emulator::typeName(emulator::Access<Tensor>::type(src)) + " " +
                   emulator::shapeString(s.shape) + ") and destination " +
                   d.describe() + " (" +
                   emulator::typeName(emulator::Access<Tensor>::type(dst)) + " " +
                   emulator::shapeString(d.shape) +
                   ") must have the same element type, number of elements and graph");
  impl->a = std::move(src);
  impl->b = std::move(dst);
}

Copy::Copy(const DataStream &stream, Tensor dst, bool optimiseMemory,
           const DebugContext &debugContext)
    : Program(Kind::StreamToDevice, debugContext) {
  (void)optimiseMemory;
  const auto &info = emulator::Access<DataStream>::info(stream);
  if (!info->toDevice())
    emulator::fail("Copy: stream '" + info->handle +
                   "' is device-to-host; it cannot be copied into a tensor");
  checkStream(*info, dst);
  impl->stream = info;
  impl->b = std::move(dst);
}

Copy::Copy(Tensor src, const DataStream &stream, bool optimiseMemory,
           const DebugContext &debugContext)
    : Program(Kind::StreamFromDevice, debugContext) {
  (void)optimiseMemory;
  const auto &info = emulator::Access<DataStream>::info(stream);
  if (info->toDevice())
    emulator::fail("Copy: stream '" + info->handle +
                   "' is host-to-device; a tensor cannot be copied into it");
  checkStream(*info, src);
  impl->stream = info;
  impl->a = std::move(src);
}

Copy::Copy(const RemoteBuffer &buffer, Tensor dst, const DebugContext &debugContext)
    : Program(Kind::RemoteToDevice, debugContext) {
  setRemote(buffer, std::move(dst), Tensor());
}

Copy::Copy(const RemoteBuffer &buffer, Tensor dst, Tensor offset,
           const DebugContext &debugContext)
    : Program(Kind::RemoteToDevice, debugContext) {
  setRemote(buffer, std::move(dst), std::move(offset));
}

Copy::Copy(Tensor src, const RemoteBuffer &buffer, const DebugContext &debugContext)
    : Program(Kind::RemoteFromDevice, debugContext) {
  setRemote(buffer, std::move(src), Tensor());
}

Copy::Copy(Tensor src, const RemoteBuffer &buffer, Tensor offset,
           const DebugContext &debugContext)
    : Program(Kind::RemoteFromDevice, debugContext) {
  setRemote(buffer, std::move(src), std::move(offset));
}

void Copy::setRemote(const RemoteBuffer &buffer, Tensor t, Tensor offset) {
  const auto &info = emulator::Access<RemoteBuffer>::info(buffer);
  const emulator::ViewData &v = emulator::Access<Tensor>::data(t, "Copy");
  if (t.elementType() != info->type || v.size() != info->numElements)
    emulator::fail("Copy: a repeat of remote buffer '" + info->handle + "' holds " +
                   std::to_string(info->numElements) + " elements of " +
                   info->type.toString().cloneAsString() + " but tensor " +
                   v.describe() + " has " + std::to_string(v.size()) +
                   " elements of " + t.elementType().toString().cloneAsString());
  if (offset.valid())
    emulator::checkScalarPredicate("Copy (remote buffer offset)", offset);
  impl->remote = info;
  (impl->kind == Kind::RemoteToDevice ? impl->b : impl->a) = std::move(t);
  impl->offset = std::move(offset);
}

void Copy::checkStream(const emulator::StreamInfo &info, const Tensor &t) {
  const emulator::ViewData &v = emulator::Access<Tensor>::data(t, "Copy");
  if (t.elementType() != info.type || v.size() != info.numElements)
    emulator::fail("Copy: stream '" + info.handle + "' carries " +
                   std::to_string(info.numElements) + " elements of " +
                   info.type.toString().cloneAsString() + " but tensor " +
                   v.describe() + " has " + std::to_string(v.size()) +
                   " elements of " + t.elementType().toString().cloneAsString());
}

WriteUndef::WriteUndef(Tensor t, const DebugContext &debugContext)
    : Program(Kind::WriteUndef, debugContext) {
  emulator::Access<Tensor>::data(t, "WriteUndef");
  impl->a = std::move(t);
}

Sync::Sync(SyncType type, const DebugContext &debugContext)
    : Program(Kind::Sync, debugContext) {
  impl->sync = type;
}

PrintTensor::PrintTensor(Tensor t, const DebugContext &debugContext)
    : Program(Kind::PrintTensor, debugContext) {
  const emulator::ViewData &v = emulator::Access<Tensor>::data(t, "PrintTensor");
  impl->message = v.varName();
  impl->a = std::move(t);
}

PrintTensor::PrintTensor(StringRef title, Tensor t, const DebugContext &debugContext)
    : Program(Kind::PrintTensor, debugContext) {
  emulator::Access<Tensor>::data(t, "PrintTensor");
  impl->message = title.cloneAsString();
  impl->a = std::move(t);
}

Abort::Abort(const std::string &message, const DebugContext &debugContext)
    : Program(Kind::Abort, debugContext) {
  impl->message = message;
}

AbortOnCondition::AbortOnCondition(Tensor predicate, const std::string &message,
                                   const DebugContext &debugContext)
    : Program(Kind::AbortOnCondition, debugContext) {
  emulator::checkScalarPredicate("AbortOnCondition", predicate);
  impl->a = std::move(predicate);
  impl->message = message;
}

Program Switch::Abort(const std::string &message) {
  return program::Abort(message);
}

} // namespace program
} // namespace poplar
