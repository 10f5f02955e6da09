// CPU emulator of poplibs' <poplin/codelets.hpp>: the poplin calls the emulator has
// (poplin/MatMul.hpp) run inside the Engine, so there are no codelets to add.
#ifndef IPU_LOWER_EMU_POPLIN_CODELETS_HPP
#define IPU_LOWER_EMU_POPLIN_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace poplin {

inline void addCodelets(poplar::Graph &graph) { (void)graph; }

} // namespace poplin

#endif // IPU_LOWER_EMU_POPLIN_CODELETS_HPP
