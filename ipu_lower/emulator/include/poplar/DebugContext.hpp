// Mirrors Poplar SDK 3.x <poplar/DebugContext.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
//
// SourceLocation is a literal value type (captured through __builtin_FUNCTION/
// __builtin_FILE/__builtin_LINE in default arguments), so it is defined inline.
#ifndef IPU_LOWER_EMU_POPLAR_DEBUGCONTEXT_HPP
#define IPU_LOWER_EMU_POPLAR_DEBUGCONTEXT_HPP

#include <poplar/StringRef.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace poplar {

namespace core {
class DebugContextImpl; // stand-in impl name
} // namespace core

using DebugId = std::uint64_t; // unverified

class SourceLocation {
public:
  constexpr SourceLocation() = default;
  constexpr SourceLocation(const char *functionName, const char *fileName,
                           unsigned lineNumber)
      : functionName(functionName), fileName(fileName), lineNumber(lineNumber),
        valid(true) {}

  constexpr const char *getFunctionName() const { return functionName; }
  constexpr const char *getFileName() const { return fileName; }
  constexpr unsigned getLineNumber() const { return lineNumber; }
  constexpr bool isValid() const { return valid; }

  static constexpr SourceLocation
  Current(const char *functionName = __builtin_FUNCTION(),
          const char *fileName = __builtin_FILE(),
          unsigned lineNumber = __builtin_LINE()) {
    return SourceLocation(functionName, fileName, lineNumber);
  }

private:
  const char *functionName = "";
  const char *fileName = "";
  unsigned lineNumber = 0;
  bool valid = false;
};

/// Name, parent DebugId and source location of an API call.
// unverified: the exact constructor list (the SDK also has constructors from
// DebugInfo and DebugNameAndId, not needed by generated code).
class DebugContext {
public:
  DebugContext(SourceLocation loc = SourceLocation::Current());
  DebugContext(const char *name, SourceLocation loc = SourceLocation::Current());
  DebugContext(std::string name, SourceLocation loc = SourceLocation::Current());
  DebugContext(const DebugContext &other);
  DebugContext(DebugContext &&other) noexcept;
  ~DebugContext();

  std::string getPathName() const;

private:
  std::unique_ptr<core::DebugContextImpl> impl;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_DEBUGCONTEXT_HPP
