// ipu-lower CPU emulator internals (no Poplar SDK counterpart): the program step a poplibs call appends.
#ifndef IPU_LOWER_EMU_LIBRARYPROGRAM_HPP
#define IPU_LOWER_EMU_LIBRARYPROGRAM_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Program.hpp>

namespace poplar {
namespace emulator {

/// A program step of a poplibs call (popops/DynamicSlice.hpp, poplin/MatMul.hpp):
/// the call fills in its node, the Engine runs it.
class LibraryProgram : public program::Program {
public:
  LibraryProgram(Kind kind, const DebugContext &dc) : Program(kind, dc) {}
  core::ProgramImpl &node() { return own(); }
};

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_LIBRARYPROGRAM_HPP
