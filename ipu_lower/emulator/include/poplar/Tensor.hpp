// Mirrors Poplar SDK 3.x <poplar/Tensor.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_TENSOR_HPP
#define IPU_LOWER_EMU_POPLAR_TENSOR_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace poplar {

namespace core {
class Tensor;
} // namespace core

/// Method passed to Tensor::upsample().
enum class UpsampleMethod { REPEAT };

/// A reference to a subset of tensor elements (a view; copying is cheap).
class Tensor {
public:
  Tensor();
  Tensor(const Tensor &other);
  Tensor(Tensor &&other) noexcept;
  Tensor &operator=(const Tensor &other);
  Tensor &operator=(Tensor &&other) noexcept;
  ~Tensor();

  Type elementType() const;

  // The SDK also has rvalue (&&) overloads of operator[] and slice(); only the
  // documented const& forms are declared here.
  Tensor operator[](std::size_t i) const &;
  Tensor slice(std::size_t begin, std::size_t end, unsigned dimension) const &;
  Tensor slice(std::size_t begin, std::size_t end) const;
  Tensor slice(const Interval &region, unsigned dimension = 0) const;
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

  std::size_t numElements() const;          // unverified: return type
  std::size_t dim(unsigned i) const;        // unverified: return type
  std::vector<std::size_t> shape() const;   // unverified: return type
  unsigned rank() const;                    // unverified: return type
  bool isContiguous() const;
  bool containsAliases() const;
  bool containsConstant() const;
  bool isParallelWriteable() const;
  bool intersectsWith(const Tensor &other) const;
  std::string shapeToString() const;
  bool valid() const;

private:
  std::unique_ptr<core::Tensor> impl;
};

Tensor concat(ArrayRef<Tensor> ts, unsigned dimension = 0);
Tensor concat(const Tensor &first, const Tensor &second, unsigned dimension = 0);
Tensor append(const Tensor &first, const Tensor &second, unsigned dimension);
Tensor append(const Tensor &first, const Tensor &second);

std::ostream &operator<<(std::ostream &os, const Tensor &tensor); // unverified

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_TENSOR_HPP
