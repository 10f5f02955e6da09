// Mirrors Poplar SDK 3.x <poplar/InOutTypes.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
//
// Codelet-side scalar edge types. Their accessors are inline in the SDK and
// must be usable under -Wall -Werror, so they have inline bodies here. The
// storage (`p`) is a stand-in layout: the emulator binds an edge by pointing
// `p` at the tensor element.
#ifndef IPU_LOWER_EMU_POPLAR_INOUTTYPES_HPP
#define IPU_LOWER_EMU_POPLAR_INOUTTYPES_HPP

namespace poplar {

template <typename T> class IOBase {
public:
  T *p = nullptr; // stand-in storage (not SDK API)
};

template <typename T> class InputBase : public IOBase<T> {
public:
  using baseT = T;
  operator const T &() const { return *this->p; }
  const T &operator*() const { return *this->p; }
  const T *operator->() const { return this->p; }
};

template <typename T> class InOutBase : public IOBase<T> {
public:
  using baseT = T;
  operator T &() const { return *this->p; }
  T &operator*() const { return *this->p; }
  T *operator->() const { return this->p; }
};

/// Read-only edge. Must not be written.
template <typename T> class Input : public InputBase<T> {};

/// Read-write edge.
template <typename T> class InOut : public InOutBase<T> {};

/// Write-only edge. Reading it is undefined (use InOut to read and write).
// unverified: base class (the SDK documents the same accessors as InOut).
template <typename T> class Output : public InOutBase<T> {};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_INOUTTYPES_HPP
