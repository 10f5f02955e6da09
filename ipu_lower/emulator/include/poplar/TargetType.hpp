// CPU emulator of Poplar SDK 3.x <poplar/TargetType.hpp>: kinds of target.
#ifndef IPU_LOWER_EMU_POPLAR_TARGETTYPE_HPP
#define IPU_LOWER_EMU_POPLAR_TARGETTYPE_HPP

#include <string>

namespace poplar {

/// The type of a device capable of running a graph.
enum class TargetType { IPU, IPU_MODEL, CPU };

inline std::string toString(TargetType t) {
  switch (t) {
  case TargetType::IPU:
    return "IPU";
  case TargetType::IPU_MODEL:
    return "IPU_MODEL";
  case TargetType::CPU:
    return "CPU";
  }
  return "unknown";
}

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TARGETTYPE_HPP
