// Tensors as views: slicing, reshaping and joining (poplar/Tensor.hpp).
#include <poplar/Tensor.hpp>

#include <algorithm>

namespace poplar {

void Tensor::check(const char *what) const {
  if (!view)
    emulator::fail(std::string("Tensor::") + what +
                   ": invalid (default-constructed) tensor");
}

Tensor Tensor::make(emulator::RunBuilder &b, std::vector<std::size_t> shape) const {
  return Tensor(type, b.finish(view->vars, std::move(shape)));
}

Tensor Tensor::withShape(std::vector<std::size_t> shape) const {
  auto v = std::make_shared<emulator::ViewData>(*view);
  v->shape = std::move(shape);
  return Tensor(type, std::move(v));
}

template <class Pick>
Tensor Tensor::blocks(const char *what, unsigned dim, Pick &&pick) const {
  const emulator::ViewData &v = get(what);
  if (dim >= v.shape.size())
    emulator::fail(std::string("Tensor::") + what + ": dimension " +
                   std::to_string(dim) + " out of range for tensor " +
                   v.describe() + " of rank " + std::to_string(v.shape.size()));
  const std::size_t outer = emulator::product(v.shape, 0, dim);
  const std::size_t d = v.shape[dim];
  const std::size_t inner = emulator::product(v.shape, dim + 1, v.shape.size());
  emulator::RunBuilder b;
  std::size_t newD = 0;
  for (std::size_t o = 0; o < outer; ++o)
    newD = pick(d, [&](std::size_t j) {
      b.addRange(v, (o * d + j) * inner, (o * d + j + 1) * inner);
    });
  if (outer == 0)
    newD = pick(d, [](std::size_t) {});
  std::vector<std::size_t> s = v.shape;
  s[dim] = newD;
  return make(b, std::move(s));
}

Tensor Tensor::operator[](std::size_t i) const & {
  const emulator::ViewData &v = get("operator[]");
  if (v.shape.empty())
    emulator::fail("Tensor::operator[]: tensor " + v.describe() + " has rank 0");
  Tensor t = slice(i, i + 1, 0);
  std::vector<std::size_t> s(v.shape.begin() + 1, v.shape.end());
  return t.withShape(std::move(s));
}

Tensor Tensor::slice(std::size_t begin, std::size_t end, unsigned dimension) const & {
  const emulator::ViewData &v = get("slice");
  if (dimension >= v.shape.size())
    emulator::fail("Tensor::slice: dimension " + std::to_string(dimension) +
                   " out of range for tensor " + v.describe() + " of shape " +
                   emulator::shapeString(v.shape));
  if (begin > end || end > v.shape[dimension])
    emulator::fail("Tensor::slice: [" + std::to_string(begin) + ", " +
                   std::to_string(end) + ") out of range for dimension " +
                   std::to_string(dimension) + " of tensor " + v.describe() +
                   " of shape " + emulator::shapeString(v.shape));
  const std::size_t outer = emulator::product(v.shape, 0, dimension);
  const std::size_t d = v.shape[dimension];
  const std::size_t inner =
      emulator::product(v.shape, dimension + 1, v.shape.size());
  emulator::RunBuilder b;
  for (std::size_t o = 0; o < outer; ++o)
    b.addRange(v, (o * d + begin) * inner, (o * d + end) * inner);
  std::vector<std::size_t> s = v.shape;
  s[dimension] = end - begin;
  return make(b, std::move(s));
}

Tensor Tensor::slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const {
  const emulator::ViewData &v = get("slice");
  if (begin.size() != v.shape.size() || end.size() != v.shape.size())
    emulator::fail("Tensor::slice: begin and end need " +
                   std::to_string(v.shape.size()) + " indices for tensor " +
                   v.describe());
  Tensor t = *this;
  for (unsigned d = 0; d < v.shape.size(); ++d)
    t = t.slice(begin[d], end[d], d);
  return t;
}

Tensor Tensor::index(ArrayRef<std::size_t> indices) const {
  Tensor t = *this;
  for (const std::size_t i : indices)
    t = t[i];
  return t;
}

Tensor Tensor::flatten() const {
  const emulator::ViewData &v = get("flatten");
  return withShape({v.size()});
}

Tensor Tensor::flatten(unsigned dimBegin, unsigned dimEnd) const {
  const emulator::ViewData &v = get("flatten");
  if (dimBegin >= dimEnd || dimEnd > v.shape.size())
    emulator::fail("Tensor::flatten: bad dimension range [" +
                   std::to_string(dimBegin) + ", " + std::to_string(dimEnd) +
                   ") for shape " + emulator::shapeString(v.shape));
  std::vector<std::size_t> s(v.shape.begin(), v.shape.begin() + dimBegin);
  s.push_back(emulator::product(v.shape, dimBegin, dimEnd));
  s.insert(s.end(), v.shape.begin() + dimEnd, v.shape.end());
  return withShape(std::move(s));
}

Tensor Tensor::reshape(ArrayRef<std::size_t> shape) const {
  const emulator::ViewData &v = get("reshape");
  std::vector<std::size_t> s = shape.vec();
  if (emulator::product(s, 0, s.size()) != v.size())
    emulator::fail("Tensor::reshape: cannot reshape tensor " + v.describe() +
                   " of shape " + emulator::shapeString(v.shape) + " to " +
                   emulator::shapeString(s));
  return withShape(std::move(s));
}

Tensor Tensor::dimShuffle(ArrayRef<unsigned> permutation) const {
  const emulator::ViewData &v = get("dimShuffle");
  const std::size_t r = v.shape.size();
  std::vector<bool> seen(r, false);
  bool ok = permutation.size() == r;
  for (std::size_t k = 0; ok && k < r; ++k) {
    ok = permutation[k] < r && !seen[permutation[k]];
    if (ok)
      seen[permutation[k]] = true;
  }
  if (!ok)
    emulator::fail("Tensor::dimShuffle: not a permutation of the " +
                   std::to_string(r) + " dimensions of tensor " + v.describe());
  if (r == 0)
    return *this;
  std::vector<std::size_t> srcStride(r), rs(r);
  for (std::size_t d = 0; d < r; ++d)
    srcStride[d] = emulator::product(v.shape, d + 1, r);
  for (std::size_t k = 0; k < r; ++k)
    rs[k] = v.shape[permutation[k]];
  emulator::RunBuilder b;
  if (v.size() != 0) {
    std::vector<std::size_t> idx(r, 0);
    const std::size_t rows = emulator::product(rs, 0, r - 1);
    for (std::size_t row = 0; row < rows; ++row) {
      std::size_t base = 0;
      for (std::size_t k = 0; k + 1 < r; ++k)
        base += idx[k] * srcStride[permutation[k]];
      b.addStrided(v, base, rs[r - 1], srcStride[permutation[r - 1]]);
      for (std::size_t k = r - 1; k-- > 0;) { // odometer over dims [0, r-1)
        if (++idx[k] < rs[k])
          break;
        idx[k] = 0;
      }
    }
  }
  return make(b, std::move(rs));
}

Tensor Tensor::dimRoll(unsigned dimIdx, unsigned newIdx) const {
  const emulator::ViewData &v = get("dimRoll");
  if (dimIdx >= v.shape.size() || newIdx >= v.shape.size())
    emulator::fail("Tensor::dimRoll: dimension out of range");
  std::vector<unsigned> perm;
  for (unsigned d = 0; d < v.shape.size(); ++d)
    if (d != dimIdx)
      perm.push_back(d);
  perm.insert(perm.begin() + newIdx, dimIdx);
  return dimShuffle(perm);
}

Tensor Tensor::expand(ArrayRef<std::size_t> indices) const {
  const emulator::ViewData &v = get("expand");
  std::vector<std::size_t> idx = indices.vec();
  std::sort(idx.begin(), idx.end());
  std::vector<std::size_t> s = v.shape;
  for (const std::size_t i : idx) {
    if (i > s.size())
      emulator::fail("Tensor::expand: index " + std::to_string(i) + " out of range");
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(i), 1);
  }
  return withShape(std::move(s));
}

