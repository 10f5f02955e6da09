// Errors, process state (seed, report) and JSON helpers (ipu_lower_emulator/Support.hpp).
#include <ipu_lower_emulator/Support.hpp>

#include <cstdio>
#include <cstdlib>

namespace poplar {
namespace emulator {

void fail(const std::string &message) { throw poplar_error(message); }

unsigned long long initialSeed() {
  const char *env = std::getenv("IPU_LOWER_EMULATOR_SEED");
  if (env == nullptr || *env == '\0')
    return 0; // default seed: fixed, so runs are reproducible
  char *end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 0);
  if (end == env || *end != '\0') {
    std::fprintf(stderr,
                 "ipu-lower emulator: ignoring IPU_LOWER_EMULATOR_SEED='%s' "
                 "(not an unsigned integer); using seed 0\n",
                 env);
    return 0;
  }
  return v;
}

ProcessState &processState() {
  static ProcessState state = [] {
    ProcessState s;
    s.seed = initialSeed();
    s.rng.state = s.seed;
    return s;
  }();
  return state;
}

void reseed(unsigned long long seed) {
  ProcessState &s = processState();
  s.seed = seed;
  s.rng.state = seed;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

std::string jsonNumber(double v) {
  char buf[40];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  return buf;
}

void jkey(std::string &j, const char *key) {
  j += ", \"";
  j += key;
  j += "\": ";
}

void jnum(std::string &j, const char *key, std::uint64_t v) {
  jkey(j, key);
  j += std::to_string(v);
}

void jstr(std::string &j, const char *key, const std::string &v) {
  jkey(j, key);
  j += jsonString(v);
}

} // namespace emulator
} // namespace poplar
