// ipu-lower CPU emulator internals (no Poplar SDK counterpart): variables, tile maps and tensor views as runs.
//
// A variable is a flat array of elements owned by a graph (VarTable). A tensor
// is a view: a shape plus the list of its elements in row-major order,
// compressed into runs (variable, start, count, stride). A fresh variable or
// any dim-0 slice of it is ONE run, whatever its size; a slice along an inner
// dimension is one run per outer index; a transpose of a plain variable is one
// strided run per output row. Nothing allocates per element unless the view
// really is irregular. Runs are merged greedily as they are appended, so a
// contiguous stretch of one variable is always a single stride-1 run
// (ViewData::contiguous relies on that).
#ifndef IPU_LOWER_EMU_VIEW_HPP
#define IPU_LOWER_EMU_VIEW_HPP

#include <ipu_lower_emulator/Support.hpp>
#include <ipu_lower_emulator/Types.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace poplar {
namespace emulator {

constexpr unsigned kUnmapped = std::numeric_limits<unsigned>::max();

/// Element range -> tile, as disjoint [begin, end) intervals; gaps are unmapped.
class TileMap {
public:
  void assign(std::size_t b, std::size_t e, unsigned tile) {
    if (b >= e)
      return;
    auto it = m.lower_bound(b);
    if (it != m.begin()) { // an interval starting before b may overlap it
      auto p = std::prev(it);
      if (p->second.first > b) {
        const std::size_t pe = p->second.first;
        const unsigned pt = p->second.second;
        p->second.first = b;
        if (pe > e)
          m.emplace(e, std::make_pair(pe, pt));
      }
    }
    it = m.lower_bound(b);
    while (it != m.end() && it->first < e) {
      if (it->second.first > e) { // keep the tail beyond e
        const std::size_t ie = it->second.first;
        const unsigned itile = it->second.second;
        m.erase(it);
        m.emplace(e, std::make_pair(ie, itile));
        break;
      }
      it = m.erase(it);
    }
    auto ins = m.emplace(b, std::make_pair(e, tile)).first;
    auto nx = std::next(ins);
    if (nx != m.end() && nx->first == e && nx->second.second == tile) {
      ins->second.first = nx->second.first;
      m.erase(nx);
    }
    if (ins != m.begin()) {
      auto pv = std::prev(ins);
      if (pv->second.first == b && pv->second.second == tile) {
        pv->second.first = ins->second.first;
        m.erase(ins);
      }
    }
  }

  /// Calls f(begin, end, tile) over [b, e) in order, tile == kUnmapped for gaps.
  template <class F> void forEach(std::size_t b, std::size_t e, F &&f) const {
    if (b >= e)
      return;
    auto it = m.upper_bound(b);
    if (it != m.begin()) {
      auto p = std::prev(it);
      if (p->second.first > b)
        it = p;
    }
    std::size_t pos = b;
    for (; it != m.end() && it->first < e && pos < e; ++it) {
      if (it->first > pos) {
        f(pos, it->first, kUnmapped);
        pos = it->first;
      }
      const std::size_t end = std::min(e, it->second.first);
      if (end > pos) {
        f(pos, end, it->second.second);
        pos = end;
      }
    }
    if (pos < e)
      f(pos, e, kUnmapped);
  }

  unsigned tileOf(std::size_t i) const {
    auto it = m.upper_bound(i);
    if (it == m.begin())
      return kUnmapped;
    --it;
    return i < it->second.first ? it->second.second : kUnmapped;
  }

  const std::map<std::size_t, std::pair<std::size_t, unsigned>> &intervals() const {
    return m;
  }

private:
  std::map<std::size_t, std::pair<std::size_t, unsigned>> m; // begin -> (end, tile)
};

/// One variable (or constant) of a graph.
struct Var {
  std::string name;
  TypeId type = TypeId::INVALID;
  std::size_t size = 0; ///< elements
  std::vector<std::size_t> shape;
  bool constant = false;
  std::vector<unsigned char> init; ///< constants: initial bytes
  TileMap mapping;
  int followsVertex = -1; ///< constant made by connect(field, value): mapped with that vertex
};

/// The variables of one graph. Tensors keep it alive and compare its address
/// to tell which graph they belong to.
struct VarTable {
  std::vector<Var> vars;
};

struct Run {
  std::uint32_t var;
  std::size_t start;
  std::size_t count;
  std::ptrdiff_t stride;
  std::size_t addr(std::size_t k) const {
    return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(start) +
                                    static_cast<std::ptrdiff_t>(k) * stride);
  }
  std::size_t last() const { return addr(count - 1); }
};

/// The elements of a tensor, in row-major order, as runs.
struct ViewData {
  std::shared_ptr<VarTable> vars;
  std::vector<std::size_t> shape;
  std::vector<Run> runs;
  std::vector<std::size_t> offs; ///< offs[i]: flat index of runs[i]; offs.back(): size