Tensor Tensor::squeeze(ArrayRef<std::size_t> indices) const {
  const emulator::ViewData &v = get("squeeze");
  std::vector<std::size_t> s;
  for (std::size_t d = 0; d < v.shape.size(); ++d) {
    const bool drop = std::find(indices.begin(), indices.end(), d) != indices.end();
    if (drop && v.shape[d] != 1)
      emulator::fail("Tensor::squeeze: dimension " + std::to_string(d) +
                     " has size " + std::to_string(v.shape[d]) + ", not 1");
    if (!drop)
      s.push_back(v.shape[d]);
  }
  return withShape(std::move(s));
}

Tensor Tensor::transpose() const {
  const emulator::ViewData &v = get("transpose");
  if (v.shape.size() != 2)
    emulator::fail("Tensor::transpose: tensor " + v.describe() + " has rank " +
                   std::to_string(v.shape.size()) + ", not 2");
  return dimShuffle({1, 0});
}

Tensor Tensor::subSample(unsigned stride, unsigned dimension) const {
  return blocks("subSample", dimension, [&](std::size_t d, auto &&emit) {
    if (stride == 0)
      emulator::fail("Tensor::subSample: stride 0");
    for (std::size_t j = 0; j < d; j += stride)
      emit(j);
    return (d + stride - 1) / stride;
  });
}

Tensor Tensor::upsample(unsigned scale, unsigned dimension, UpsampleMethod method) const {
  (void)method; // REPEAT is the only method
  return blocks("upsample", dimension, [&](std::size_t d, auto &&emit) {
    for (std::size_t j = 0; j < d; ++j)
      for (unsigned s = 0; s < scale; ++s)
        emit(j);
    return d * scale;
  });
}

