// Mirrors Poplar SDK 3.x <poplar/Vertex.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
//
// Codelet-side entry header: vertex base classes plus the field types. The
// base classes have no virtual functions; each vertex class defines its own
// `compute()` (Vertex, SupervisorVertex) or `compute(unsigned workerId)`
// (MultiVertex), returning void (SDK 3.x style) or bool (accepted too).
#ifndef IPU_LOWER_EMU_POPLAR_VERTEX_HPP
#define IPU_LOWER_EMU_POPLAR_VERTEX_HPP

#include <poplar/FieldTypes.hpp>
#include <poplar/InOutTypes.hpp>
#include <poplar/VectorListTypes.hpp>
#include <poplar/VectorTypes.hpp>

#ifndef __IPU__
// On the IPU `half` is a compiler built-in; host builds need a stand-in type.
#include <poplar/HalfFloat.hpp>
#endif

#include <type_traits>

namespace poplar {

/// Vertex base class: compute() runs on one worker thread.
class Vertex {};

/// Vertex whose compute(unsigned workerId) runs on every worker thread.
class MultiVertex {
public:
  /// The total number of workers that run this vertex.
  static constexpr unsigned numWorkers() {
    return 6; // stand-in body: worker contexts per tile on Mk1/Mk2 IPUs
  }
};

/// Supervisor vertex (legacy; mostly for assembly codelets).
class SupervisorVertex {};

/// Vertex for external exchange (assembly codelets).
class ExternalExchangeVertex {};

/// SupervisorVertex if pred is true, otherwise Vertex.
template <bool pred>
using SupervisorVertexIf = std::conditional_t<pred, SupervisorVertex, Vertex>;

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_VERTEX_HPP
