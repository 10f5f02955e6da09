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
  /// Maps elements [b, e) to `tile`, merging with neighbouring intervals of it.
  void assign(std::size_t b, std::size_t e, unsigned tile);

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

  /// The tile of element i (kUnmapped if it has none).
  unsigned tileOf(std::size_t i) const;

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
  std::pair<std::uint32_t, std::size_t> at(std::size_t i) const;
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
  std::string describe() const;
  /// The name alone when the view lies in one variable (messages quote it).
  std::string varName() const;
};

/// Appends elements, merging them into as few runs as possible.
class RunBuilder {
public:
  void add(std::uint32_t var, std::size_t start, std::size_t count,
           std::ptrdiff_t stride);
  /// The elements at flat indices [b, e) of v.
  void addRange(const ViewData &v, std::size_t b, std::size_t e);
  /// count elements at flat indices b, b + s, b + 2s, ... of v.
  void addStrided(const ViewData &v, std::size_t b, std::size_t count,
                  std::size_t s);
  /// The view of the elements added, with `shape`.
  std::shared_ptr<ViewData> finish(std::shared_ptr<VarTable> vars,
                                   std::vector<std::size_t> shape);

private:
  std::vector<Run> runs;
};

/// The product of s[b], ..., s[e - 1].
std::size_t product(const std::vector<std::size_t> &s, std::size_t b, std::size_t e);

/// "{2,3}" for shape {2, 3}.
std::string shapeString(const std::vector<std::size_t> &s);

/// Sorted [begin, end) element intervals of a view per variable (aliases kept).
std::vector<std::pair<std::uint64_t, std::uint64_t>> addressIntervals(const ViewData &v);

} // namespace emulator
} // namespace poplar

#endif // IPU_LOWER_EMU_VIEW_HPP
