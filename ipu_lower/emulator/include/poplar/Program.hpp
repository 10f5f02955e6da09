// CPU emulator of Poplar SDK 3.x <poplar/Program.hpp>: control programs as a tree the Engine interprets.
//
// A Program is a cheap handle to an immutable node (shared_ptr); Sequence::add
// and Switch::add copy the node first if another handle shares it, so handles
// behave as values: adding to `body` after `main.add(body)` does not change
// `main`. Argument errors (element counts, types, non-scalar predicates) are
// thrown by the constructors, where the SDK would report them at the latest.
#ifndef IPU_LOWER_EMU_POPLAR_PROGRAM_HPP
#define IPU_LOWER_EMU_POPLAR_PROGRAM_HPP

#include <ipu_lower_emulator/Support.hpp>
#include <poplar/DataStream.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Tensor.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace poplar {

/// Kind of synchronisation performed by program::Sync.
// unverified: the SDK declares this in its own header (not created here).
enum class SyncType { INTERNAL, EXTERNAL, GLOBAL };

namespace core {
/// One node of a program tree.
struct ProgramImpl {
  enum class Kind {
    Sequence,
    Execute,
    Copy,
    StreamToDevice,
    StreamFromDevice,
    RemoteToDevice,   ///< Copy(RemoteBuffer, Tensor[, offset])
    RemoteFromDevice, ///< Copy(Tensor, RemoteBuffer[, offset])
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    Loop,
    If,
    Switch,
    WriteUndef,
    Sync,
    PrintTensor,
    Abort,
    AbortOnCondition,
    DynamicSlice,  ///< popops::dynamicSliceWithOutput (popops/DynamicSlice.hpp)
    DynamicUpdate, ///< popops::dynamicUpdate
    MatMul,        ///< poplin::matMulWithOutput, matMulAcc and grouped forms (poplin/MatMul.hpp)
    Reduce,        ///< popops::reduceWithOutput (popops/Reduce.hpp)
    MulInPlace,    ///< popops::mulInPlace by a constant (popops/ElementWise.hpp)
    ScaledAdd,     ///< popops::scaledAddTo / scaledSubtractFrom by a tensor (popops/ScaledAdd.hpp)
    Map,           ///< popops::mapWithOutput / mapInPlace of one expression op (popops/ElementWise.hpp)
    Cast           ///< popops::cast (popops/Cast.hpp)
  };
  using Node = std::shared_ptr<const ProgramImpl>;

  Kind kind = Kind::Sequence;
  std::string name; ///< debug name
  std::vector<Node> children;                        ///< Sequence
  Node body, cond, elseBody;                         ///< loops, If, Switch default
  std::vector<std::pair<std::int32_t, Node>> cases;  ///< Switch
  unsigned cs = 0;                                   ///< Execute
  unsigned count = 0;                                ///< Repeat
  Tensor a, b; ///< Copy src/dst; predicate or control; printed/undef tensor; MatMul A, B;
               ///< Reduce: the input, the scale (if any); ScaledAdd: B, the scale;
               ///< Map: the inputs (b for a binary op); Cast: the source
  Tensor out;  ///< MatMul: the product; Reduce: the output; MulInPlace: the tensor scaled;
               ///< ScaledAdd: A; Map, Cast: the output
  double scale = 1; ///< MatMul with accumulate: k of C += k A B; MulInPlace: the constant
  bool accumulate = false; ///< MatMul: matMulAcc (C += k A B) rather than C = A B
  Tensor offset;                        ///< Dynamic*: the offsets, one per dim; Remote*: the repeat
  std::vector<std::size_t> dims, sizes; ///< Dynamic*: the sliced dims and sizes; Reduce: dims
  int reduceOp = 0;                     ///< Reduce: the popops::Operation
  int mapOp = 0;        ///< Map: the popops::expr::UnaryOpType or (b valid) BinaryOpType
  bool subtract = false; ///< ScaledAdd: scaledSubtractFrom
  bool update = false;                  ///< Reduce: add into the output
  emulator::TypeId inVertex = emulator::TypeId::INVALID,  ///< Reduce: the accumulator
      interTile = emulator::TypeId::INVALID;             ///< types (accumType.*)
  std::shared_ptr<const emulator::StreamInfo> stream;
  std::shared_ptr<const emulator::RemoteBufferInfo> remote; ///< Remote*
  SyncType sync = SyncType::INTERNAL;
  std::string message; ///< Abort*, PrintTensor title
  bool executeResult = false; ///< deprecated Execute(cs, t)
};
} // namespace core

