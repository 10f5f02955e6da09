// Mirrors Poplar SDK 3.x <poplar/Type.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_TYPE_HPP
#define IPU_LOWER_EMU_POPLAR_TYPE_HPP

#include <poplar/StringRef.hpp>

#include <cstddef>
#include <memory>
#include <ostream>

namespace poplar {

namespace core {
class Type;
} // namespace core

/// Class representing device data types.
class Type {
public:
  Type();
  ~Type();
  Type(const Type &other);
  Type(Type &&other) noexcept;
  Type &operator=(const Type &other);
  Type &operator=(Type &&other) noexcept;

  StringRef toString() const;
  std::size_t hash() const;          // unverified: return type
  bool isFloatingPoint() const;      // unverified: return type
  bool requiresMetadata() const;     // unverified: return type

  bool operator==(const Type &other) const; // unverified
  bool operator!=(const Type &other) const; // unverified
  bool operator<(const Type &other) const;  // unverified

private:
  std::unique_ptr<core::Type> impl;
};

std::ostream &operator<<(std::ostream &os, const Type &t);

// Device types. Only the types the IPU supports are declared.
//
// DELIBERATELY ABSENT: DOUBLE, LONG and UNSIGNED_LONG. The real SDK declares
// them, but documents them as unsupported on the IPU. This header set omits
// them so that any emitted host code naming them fails to compile (see
// tests/test_emulator_headers.py). Lower float64 to FLOAT (or reject it) and
// int64 to LONGLONG / UNSIGNED_LONGLONG.
// Also not declared here (supported, but not emitted): QUARTER, QUARTER_METADATA.
extern Type BOOL;
extern Type CHAR;
extern Type UNSIGNED_CHAR;
extern Type SIGNED_CHAR;
extern Type UNSIGNED_SHORT;
extern Type SHORT;
extern Type UNSIGNED_INT;
extern Type INT;
extern Type UNSIGNED_LONGLONG;
extern Type LONGLONG;
extern Type HALF;
extern Type FLOAT;

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TYPE_HPP
