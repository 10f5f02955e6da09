// Tile maps, views and their runs (ipu_lower_emulator/View.hpp).
#include <ipu_lower_emulator/View.hpp>

namespace poplar {
namespace emulator {

void TileMap::assign(std::size_t b, std::size_t e, unsigned tile) {
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

unsigned TileMap::tileOf(std::size_t i) const {
  auto it = m.upper_bound(i);
  if (it == m.begin())
    return kUnmapped;
  --it;
  return i < it->second.first ? it->second.second : kUnmapped;
}

std::pair<std::uint32_t, std::size_t> ViewData::at(std::size_t i) const {
  const std::size_t r =
      static_cast<std::size_t>(std::upper_bound(offs.begin(), offs.end(), i) -
                               offs.begin()) - 1;
  return {runs[r].var, runs[r].addr(i - offs[r])};
}

std::string ViewData::describe() const {
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

std::string ViewData::varName() const {
  if (!vars || runs.empty())
    return "<empty>";
  std::string s = vars->vars[runs[0].var].name;
  for (const Run &r : runs)
    if (r.var != runs[0].var)
      return s + " (and other variables)";
  return s;
}

void RunBuilder::add(std::uint32_t var, std::size_t start, std::size_t count,
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

void RunBuilder::addRange(const ViewData &v, std::size_t b, std::size_t e) {
  v.forRange(b, e, [&](const Run &r, std::size_t k0, std::size_t n) {
    add(r.var, r.addr(k0), n, r.stride);
  });
}

void RunBuilder::addStrided(const ViewData &v, std::size_t b, std::size_t count,
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

std::shared_ptr<ViewData> RunBuilder::finish(std::shared_ptr<VarTable> vars,
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

std::size_t product(const std::vector<std::size_t> &s, std::size_t b,
                    std::size_t e) {
  std::size_t p = 1;
  for (std::size_t i = b; i < e; ++i)
    p *= s[i];
  return p;
}

std::string shapeString(const std::vector<std::size_t> &s) {
  std::string out = "{";
  for (std::size_t i = 0; i < s.size(); ++i)
    out += (i ? "," : "") + std::to_string(s[i]);
  return out + "}";
}

std::vector<std::pair<std::uint64_t, std::uint64_t>>
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
