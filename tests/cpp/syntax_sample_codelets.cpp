// Hand-written codelets exercising every Poplar codelet-side declaration the
// code generator emits, in the way it emits them. It is only syntax-checked:
//   g++ -std=c++17 -fsyntax-only -Wall -Werror -I ipu_lower/emulator/include
// (see tests/test_emulator_headers.py). On the host (__IPU__ undefined)
// poplar/Vertex.hpp supplies `half`.
#include <poplar/Vertex.hpp>

#include <cmath>
#include <cstddef>

// The generator's map codelet shape: MultiVertex, scalar Input read through
// operator*, 1-D vector edges with size() and operator[].
class saxpy_map_0 : public poplar::MultiVertex {
public:
  poplar::Input<float> a;
  poplar::Input<poplar::Vector<float>> x;
  poplar::InOut<poplar::Vector<float>> y;
  void compute(unsigned workerId) {
    const unsigned n = y.size();
    for (unsigned i = workerId; i < n; i += numWorkers()) {
      const float v0 = *a;
      const float v1 = x[i];
      y[i] = v0 * v1 + y[i];
    }
  }
};

// half vectors: arithmetic happens in float.
class scale_half_map_1 : public poplar::MultiVertex {
public:
  poplar::Input<float> alpha;
  poplar::Input<poplar::Vector<half>> in;
  poplar::Output<poplar::Vector<half>> out;
  void compute(unsigned workerId) {
    const unsigned n = out.size();
    for (unsigned i = workerId; i < n; i += poplar::MultiVertex::numWorkers()) {
      const float v0 = static_cast<float>(in[i]);
      const float v1 = alpha; // implicit read-conversion of a scalar Input
      out[i] = static_cast<half>(std::sqrt(v0 * v1));
    }
  }
};

// Single-worker Vertex, SDK 3.x `void compute()`, scalar Output / InOut
// written through operator*, non-edge state set by Graph::setInitialValue.
class reduce_sum_2 : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> sum;
  poplar::InOut<unsigned> counter;
  unsigned n;
  void compute() {
    float acc = 0.0f;
    for (unsigned i = 0; i < n; ++i)
      acc += in[i];
    *sum = acc;
    *counter = *counter + 1u;
    unsigned &c = counter; // InOut converts to T&
    c += 1u;
  }
};

// SDK 2.x style `bool compute()`, still accepted by SDK 3.x.
class legacy_copy_3 : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<int>> in;
  poplar::Output<poplar::Vector<int>> out;
  bool compute() {
    for (std::size_t i = 0; i < in.size(); ++i)
      out[i] = in[i];
    return true;
  }
};

// Every explicit Vector template parameter, VectorLayout values, range-for over
// SPAN vectors, and a ONE_PTR vector (indexable, no size()).
class layouts_4 : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::SPAN, 4, false>>
      spanIn;
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::ONE_PTR, 8>> onePtrIn;
  poplar::InOut<poplar::Vector<float, poplar::VectorLayout::SHORT_SPAN>> shortIo;
  poplar::Output<poplar::Vector<float, poplar::VectorLayout::SPAN, 8, true>>
      interleavedOut;
  void compute() {
    float total = 0.0f;
    for (const float v : spanIn)
      total += v;
    for (float &v : shortIo)
      v = v + onePtrIn[0];
    for (unsigned i = 0; i < interleavedOut.size(); ++i)
      interleavedOut[i] = total;
  }
};

// 2-D fields: Vector of vector edges and VectorList edges, plus vertex-state
// Vector and VectorList.
class two_d_5 : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<float>>> rows;
  poplar::Vector<poplar::Output<poplar::Vector<float>>> outRows;
  poplar::Input<
      poplar::VectorList<float, poplar::VectorListLayout::DELTANELEMENTS>>
      list;
  poplar::InOut<poplar::VectorList<unsigned, poplar::VectorListLayout::DELTAN>>
      counts;
  poplar::Vector<unsigned> offsets;
  poplar::VectorList<float, poplar::VectorListLayout::DELTANELEMENTS> scratch;
  void compute() {
    for (unsigned r = 0; r < rows.size(); ++r)
      for (unsigned c = 0; c < rows[r].size(); ++c)
        outRows[r][c] = rows[r][c] + list[r][c] + scratch[r][c];
    for (unsigned r = 0; r < counts.size(); ++r)
      for (unsigned c = 0; c < counts[r].size(); ++c)
        counts[r][c] = counts[r][c] + offsets[r];
  }
};

// Template vertex with explicit instantiation, as library-style codelets do.
template <typename T> class fill_6 : public poplar::MultiVertex {
public:
  poplar::Input<T> value;
  poplar::Output<poplar::Vector<T>> out;
  void compute(unsigned workerId) {
    for (unsigned i = workerId; i < out.size(); i += numWorkers())
      out[i] = *value;
  }
};
template class fill_6<float>;
template class fill_6<int>;
template class fill_6<half>;

// Remaining base classes.
class supervised_7 : public poplar::SupervisorVertexIf<false> {
public:
  poplar::Output<float> out;
  void compute() { *out = 1.0f; }
};
static_assert(poplar::MultiVertex::numWorkers() > 0, "constexpr numWorkers");
