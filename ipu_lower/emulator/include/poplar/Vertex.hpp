// CPU emulator of Poplar SDK 3.x <poplar/Vertex.hpp>: vertex base classes, field types and codelet registration.
//
// Codelet-side entry header: vertex base classes plus the field types. The
// base classes have no virtual functions; each vertex class defines its own
// `compute()` (Vertex, SupervisorVertex) or `compute(unsigned workerId)`
// (MultiVertex), returning void (SDK 3.x style) or bool (accepted too).
//
// Emulator hook (not SDK API): this header defines IPU_LOWER_EMULATOR and
// poplar::emulator::VertexRegistration<V> / poplar::emulator::field, which
// the registration block the code generator appends to each codelet class
// uses (see ipu_lower_emulator/Registry.hpp).
#ifndef IPU_LOWER_EMU_POPLAR_VERTEX_HPP
#define IPU_LOWER_EMU_POPLAR_VERTEX_HPP

#ifndef IPU_LOWER_EMULATOR
#define IPU_LOWER_EMULATOR 1
#endif

#include <ipu_lower_emulator/Registry.hpp>
#include <poplar/FieldTypes.hpp>
#include <poplar/InOutTypes.hpp>
#include <poplar/VectorListTypes.hpp>
#include <poplar/VectorTypes.hpp>

#ifndef __IPU__
// On the IPU `half` is a compiler built-in type; host builds use poplar::IeeeHalf.
#include <poplar/HalfFloat.hpp>
#endif

#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>

namespace poplar {

/// Vertex base class: compute() runs on one worker thread.
class Vertex {};

/// Vertex whose compute(unsigned workerId) runs on every worker thread (the
/// emulator calls it for workerId 0, 1, ..., numWorkers() - 1 in turn).
class MultiVertex {
public:
  /// The total number of workers that run this vertex.
  static constexpr unsigned numWorkers() {
    return 6; // worker contexts per tile on Mk1/Mk2 IPUs (ipu_lower/arch.py)
  }
};

/// Supervisor vertex (legacy; mostly for assembly codelets).
class SupervisorVertex {};

/// Vertex for external exchange (assembly codelets).
class ExternalExchangeVertex {};

/// SupervisorVertex if pred is true, otherwise Vertex.
template <bool pred>
using SupervisorVertexIf = std::conditional_t<pred, SupervisorVertex, Vertex>;

namespace emulator {

/// Describes field `name` of a vertex class for the registry. The member
/// must be declared in (or at offset 0 of) the registered class.
template <class C, class F> FieldDecl field(const char *name, F C::*member) {
  using Tr = FieldTraits<F>;
  static_assert(Tr::supported,
                "ipu-lower emulator: unsupported vertex field type (edges of "
                "bool/char/short/int/unsigned/long long/half/float scalars, "
                "Vector, VectorList, or state of those types)");
  const C probe{}; // where the member lies, measured on an object
  const auto offset = static_cast<std::size_t>(
      reinterpret_cast<const unsigned char *>(&(probe.*member)) -
      reinterpret_cast<const unsigned char *>(&probe));
  FieldDecl d{name, Tr::dir, Tr::shape, Tr::type, offset, nullptr, nullptr};
  if constexpr (Tr::dir != Dir::State) {
    d.bind = &Tr::bind;
  } else if constexpr (Tr::shape != Shape::Unsupported) {
    d.setState = &Tr::setState;
  }
  return d;
}

template <class V> bool computeVertex(void *obj, unsigned workerId) {
  V &v = *static_cast<V *>(obj);
  if constexpr (std::is_base_of<MultiVertex, V>::value) {
    if constexpr (std::is_same<decltype(v.compute(workerId)), bool>::value)
      return v.compute(workerId);
    else {
      v.compute(workerId);
      return true;
    }
  } else {
    (void)workerId;
    if constexpr (std::is_same<decltype(v.compute()), bool>::value)
      return v.compute();
    else {
      v.compute();
      return true;
    }
  }
}

/// Registers vertex class V under `name` with its fields (one static object
/// per class in codelets.cpp, guarded by #ifdef IPU_LOWER_EMULATOR).
template <class V> class VertexRegistration {
public:
  VertexRegistration(const char *name, std::initializer_list<FieldDecl> fields) {
    static_assert(std::is_default_constructible<V>::value,
                  "ipu-lower emulator: vertex classes must be default-constructible");
    registerVertexClass(
        name, std::is_base_of<MultiVertex, V>::value, []() -> void * { return new V(); },
        [](void *p) { delete static_cast<V *>(p); }, &computeVertex<V>, fields.begin(),
        fields.size());
  }
};

} // namespace emulator

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_VERTEX_HPP
