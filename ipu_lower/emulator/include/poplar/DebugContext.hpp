// CPU emulator of Poplar SDK 3.x <poplar/DebugContext.hpp>: debug names (kept for error messages and the report).
//
// SourceLocation is a literal value type (captured through __builtin_FUNCTION/
// __builtin_FILE/__builtin_LINE in default arguments).
#ifndef IPU_LOWER_EMU_POPLAR_DEBUGCONTEXT_HPP
#define IPU_LOWER_EMU_POPLAR_DEBUGCONTEXT_HPP

#include <poplar/StringRef.hpp>

#include <cstdint>
#include <string>
#include <utility>

namespace poplar {

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
  // The emulator keeps only the name (the location is not reported).
  DebugContext(SourceLocation loc = SourceLocation::Current()) { (void)loc; }
  DebugContext(const char *name, SourceLocation loc = SourceLocation::Current())
      : name(name ? name : "") {
    (void)loc;
  }
  DebugContext(std::string name, SourceLocation loc = SourceLocation::Current())
      : name(std::move(name)) {
    (void)loc;
  }
  DebugContext(const DebugContext &other) = default;
  DebugContext(DebugContext &&other) noexcept = default;
  ~DebugContext() = default;

  std::string getPathName() const { return name; }

private:
  std::string name;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_DEBUGCONTEXT_HPP
