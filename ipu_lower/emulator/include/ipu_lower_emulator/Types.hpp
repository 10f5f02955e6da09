// ipu-lower CPU emulator internals (no Poplar SDK counterpart): device element types, sizes and conversions.
#ifndef IPU_LOWER_EMU_TYPES_HPP
#define IPU_LOWER_EMU_TYPES_HPP

#include <ipu_lower_emulator/Support.hpp>
#include <poplar/IeeeHalf.hpp>

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

namespace poplar {
namespace emulator {

/// The device types the IPU supports (DOUBLE, LONG, UNSIGNED_LONG are not).
enum class TypeId : unsigned char {
  INVALID,
  BOOL,
  CHAR,
  UNSIGNED_CHAR,
  SIGNED_CHAR,
  UNSIGNED_SHORT,
  SHORT,
  UNSIGNED_INT,
  INT,
  UNSIGNED_LONGLONG,
  LONGLONG,
  HALF,
  FLOAT
};

struct TypeInfo {
  const char *name; ///< Type::toString()
  unsigned size;    ///< bytes per element on the device (Target::getTypeSize)
  bool floating;
};

/// Name, size and kind of a device type.
const TypeInfo &typeInfo(TypeId t);
inline unsigned typeSize(TypeId t) { return typeInfo(t).size; }
inline std::string typeName(TypeId t) { return typeInfo(t).name; }

/// Device type of a host/codelet C++ type (`half` is poplar::IeeeHalf).
template <class T> struct DeviceTypeOf {
  static constexpr bool supported = false;
  static constexpr TypeId value = TypeId::INVALID;
};
#define IPU_LOWER_EMU_DEVICE_TYPE(CT, ID)                                      \
  template <> struct DeviceTypeOf<CT> {                                        \
    static constexpr bool supported = true;                                    \
    static constexpr TypeId value = TypeId::ID;                                \
  };
IPU_LOWER_EMU_DEVICE_TYPE(bool, BOOL)
IPU_LOWER_EMU_DEVICE_TYPE(char, CHAR)
IPU_LOWER_EMU_DEVICE_TYPE(unsigned char, UNSIGNED_CHAR)
IPU_LOWER_EMU_DEVICE_TYPE(signed char, SIGNED_CHAR)
IPU_LOWER_EMU_DEVICE_TYPE(unsigned short, UNSIGNED_SHORT)
IPU_LOWER_EMU_DEVICE_TYPE(short, SHORT)
IPU_LOWER_EMU_DEVICE_TYPE(unsigned int, UNSIGNED_INT)
IPU_LOWER_EMU_DEVICE_TYPE(int, INT)
IPU_LOWER_EMU_DEVICE_TYPE(unsigned long long, UNSIGNED_LONGLONG)
IPU_LOWER_EMU_DEVICE_TYPE(long long, LONGLONG)
IPU_LOWER_EMU_DEVICE_TYPE(poplar::IeeeHalf, HALF)
IPU_LOWER_EMU_DEVICE_TYPE(float, FLOAT)
#undef IPU_LOWER_EMU_DEVICE_TYPE

/// Reads one element of device type `t` at `p` as host type D.
template <class D> D loadAs(const void *p, TypeId t) {
  switch (t) {
#define IPU_LOWER_EMU_LOAD(ID, CT)                                             \
  case TypeId::ID: {                                                           \
    CT v;                                                                      \
    std::memcpy(&v, p, sizeof v);                                              \
    return static_cast<D>(v);                                                  \
  }
    IPU_LOWER_EMU_LOAD(BOOL, bool)
    IPU_LOWER_EMU_LOAD(CHAR, char)
    IPU_LOWER_EMU_LOAD(UNSIGNED_CHAR, unsigned char)
    IPU_LOWER_EMU_LOAD(SIGNED_CHAR, signed char)
    IPU_LOWER_EMU_LOAD(UNSIGNED_SHORT, unsigned short)
    IPU_LOWER_EMU_LOAD(SHORT, short)
    IPU_LOWER_EMU_LOAD(UNSIGNED_INT, unsigned int)
    IPU_LOWER_EMU_LOAD(INT, int)
    IPU_LOWER_EMU_LOAD(UNSIGNED_LONGLONG, unsigned long long)
    IPU_LOWER_EMU_LOAD(LONGLONG, long long)
    IPU_LOWER_EMU_LOAD(FLOAT, float)
#undef IPU_LOWER_EMU_LOAD
  case TypeId::HALF: {
    IeeeHalf v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<D>(static_cast<float>(v));
  }
  case TypeId::INVALID:
    break;
  }
  fail("invalid element type");
}

/// Writes host value v as one element of device type `t` at `p`.
template <class S> void storeAs(void *p, TypeId t, S v) {
  switch (t) {
#define IPU_LOWER_EMU_STORE(ID, CT)                                            \
  case TypeId::ID: {                                                           \
    const CT d = static_cast<CT>(v);                                           \
    std::memcpy(p, &d, sizeof d);                                              \
    return;                                                                    \
  }
    IPU_LOWER_EMU_STORE(CHAR, char)
    IPU_LOWER_EMU_STORE(UNSIGNED_CHAR, unsigned char)
    IPU_LOWER_EMU_STORE(SIGNED_CHAR, signed char)
    IPU_LOWER_EMU_STORE(UNSIGNED_SHORT, unsigned short)
    IPU_LOWER_EMU_STORE(SHORT, short)
    IPU_LOWER_EMU_STORE(UNSIGNED_INT, unsigned int)
    IPU_LOWER_EMU_STORE(INT, int)
    IPU_LOWER_EMU_STORE(UNSIGNED_LONGLONG, unsigned long long)
    IPU_LOWER_EMU_STORE(LONGLONG, long long)
    IPU_LOWER_EMU_STORE(FLOAT, float)
#undef IPU_LOWER_EMU_STORE
  case TypeId::BOOL: {
    const bool d = static_cast<bool>(v);
    std::memcpy(p, &d, sizeof d);
    return;
  }
  case TypeId::HALF: {
    const IeeeHalf d(static_cast<float>(v));
    std::memcpy(p, &d, sizeof d);
    return;
  }
  case TypeId::INVALID:
    break;
  }
  fail("invalid element type");
}

/// Text of one element (PrintTensor).
std::string formatElement(const void *p, TypeId t);

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_TYPES_HPP
