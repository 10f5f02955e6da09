// Device element types: their table and text (ipu_lower_emulator/Types.hpp).
#include <ipu_lower_emulator/Types.hpp>

#include <cstdio>

namespace poplar {
namespace emulator {

const TypeInfo &typeInfo(TypeId t) {
  static constexpr TypeInfo table[] = {
      {"<invalid type>", 0, false}, {"bool", 1, false},
      {"char", 1, false},           {"unsigned char", 1, false},
      {"signed char", 1, false},    {"unsigned short", 2, false},
      {"short", 2, false},          {"unsigned int", 4, false},
      {"int", 4, false},            {"unsigned long long", 8, false},
      {"long long", 8, false},      {"half", 2, true},
      {"float", 4, true}};
  return table[static_cast<unsigned>(t)];
}

std::string formatElement(const void *p, TypeId t) {
  char buf[48];
  switch (t) {
  case TypeId::FLOAT:
  case TypeId::HALF:
    std::snprintf(buf, sizeof buf, "%g", loadAs<double>(p, t));
    return buf;
  case TypeId::UNSIGNED_LONGLONG:
    return std::to_string(loadAs<unsigned long long>(p, t));
  default:
    return std::to_string(loadAs<long long>(p, t));
  }
}

} // namespace emulator
} // namespace poplar
