// CPU emulator of Poplar SDK 3.x <poplar/InOutTypes.hpp>: scalar vertex edges (Input, InOut, write-only Output).
//
// The emulator binds an edge by pointing it at a per-compute-set buffer or,
// for Inputs, at the variable itself (see ipu_lower_emulator/EngineImpl.hpp).
// Output access goes through emulator::OutputRef: writes are tracked, reads
// throw.
#ifndef IPU_LOWER_EMU_POPLAR_INOUTTYPES_HPP
#define IPU_LOWER_EMU_POPLAR_INOUTTYPES_HPP

#include <ipu_lower_emulator/EdgeState.hpp>

namespace poplar {

template <typename T> class IOBase {
protected:
  T *p = nullptr;                          // emulator storage (not SDK API)
  const emulator::EdgeState *st = nullptr; // emulator storage (not SDK API)
  friend struct emulator::FieldAccess;
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

// unverified: the SDK's Output base (documented with the accessors of InOut);
// the emulator makes element access write-only.
template <typename T> class OutputBase : public IOBase<T> {
public:
  using baseT = T;
  emulator::OutputRef<T> operator*() const {
    return emulator::OutputRef<T>(this->p, this->st, 0);
  }
};

/// Read-only edge. Must not be written.
template <typename T> class Input : public InputBase<T> {};

/// Read-write edge.
template <typename T> class InOut : public InOutBase<T> {};

/// Write-only edge. Reading it is an error (use InOut to read and write).
template <typename T> class Output : public OutputBase<T> {};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_INOUTTYPES_HPP
