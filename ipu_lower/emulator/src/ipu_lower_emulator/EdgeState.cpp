// Per-edge state (ipu_lower_emulator/EdgeState.hpp).
#include <ipu_lower_emulator/EdgeState.hpp>

namespace poplar {
namespace emulator {

void EdgeState::readOutput(std::size_t i) const {
  fail("vertex '" + vertex + "' (tile " + std::to_string(tile) +
       ") read Output field '" + field + "' (tensor '" + tensor +
       "') at index " + std::to_string(i) + " in compute set '" +
       computeSet + "'; Output fields are write-only (use InOut to read and write)");
}

} // namespace emulator
} // namespace poplar