namespace program {
class Program;
}

namespace emulator {
template <> struct Access<program::Program> {
  static const std::shared_ptr<core::ProgramImpl> &impl(const program::Program &p);
};

/// Fails unless `t` is a scalar of an integral or bool type.
void checkScalarPredicate(const char *program, const Tensor &t);
} // namespace emulator

namespace program {

/// Base class of all control programs; a cheap, copyable handle.
class Program {
public:
  Program() = default;
  Program(const Program &p) = default;
  Program(Program &&p) noexcept = default;
  Program &operator=(const Program &p) = default;
  Program &operator=(Program &&p) noexcept = default;
  ~Program() = default;

  bool isEmpty() const {
    return !impl || (impl->kind == core::ProgramImpl::Kind::Sequence &&
                     impl->children.empty());
  }

protected:
  using Kind = core::ProgramImpl::Kind;
  Program(Kind kind, const DebugContext &dc);
  static core::ProgramImpl::Node node(const Program &p) {
    return emulator::Access<Program>::impl(p);
  }
  /// Copy-on-write: the node this handle may modify.
  core::ProgramImpl &own();
  std::shared_ptr<core::ProgramImpl> impl;
  template <class> friend struct emulator::Access;
};

inline bool operator==(const Program &lhs, const Program &rhs) {
  return emulator::Access<Program>::impl(lhs) == emulator::Access<Program>::impl(rhs);
}

/// Run the vertices of a compute set.
class Execute : public Program {
public:
  Execute(ComputeSet cs, const DebugContext &debugContext = {});
  // Deprecated in SDK 3.0. unverified: the emulator writes 1 to the scalar t
  // when every vertex returned true (or void), else 0.
  Execute(ComputeSet cs, Tensor t, const DebugContext &debugContext = {});
};

/// Run programs one after another.
class Sequence : public Program {
public:
  Sequence(const DebugContext &debugContext = {})
      : Program(Kind::Sequence, debugContext) {}
  Sequence(std::initializer_list<Program> programs,
           const DebugContext &debugContext = {});
  void add(const Program &p); // unverified: return type
};

/// Run a program a fixed number of times.
class Repeat : public Program {
public:
  Repeat(unsigned count, const Program &prog,
         const DebugContext &debugContext = {});
};

/// Run `cond`, then `body` while the scalar predicate is false.
class RepeatWhileFalse : public Program {
public:
  RepeatWhileFalse(const Program &cond, Tensor predicate, const Program &body,
                   const DebugContext &debugContext = {});
};

/// Run `cond`, then `body` while the scalar predicate is true.
class RepeatWhileTrue : public Program {
public:
  RepeatWhileTrue(const Program &cond, Tensor predicate, const Program &body,
                  const DebugContext &debugContext = {});
};

/// Run a program forever (only an Abort or an error ends it).
class Loop : public Program {
public:
  Loop(const Program &prog, const DebugContext &debugContext = {});
};

/// Run one of two programs depending on a scalar predicate.
class If : public Program {
public:
  If(Tensor predicate, const Program &trueBody, const Program &falseBody,
     const DebugContext &debugContext = {});
};

/// Run the program whose case value matches a scalar control tensor.
class Switch : public Program {
public:
  Switch(Tensor control,
         const std::vector<std::pair<std::int32_t, Program>> &cases,
         const DebugContext &debugContext = {})
      : Switch(std::move(control), cases, Program(), debugContext) {}
  Switch(Tensor control,
         const std::vector<std::pair<std::int32_t, Program>> &cases,
         const Program &defaultCaseBody, const DebugContext &debugContext = {});
  Switch(Tensor control, const DebugContext &debugContext = {})
      : Switch(std::move(control), {}, Program(), debugContext) {}
  Switch(Tensor control, const Program &defaultCaseBody,
         const DebugContext &debugContext = {})
      : Switch(std::move(control), {}, defaultCaseBody, debugContext) {}