  std::size_t size() const { return offs.empty() ? 0 : offs.back(); }
  /// One stride-1 run: the elements are contiguous in one variable.
  bool contiguous() const {
    return runs.size() <= 1 && (runs.empty() || runs[0].count == 1 || runs[0].stride == 1);
  }
  /// (variable, element) of flat index i.
  std::pair<std::uint32_t, std::size_t> at(std::size_t i) const {
    const std::size_t r =
        static_cast<std::size_t>(std::upper_bound(offs.begin(), offs.end(), i) -
                                 offs.begin()) - 1;
    return {runs[r].var, runs[r].addr(i - offs[r])};
  }
  /// Calls f(run, firstK, count) for the pieces of runs covering flat [b, e).
  template <class F> void forRange(std::size_t b, std::size_t e, F &&f) const {
    if (b >= e)
      return;
    std::size_t r =
        static_cast<std::size_t>(std::upper_bound(offs.begin(), offs.end(), b) -
                                 offs.begin()) - 1;
    while (b < e) {
      const Run &run = runs[r];
      const std::size_t k0 = b - offs[r];
      const std::size_t k1 = std::min(run.count, e - offs[r]);
      f(run, k0, k1 - k0);
      b = offs[r] + k1;
      ++r;
    }
  }
  /// Name of the variable(s) a view covers, for messages.
  std::string describe() const {
    if (!vars)
      return "<invalid tensor>";
    std::vector<std::uint32_t> ids;
    for (const Run &r : runs)
      if (std::find(ids.begin(), ids.end(), r.var) == ids.end())
        ids.push_back(r.var);
    if (ids.empty())
      return "<empty tensor>";
    std::string s = quote(vars->vars[ids[0]].name);
    for (std::size_t i = 1; i < ids.size() && i < 4; ++i)
      s += "+" + quote(vars->vars[ids[i]].name);
    if (ids.size() > 4)
      s += "+...";
    return s;
  }
  /// The name alone when the view lies in one variable (messages quote it).
  std::string varName() const {
    if (!vars || runs.empty())
      return "<empty>";
    std::string s = vars->vars[runs[0].var].name;
    for (const Run &r : runs)
      if (r.var != runs[0].var)
        return s + " (and other variables)";
    return s;
  }
};

/// Appends elements, merging them into as few runs as possible.
class RunBuilder {
public:
  void add(std::uint32_t var, std::size_t start, std::size_t count,
           std::ptrdiff_t stride) {
    if (count == 0)
      return;
    if (count == 1)
      stride = 1;
    if (!runs.empty()) {
      Run &l = runs.back();
      if (l.var == var) {
        const std::ptrdiff_t d = static_cast<std::ptrdiff_t>(start) -
                                 static_cast<std::ptrdiff_t>(l.last());
        if ((l.count == 1 || l.stride == d) && (count == 1 || stride == d)) {
          l.stride = d;
          l.count += count;
          return;
        }
      }
    }
    runs.push_back(Run{var, start, count, stride});
  }
  void addRange(const ViewData &v, std::size_t b, std::size_t e) {
    v.forRange(b, e, [&](const Run &r, std::size_t k0, std::size_t n) {
      add(r.var, r.addr(k0), n, r.stride);
    });
  }
  /// count elements at flat indices b, b + s, b + 2s, ... of v.
  void addStrided(const ViewData &v, std::size_t b, std::size_t count,
                  std::size_t s) {
    if (s == 1 || count <= 1) {
      addRange(v, b, b + count);
      return;
    }
    if (v.runs.size() == 1) { // one run: still one (strided) run
      const Run &r = v.runs[0];
      add(r.var, r.addr(b), count, r.stride * static_cast<std::ptrdiff_t>(s));
      return;
    }
    for (std::size_t k = 0; k < count; ++k) {
      const auto a = v.at(b + k * s);
      add(a.first, a.second, 1, 1);
    }
  }
  std::shared_ptr<ViewData> finish(std::shared_ptr<VarTable> vars,
                                   std::vector<std::size_t> shape) {
    auto v = std::make_shared<ViewData>();
    v->vars = std::move(vars);
    v->shape = std::move(shape);
    v->runs = std::move(runs);
    v->offs.reserve(v->runs.size() + 1);
    std::size_t total = 0;
    v->offs.push_back(0);
    for (const Run &r : v->runs)
      v->offs.push_back(total += r.count);
    return v;
  }

private:
  std::vector<Run> runs;
};

inline std::size_t product(const std::vector<std::size_t> &s, std::size_t b,
                           std::size_t e) {
  std::size_t p = 1;
  for (std::size_t i = b; i < e; ++i)
    p *= s[i];
  return p;
}

inline std::string shapeString(const std::vector<std::size_t> &s) {
  std::string out = "{";
  for (std::size_t i = 0; i < s.size(); ++i)
    out += (i ? "," : "") + std::to_string(s[i]);
  return out + "}";
}

/// Sorted [begin, end) element intervals of a view per variable (aliases kept).
inline std::vector<std::pair<std::uint64_t, std::uint64_t>>
addressIntervals(const ViewData &v) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const Run &r : v.runs) {
    const std::uint64_t base = std::uint64_t(r.var) << 40;
    if (r.stride == 1 || r.count == 1) {
      out.emplace_back(base + r.start, base + r.start + r.count);
    } else {
      for (std::size_t k = 0; k < r.count; ++k)
        out.emplace_back(base + r.addr(k), base + r.addr(k) + 1);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_VIEW_HPP
