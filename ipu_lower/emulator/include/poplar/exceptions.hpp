// CPU emulator of Poplar SDK 3.x <poplar/exceptions.hpp>: the base exception type every emulator error is thrown as.
//
// The SDK derives several specific errors (graph_connection_error,
// stream_connection_error, ...) from poplar_error; the emulator throws
// poplar_error itself, which generated host code catches as std::exception.
#ifndef IPU_LOWER_EMU_POPLAR_EXCEPTIONS_HPP
#define IPU_LOWER_EMU_POPLAR_EXCEPTIONS_HPP

#include <stdexcept>
#include <string>

namespace poplar {

/// Base class of the errors Poplar throws.
// unverified: the SDK's exact constructor list and its `type` member.
struct poplar_error : std::runtime_error {
  std::string type;
  explicit poplar_error(const std::string &s)
      : std::runtime_error(s), type("poplar_error") {}
  explicit poplar_error(const char *s)
      : std::runtime_error(s), type("poplar_error") {}
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_EXCEPTIONS_HPP
