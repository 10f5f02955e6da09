// CPU emulator of poplibs' <popops/codelets.hpp>: the popops calls the emulator has
// (popops/DynamicSlice.hpp, popops/Reduce.hpp) run inside the Engine, so there are no
// codelets to add.
#ifndef IPU_LOWER_EMU_POPOPS_CODELETS_HPP
#define IPU_LOWER_EMU_POPOPS_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace popops {

inline void addCodelets(poplar::Graph &graph) { (void)graph; }

} // namespace popops

#endif // IPU_LOWER_EMU_POPOPS_CODELETS_HPP
