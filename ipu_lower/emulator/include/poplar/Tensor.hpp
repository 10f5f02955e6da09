// CPU emulator of Poplar SDK 3.x <poplar/Tensor.hpp>: tensors as cheap views (shape + runs of variable elements).
//
// A Tensor is an element type plus a shared, immutable ViewData (see
// ipu_lower_emulator/View.hpp): copying a Tensor copies a pointer; a slice
// along dimension 0 of a plain variable is one run however large it is.
#ifndef IPU_LOWER_EMU_POPLAR_TENSOR_HPP
#define IPU_LOWER_EMU_POPLAR_TENSOR_HPP

#include <ipu_lower_emulator/View.hpp>
#include <poplar/ArrayRef.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace poplar {

/// Method passed to Tensor::upsample().
enum class UpsampleMethod { REPEAT };

/// A reference to a subset of tensor elements (a view; copying is cheap).
class Tensor {
public:
  Tensor() = default;
  Tensor(const Tensor &other) = default;
  Tensor(Tensor &&other) noexcept = default;
  Tensor &operator=(const Tensor &other) = default;
  Tensor &operator=(Tensor &&other) noexcept = default;
  ~Tensor() = default;

  Type elementType() const {
    check("elementType");
    return emulator::makeType(type);
  }

  // The SDK also has rvalue (&&) overloads of operator[] and slice(); only the
  // documented const& forms are declared here.
  Tensor operator[](std::size_t i) const &;
  Tensor slice(std::size_t begin, std::size_t end, unsigned dimension) const &;
  Tensor slice(std::size_t begin, std::size_t end) const {
    return slice(begin, end, 0);
  }
  Tensor slice(const Interval &region, unsigned dimension = 0) const {
    return slice(region.begin(), region.end(), dimension);
  }
  Tensor slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const;
  Tensor index(ArrayRef<std::size_t> indices) const;

  Tensor flatten() const;
  Tensor flatten(unsigned dimBegin, unsigned dimEnd) const;
  Tensor reshape(ArrayRef<std::size_t> shape) const;
  Tensor dimShuffle(ArrayRef<unsigned> permutation) const;
  Tensor dimRoll(unsigned dimIdx, unsigned newIdx = 0) const;
  Tensor expand(ArrayRef<std::size_t> indices) const;
  Tensor squeeze(ArrayRef<std::size_t> indices) const;
  Tensor transpose() const;
  Tensor subSample(unsigned stride, unsigned dimension) const;
  Tensor upsample(unsigned scale, unsigned dimension, UpsampleMethod method) const;
  Tensor broadcast(unsigned N, unsigned dim) const;
  Tensor reinterpret(const Type &type) const;
  Tensor reverse(unsigned dimension) const;

  std::size_t numElements() const { return get("numElements").size(); } // unverified: return type
  std::size_t dim(unsigned i) const; // unverified: return type
  std::vector<std::size_t> shape() const { return get("shape").shape; } // unverified: return type
  unsigned rank() const { // unverified: return type
    return static_cast<unsigned>(get("rank").shape.size());
  }
  bool isContiguous() const { return get("isContiguous").contiguous(); }
  bool containsAliases() const;
  bool containsConstant() const;
  bool isParallelWriteable() const {
    return !containsAliases() && !containsConstant();
  }
  bool intersectsWith(const Tensor &other) const;
  std::string shapeToString() const {
    return emulator::shapeString(get("shapeToString").shape);
  }
  bool valid() const { return view != nullptr; }

private:
  Tensor(emulator::TypeId type, std::shared_ptr<const emulator::ViewData> view)
      : type(type), view(std::move(view)) {}
  void check(const char *what) const;
  const emulator::ViewData &get(const char *what) const {
    check(what);
    return *view;
  }
  Tensor make(emulator::RunBuilder &b, std::vector<std::size_t> shape) const;
  Tensor withShape(std::vector<std::size_t> shape) const;
  /// Rebuilds dimension `dim` from whole blocks of the inner dimensions:
  /// pick(d, emit) calls emit(j) for each source index j in output order and
  /// returns the new size of the dimension.
  template <class Pick>
  Tensor blocks(const char *what, unsigned dim, Pick &&pick) const;

  emulator::TypeId type = emulator::TypeId::INVALID;
  std::shared_ptr<const emulator::ViewData> view;
  template <class> friend struct emulator::Access;
  friend Tensor concat(ArrayRef<Tensor> ts, unsigned dimension);
};

namespace emulator {
template <> struct Access<Tensor> {
  static Tensor make(TypeId type, std::shared_ptr<const ViewData> view) {
    return Tensor(type, std::move(view));
  }
  static const std::shared_ptr<const ViewData> &view(const Tensor &t) {
    return t.view;
  }
  static const ViewData &data(const Tensor &t, const char *what) {
    return t.get(what);
  }
  static TypeId type(const Tensor &t) { return t.type; }
};
} // namespace emulator

Tensor concat(ArrayRef<Tensor> ts, unsigned dimension = 0);
Tensor concat(const Tensor &first, const Tensor &second, unsigned dimension = 0);
Tensor append(const Tensor &first, const Tensor &second, unsigned dimension);
Tensor append(const Tensor &first, const Tensor &second);

std::ostream &operator<<(std::ostream &os, const Tensor &tensor); // unverified

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TENSOR_HPP