// Each block of dimensions [dim, rank) N times over: a block of one element (a
// column broadcast along the rows) is one run of stride 0, built in O(1), not N.
Tensor Tensor::broadcast(unsigned N, unsigned dim) const {
  const emulator::ViewData &v = get("broadcast");
  if (dim >= v.shape.size())
    emulator::fail("Tensor::broadcast: dimension " + std::to_string(dim) +
                   " out of range for tensor " + v.describe() + " of rank " +
                   std::to_string(v.shape.size()));
  const std::size_t outer = emulator::product(v.shape, 0, dim);
  const std::size_t block = emulator::product(v.shape, dim, v.shape.size());
  emulator::RunBuilder b;
  for (std::size_t o = 0; o < outer; ++o) {
    if (block == 1) {
      const auto a = v.at(o);
      b.add(a.first, a.second, N, 0);
      continue;
    }
    for (unsigned n = 0; n < N; ++n)
      b.addRange(v, o * block, (o + 1) * block);
  }
  std::vector<std::size_t> s = v.shape;
  s[dim] *= N;
  return make(b, std::move(s));
}

Tensor Tensor::reinterpret(const Type &type) const {
  check("reinterpret");
  const emulator::TypeId to = emulator::idOf(type);
  if (emulator::typeSize(to) != emulator::typeSize(this->type))
    emulator::fail("Tensor::reinterpret: the emulator reinterprets only between "
                   "types of equal size (" + emulator::typeName(this->type) +
                   " -> " + emulator::typeName(to) + ")");
  Tensor t = *this;
  t.type = to;
  return t;
}

Tensor Tensor::reverse(unsigned dimension) const {
  return blocks("reverse", dimension, [&](std::size_t d, auto &&emit) {
    for (std::size_t j = d; j-- > 0;)
      emit(j);
    return d;
  });
}

std::size_t Tensor::dim(unsigned i) const {
  const emulator::ViewData &v = get("dim");
  if (i >= v.shape.size())
    emulator::fail("Tensor::dim: dimension " + std::to_string(i) +
                   " out of range for tensor " + v.describe() + " of rank " +
                   std::to_string(v.shape.size()));
  return v.shape[i];
}

bool Tensor::containsAliases() const {
  const auto iv = emulator::addressIntervals(get("containsAliases"));
  for (std::size_t i = 1; i < iv.size(); ++i)
    if (iv[i].first < iv[i - 1].second)
      return true;
  return false;
}

bool Tensor::containsConstant() const {
  const emulator::ViewData &v = get("containsConstant");
  for (const emulator::Run &r : v.runs)
    if (v.vars->vars[r.var].constant)
      return true;
  return false;
}

bool Tensor::intersectsWith(const Tensor &other) const {
  const auto a = emulator::addressIntervals(get("intersectsWith"));
  const auto b = emulator::addressIntervals(other.get("intersectsWith"));
  if (view->vars != other.view->vars)
    return false;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].second <= b[j].first)
      ++i;
    else if (b[j].second <= a[i].first)
      ++j;
    else
      return true;
  }
  return false;
}

Tensor concat(ArrayRef<Tensor> ts, unsigned dimension) {
  if (ts.empty())
    emulator::fail("concat: no tensors");
  const emulator::ViewData &first = ts[0].get("concat");
  const std::size_t r = first.shape.size();
  if (dimension >= r)
    emulator::fail("concat: dimension " + std::to_string(dimension) +
                   " out of range for rank " + std::to_string(r));
  std::size_t total = 0;
  for (const Tensor &t : ts) {
    const emulator::ViewData &v = t.get("concat");
    bool ok = v.shape.size() == r && v.vars == first.vars && t.type == ts[0].type;
    for (std::size_t d = 0; ok && d < r; ++d)
      ok = d == dimension || v.shape[d] == first.shape[d];
    if (!ok)
      emulator::fail("concat: tensors " + first.describe() + " " +
                     emulator::shapeString(first.shape) + " and " + v.describe() +
                     " " + emulator::shapeString(v.shape) +
                     " differ in graph, element type or a dimension other than " +
                     std::to_string(dimension));
    total += v.shape[dimension];
  }
  const std::size_t outer = emulator::product(first.shape, 0, dimension);
  const std::size_t inner = emulator::product(first.shape, dimension + 1, r);
  emulator::RunBuilder b;
  for (std::size_t o = 0; o < outer; ++o)
    for (const Tensor &t : ts) {
      const std::size_t block = t.view->shape[dimension] * inner;
      b.addRange(*t.view, o * block, (o + 1) * block);
    }
  std::vector<std::size_t> s = first.shape;
  s[dimension] = total;
  return Tensor(ts[0].type, b.finish(first.vars, std::move(s)));
}

Tensor concat(const Tensor &first, const Tensor &second,
              unsigned dimension) {
  const Tensor both[] = {first, second};
  return concat(ArrayRef<Tensor>(both), dimension);
}

Tensor append(const Tensor &first, const Tensor &second,
              unsigned dimension) {
  return concat(first, second.expand({dimension}), dimension);
}

Tensor append(const Tensor &first, const Tensor &second) {
  return append(first, second, 0);
}

std::ostream &operator<<(std::ostream &os, const Tensor &tensor) {
  if (!tensor.valid())
    return os << "Tensor(invalid)";
  const emulator::ViewData &v = *emulator::Access<Tensor>::view(tensor);
  return os << "Tensor(" << tensor.elementType() << " " << tensor.shapeToString()
            << " of " << v.describe() << ")";
}

} // namespace poplar
