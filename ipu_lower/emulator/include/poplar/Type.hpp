// CPU emulator of Poplar SDK 3.x <poplar/Type.hpp>: device element types as small values.
#ifndef IPU_LOWER_EMU_POPLAR_TYPE_HPP
#define IPU_LOWER_EMU_POPLAR_TYPE_HPP

#include <ipu_lower_emulator/Types.hpp>
#include <poplar/StringRef.hpp>

#include <cstddef>
#include <functional>
#include <ostream>

namespace poplar {

class Type;
namespace emulator {
template <class> struct Access;
constexpr Type makeType(TypeId id);
} // namespace emulator

/// Class representing device data types.
class Type {
public:
  constexpr Type() = default;
  ~Type() = default;
  constexpr Type(const Type &other) = default;
  constexpr Type(Type &&other) noexcept = default;
  Type &operator=(const Type &other) = default;
  Type &operator=(Type &&other) noexcept = default;

  StringRef toString() const { return emulator::typeInfo(id).name; }
  std::size_t hash() const { return std::hash<unsigned>()(static_cast<unsigned>(id)); } // unverified: return type
  bool isFloatingPoint() const { return emulator::typeInfo(id).floating; } // unverified: return type
  bool requiresMetadata() const { return false; } // unverified: return type

  bool operator==(const Type &other) const { return id == other.id; } // unverified
  bool operator!=(const Type &other) const { return id != other.id; } // unverified
  bool operator<(const Type &other) const { return id < other.id; }   // unverified

private:
  explicit constexpr Type(emulator::TypeId typeId) : id(typeId) {}
  emulator::TypeId id = emulator::TypeId::INVALID;
  template <class> friend struct emulator::Access;
  friend constexpr Type emulator::makeType(emulator::TypeId);
};

inline std::ostream &operator<<(std::ostream &os, const Type &t) {
  return os << t.toString();
}

namespace emulator {
/// The emulator builds the type constants below from ids.
constexpr Type makeType(TypeId id) { return Type(id); }
template <> struct Access<Type> {
  static TypeId id(const Type &t) { return t.id; }
};
inline TypeId idOf(const Type &t) { return Access<Type>::id(t); }
} // namespace emulator

// Device types. Only the types the IPU supports are declared.
//
// DELIBERATELY ABSENT: DOUBLE, LONG and UNSIGNED_LONG. The real SDK declares
// them, but documents them as unsupported on the IPU. This header set omits
// them so that any emitted host code naming them fails to compile (see
// tests/test_emulator_headers.py). Lower float64 to FLOAT (or reject it) and
// int64 to LONGLONG / UNSIGNED_LONGLONG.
// Also not declared here (supported, but not emitted): QUARTER, QUARTER_METADATA.
// The SDK declares them `extern Type X;`; header-only, they are constant-
// initialised inline variables.
inline Type BOOL = emulator::makeType(emulator::TypeId::BOOL);
inline Type CHAR = emulator::makeType(emulator::TypeId::CHAR);
inline Type UNSIGNED_CHAR = emulator::makeType(emulator::TypeId::UNSIGNED_CHAR);
inline Type SIGNED_CHAR = emulator::makeType(emulator::TypeId::SIGNED_CHAR);
inline Type UNSIGNED_SHORT = emulator::makeType(emulator::TypeId::UNSIGNED_SHORT);
inline Type SHORT = emulator::makeType(emulator::TypeId::SHORT);
inline Type UNSIGNED_INT = emulator::makeType(emulator::TypeId::UNSIGNED_INT);
inline Type INT = emulator::makeType(emulator::TypeId::INT);
inline Type UNSIGNED_LONGLONG = emulator::makeType(emulator::TypeId::UNSIGNED_LONGLONG);
inline Type LONGLONG = emulator::makeType(emulator::TypeId::LONGLONG);
inline Type HALF = emulator::makeType(emulator::TypeId::HALF);
inline Type FLOAT = emulator::makeType(emulator::TypeId::FLOAT);

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TYPE_HPP