  Switch &add(std::int32_t value, const Program &body); // unverified: return type

  static Switch
  switchWithBoundsChecking(Tensor control,
                           const std::vector<std::pair<std::int32_t, Program>> &cases,
                           const DebugContext &debugContext = {});
  static Switch switchWithUnreachableDefault(Tensor control,
                                             const DebugContext &debugContext = {});

private:
  // program::Abort(message): Abort is declared after Switch in the SDK header order.
  static Program Abort(const std::string &message);
};

/// Copy between tensors (exchange across tiles) or between a tensor and a
/// host stream.
class Copy : public Program {
public:
  Copy(Tensor src, Tensor dst, bool dontOutline = false,
       const DebugContext &debugContext = {});
  Copy(const DataStream &stream, Tensor dst, bool optimiseMemory = false,
       const DebugContext &debugContext = {});
  Copy(Tensor src, const DataStream &stream, bool optimiseMemory = false,
       const DebugContext &debugContext = {});
  /// Repeat 0 (or the repeat the scalar integer `offset` holds when the
  /// program runs) of a remote buffer into `dst`, and back (Poplar API
  /// reference, class poplar::program::Copy).
  Copy(const RemoteBuffer &buffer, Tensor dst, const DebugContext &debugContext = {});
  Copy(const RemoteBuffer &buffer, Tensor dst, Tensor offset,
       const DebugContext &debugContext = {});
  Copy(Tensor src, const RemoteBuffer &buffer, const DebugContext &debugContext = {});
  Copy(Tensor src, const RemoteBuffer &buffer, Tensor offset,
       const DebugContext &debugContext = {});

private:
  static void checkStream(const emulator::StreamInfo &info, const Tensor &t);
  void setRemote(const RemoteBuffer &buffer, Tensor t, Tensor offset);
};

/// Mark the contents of a tensor as undefined (the emulator leaves them).
class WriteUndef : public Program {
public:
  WriteUndef(Tensor t, const DebugContext &debugContext = {});
};

/// Synchronise tiles (INTERNAL) or IPUs (EXTERNAL / GLOBAL).
class Sync : public Program {
public:
  Sync(SyncType type, const DebugContext &debugContext = {});
};

/// Print a tensor's contents to the host (stdout).
class PrintTensor : public Program {
public:
  PrintTensor(Tensor t, const DebugContext &debugContext = {});
  PrintTensor(StringRef title, Tensor t, const DebugContext &debugContext = {});
};

/// Throw an exception on the host.
class Abort : public Program {
public:
  Abort(const DebugContext &debugContext = {}) : Program(Kind::Abort, debugContext) {}
  Abort(const std::string &message, const DebugContext &debugContext = {});
};

/// Throw an exception on the host if a scalar predicate is true.
class AbortOnCondition : public Program {
public:
  AbortOnCondition(Tensor predicate, const DebugContext &debugContext = {})
      : AbortOnCondition(std::move(predicate), std::string(), debugContext) {}
  AbortOnCondition(Tensor predicate, const std::string &message,
                   const DebugContext &debugContext = {});
};

} // namespace program

namespace emulator {
inline const std::shared_ptr<core::ProgramImpl> &
Access<program::Program>::impl(const program::Program &p) {
  return p.impl;
}
} // namespace emulator

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_PROGRAM_HPP
