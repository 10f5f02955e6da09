// Mirrors Poplar SDK 3.x <poplar/VectorListTypes.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
//
// Jagged 2-D vertex fields: VectorList<T, L, MinAlign, Interleaved> and the edge
// forms Input/InOut/Output<VectorList<...>>, indexed as list[outer][inner].
// Inline element access; the storage is a stand-in layout (row pointers + row
// sizes) that the emulator fills in. The SDK's own storage types
// (BaseAndDelta, BaseAndDeltaElements, ...) are not reproduced.
#ifndef IPU_LOWER_EMU_POPLAR_VECTORLISTTYPES_HPP
#define IPU_LOWER_EMU_POPLAR_VECTORLISTTYPES_HPP

#include <poplar/FieldTypes.hpp>
#include <poplar/InOutTypes.hpp>

#include <cstddef>
#include <type_traits>

namespace poplar {

namespace stand_in { // not SDK API

/// One sub-vector of a VectorList.
template <typename Elem> class VectorListRow {
public:
  Elem &operator[](std::size_t i) const { return p[i]; }
  std::size_t size() const { return n; }
  bool empty() const { return n == 0; }
  Elem *begin() const { return p; }
  Elem *end() const { return p + n; }

  Elem *p = nullptr;
  std::size_t n = 0;
};

/// Row pointers + row sizes. `ConstElems` makes element access read-only.
template <typename T, bool ConstElems> class VectorListView {
public:
  using row_type = VectorListRow<
      typename std::conditional<ConstElems, const T, T>::type>;

  row_type operator[](std::size_t i) const {
    row_type r;
    r.p = rows[i];
    r.n = sizes[i];
    return r;
  }
  std::size_t size() const { return n; }

  T *const *rows = nullptr;            // stand-in storage
  const std::size_t *sizes = nullptr;  // stand-in storage
  std::size_t n = 0;                   // stand-in storage
};

} // namespace stand_in

/// Vertex-state jagged 2-D vector.
// unverified: the template defaults (none is given for the layout here;
// poplibs always spells it, e.g. VectorList<T, VectorListLayout::DELTANELEMENTS>).
template <typename T, VectorListLayout L, unsigned MinAlign = alignof(T),
          bool Interleaved = false>
class VectorList : public stand_in::VectorListView<T, false> {};

/// Read-only jagged 2-D edge.
template <typename T, VectorListLayout L, unsigned MinAlign, bool Interleaved>
class Input<VectorList<T, L, MinAlign, Interleaved>>
    : public stand_in::VectorListView<T, true> {};

/// Read-write jagged 2-D edge.
template <typename T, VectorListLayout L, unsigned MinAlign, bool Interleaved>
class InOut<VectorList<T, L, MinAlign, Interleaved>>
    : public stand_in::VectorListView<T, false> {};

/// Write-only jagged 2-D edge.
template <typename T, VectorListLayout L, unsigned MinAlign, bool Interleaved>
class Output<VectorList<T, L, MinAlign, Interleaved>>
    : public stand_in::VectorListView<T, false> {};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_VECTORLISTTYPES_HPP
