// Mirrors Poplar SDK 3.x <poplar/TargetType.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_TARGETTYPE_HPP
#define IPU_LOWER_EMU_POPLAR_TARGETTYPE_HPP

#include <string>

namespace poplar {

/// The type of a device capable of running a graph.
enum class TargetType { IPU, IPU_MODEL, CPU };

std::string toString(TargetType t);

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TARGETTYPE_HPP
