// Mirrors Poplar SDK 3.x <poplar/Program.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_PROGRAM_HPP
#define IPU_LOWER_EMU_POPLAR_PROGRAM_HPP

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
class ProgramImpl; // stand-in impl name
} // namespace core

namespace program {

/// Base class of all control programs; a cheap, copyable handle.
class Program {
public:
  Program();
  Program(const Program &p);
  Program(Program &&p) noexcept;
  Program &operator=(const Program &p);
  Program &operator=(Program &&p) noexcept;
  ~Program();

  bool isEmpty() const;

protected:
  std::unique_ptr<core::ProgramImpl> impl;
};

bool operator==(const Program &lhs, const Program &rhs);

/// Run the vertices of a compute set.
class Execute : public Program {
public:
  Execute(ComputeSet cs, const DebugContext &debugContext = {});
  // Deprecated in SDK 3.0.
  Execute(ComputeSet cs, Tensor t, const DebugContext &debugContext = {});
};

/// Run programs one after another.
class Sequence : public Program {
public:
  Sequence(const DebugContext &debugContext = {});
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

/// Run a program forever.
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
         const DebugContext &debugContext = {});
  Switch(Tensor control,
         const std::vector<std::pair<std::int32_t, Program>> &cases,
         const Program &defaultCaseBody, const DebugContext &debugContext = {});
  Switch(Tensor control, const DebugContext &debugContext = {});
  Switch(Tensor control, const Program &defaultCaseBody,
         const DebugContext &debugContext = {});

  Switch &add(std::int32_t value, const Program &body); // unverified: return type

  static Switch
  switchWithBoundsChecking(Tensor control,
                           const std::vector<std::pair<std::int32_t, Program>> &cases,
                           const DebugContext &debugContext = {});
  static Switch switchWithUnreachableDefault(Tensor control,
                                             const DebugContext &debugContext = {});
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
};

/// Mark the contents of a tensor as undefined.
class WriteUndef : public Program {
public:
  WriteUndef(Tensor t, const DebugContext &debugContext = {});
};

/// Synchronise tiles (INTERNAL) or IPUs (EXTERNAL / GLOBAL).
class Sync : public Program {
public:
  Sync(SyncType type, const DebugContext &debugContext = {});
};

/// Print a tensor's contents to the host.
class PrintTensor : public Program {
public:
  PrintTensor(Tensor t, const DebugContext &debugContext = {});
  PrintTensor(StringRef title, Tensor t, const DebugContext &debugContext = {});
};

/// Throw an exception on the host.
class Abort : public Program {
public:
  Abort(const DebugContext &debugContext = {});
  Abort(const std::string &message, const DebugContext &debugContext = {});
};

/// Throw an exception on the host if a scalar predicate is true.
class AbortOnCondition : public Program {
public:
  AbortOnCondition(Tensor predicate, const DebugContext &debugContext = {});
  AbortOnCondition(Tensor predicate, const std::string &message,
                   const DebugContext &debugContext = {});
};

} // namespace program
} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_PROGRAM_HPP
