// CPU emulator of Poplar SDK 3.x <poplar/VectorListTypes.hpp>: jagged 2-D vertex edges (VectorList).
//
// Input/InOut/Output<VectorList<T, L, MinAlign, Interleaved>>, indexed as
// list[outer][inner]; each row is one connected tensor (Graph::connect with a
// list of tensors, or field[i]). The storage (row pointers + row sizes) is
// emulator layout, not the SDK's (BaseAndDelta, ...). Vertex-state
// VectorList fields compile but the emulator cannot initialise them.
#ifndef IPU_LOWER_EMU_POPLAR_VECTORLISTTYPES_HPP
#define IPU_LOWER_EMU_POPLAR_VECTORLISTTYPES_HPP

#include <ipu_lower_emulator/EdgeState.hpp>
#include <poplar/FieldTypes.hpp>
#include <poplar/InOutTypes.hpp>

#include <cstddef>
#include <type_traits>

namespace poplar {

namespace emulator { // not SDK API

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

/// One write-only sub-vector of an Output VectorList.
template <typename T> class OutputVectorListRow {
public:
  emulator::OutputRef<T> operator[](std::size_t i) const {
    return emulator::OutputRef<T>(p + i, st, i);
  }
  std::size_t size() const { return n; }
  bool empty() const { return n == 0; }
  emulator::OutputIterator<T> begin() const { return {p, st, 0}; }
  emulator::OutputIterator<T> end() const { return {p, st, n}; }

  T *p = nullptr;
  std::size_t n = 0;
  const emulator::EdgeState *st = nullptr;
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

protected:
  T *const *rows = nullptr;           // emulator storage
  const std::size_t *sizes = nullptr; // emulator storage
  std::size_t n = 0;                  // emulator storage
  friend struct emulator::FieldAccess;
};

template <typename T> class OutputVectorListView {
public:
  using row_type = OutputVectorListRow<T>;

  row_type operator[](std::size_t i) const {
    row_type r;
    r.p = rows[i];
    r.n = sizes[i];
    r.st = states[i];
    return r;
  }
  std::size_t size() const { return n; }

protected:
  T *const *rows = nullptr;
  const std::size_t *sizes = nullptr;
  const emulator::EdgeState *const *states = nullptr;
  std::size_t n = 0;
  friend struct emulator::FieldAccess;
};

} // namespace emulator

/// Vertex-state jagged 2-D vector.
// unverified: the template defaults (none is given for the layout here;
// poplibs always spells it, e.g. VectorList<T, VectorListLayout::DELTANELEMENTS>).
template <typename T, VectorListLayout L, unsigned MinAlign = alignof(T),
          bool Interleaved = false>
class VectorList : public emulator::VectorListView<T, false> {};

/// Read-only jagged 2-D edge.
template <typename T, VectorListLayout L, unsigned MinAlign, bool Interleaved>
class Input<VectorList<T, L, MinAlign, Interleaved>>
    : public emulator::VectorListView<T, true> {};

/// Read-write jagged 2-D edge.
template <typename T, VectorListLayout L, unsigned MinAlign, bool Interleaved>
class InOut<VectorList<T, L, MinAlign, Interleaved>>
    : public emulator::VectorListView<T, false> {};

/// Write-only jagged 2-D edge.
template <typename T, VectorListLayout L, unsigned MinAlign, bool Interleaved>
class Output<VectorList<T, L, MinAlign, Interleaved>>
    : public emulator::OutputVectorListView<T> {};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_VECTORLISTTYPES_HPP
