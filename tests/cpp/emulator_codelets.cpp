// Hand-written codelets for tests/test_emulator.py, each followed by the
// registration block the code generator emits (inert on the real SDK). Built
// as its own translation unit next to emulator_driver.cpp, so the codelet
// registry is shared across translation units as in a generated library.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <vector>

// The shape the code generator emits for a map: MultiVertex, scalar Input,
// vector edges, worker-strided loop.
class Saxpy : public poplar::MultiVertex {
public:
  poplar::Input<float> a;
  poplar::Input<poplar::Vector<float>> x;
  poplar::InOut<poplar::Vector<float>> y;
  void compute(unsigned workerId) {
    const unsigned n = y.size();
    for (unsigned i = workerId; i < n; i += numWorkers())
      y[i] = *a * x[i] + y[i];
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<Saxpy> Saxpy_registration{
    "Saxpy",
    {poplar::emulator::field("a", &Saxpy::a), poplar::emulator::field("x", &Saxpy::x),
     poplar::emulator::field("y", &Saxpy::y)}};
#endif

// Single-worker copy, SDK 3.x void compute().
class CopyVec : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  void compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = in[i];
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<CopyVec> CopyVec_registration{
    "CopyVec",
    {poplar::emulator::field("in", &CopyVec::in), poplar::emulator::field("out", &CopyVec::out)}};
#endif

// Writes `value` to out[index] only (the other connected elements untouched).
class WriteAt : public poplar::Vertex {
public:
  poplar::Output<poplar::Vector<float>> out;
  unsigned index;
  float value;
  void compute() { out[index] = value; }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<WriteAt> WriteAt_registration{
    "WriteAt",
    {poplar::emulator::field("out", &WriteAt::out), poplar::emulator::field("index", &WriteAt::index),
     poplar::emulator::field("value", &WriteAt::value)}};
#endif

// out[i] = in[i] + in[i + 1] + in[i + 2]: a 3-point stencil, `in` with one
// element of halo on each side of `out`.
class Stencil3 : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  void compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = in[i] + in[i + 1] + in[i + 2];
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<Stencil3> Stencil3_registration{
    "Stencil3",
    {poplar::emulator::field("in", &Stencil3::in), poplar::emulator::field("out", &Stencil3::out)}};
#endif

// Reads its Output (a codelet bug the emulator must report).
class ReadsOutput : public poplar::Vertex {
public:
  poplar::Output<poplar::Vector<float>> y;
  void compute() {
    const float old = y[0];
    y[0] = old + 1.0f;
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<ReadsOutput> ReadsOutput_registration{
    "ReadsOutput", {poplar::emulator::field("y", &ReadsOutput::y)}};
#endif

// Appends its id to a global log: shows the order vertices run in.
static std::vector<int> &orderLog() {
  static std::vector<int> log;
  return log;
}
extern "C" int emu_test_log_size(void) { return static_cast<int>(orderLog().size()); }
extern "C" int emu_test_log_at(int i) { return orderLog()[static_cast<unsigned>(i)]; }
extern "C" void emu_test_log_clear(void) { orderLog().clear(); }

class Logger : public poplar::Vertex {
public:
  poplar::Input<int> id;
  void compute() { orderLog().push_back(*id); }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<Logger> Logger_registration{
    "Logger", {poplar::emulator::field("id", &Logger::id)}};
#endif

// Loop condition: counter -= 1; pred = counter > 0 (scalar InOut, scalar Output).
class Decrement : public poplar::Vertex {
public:
  poplar::InOut<int> counter;
  poplar::Output<bool> pred;
  void compute() {
    *counter = *counter - 1;
    *pred = *counter > 0;
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<Decrement> Decrement_registration{
    "Decrement",
    {poplar::emulator::field("counter", &Decrement::counter),
     poplar::emulator::field("pred", &Decrement::pred)}};
#endif

// acc += step (InOut converting to T&), SDK 2.x bool compute().
class Accumulate : public poplar::Vertex {
public:
  poplar::InOut<int> acc;
  int step;
  bool compute() {
    int &a = acc;
    a += step;
    return true;
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<Accumulate> Accumulate_registration{
    "Accumulate",
    {poplar::emulator::field("acc", &Accumulate::acc), poplar::emulator::field("step", &Accumulate::step)}};
#endif

// bool compute() that fails.
class ReturnsFalse : public poplar::Vertex {
public:
  poplar::InOut<int> x;
  bool compute() { return false; }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<ReturnsFalse> ReturnsFalse_registration{
    "ReturnsFalse", {poplar::emulator::field("x", &ReturnsFalse::x)}};
#endif

// half in, half out, float arithmetic. Each worker stores whole 32-bit words
// (pairs of halves): two workers storing the two halves of one word would race.
class HalfScale : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<half>> in;
  poplar::Input<float> scale;
  poplar::Output<poplar::Vector<half>> out;
  void compute(unsigned workerId) {
    for (unsigned i = 2 * workerId; i < out.size(); i += 2 * numWorkers())
      for (unsigned j = i; j < i + 2 && j < out.size(); ++j)
        out[j] = static_cast<half>(static_cast<float>(in[j]) * *scale);
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<HalfScale> HalfScale_registration{
    "HalfScale",
    {poplar::emulator::field("in", &HalfScale::in), poplar::emulator::field("scale", &HalfScale::scale),
     poplar::emulator::field("out", &HalfScale::out)}};
#endif

// Vertex state: a scalar and a Vector set with setInitialValue.
class Affine : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> y;
  poplar::Vector<float> weights;
  unsigned bias;
  void compute() {
    for (unsigned i = 0; i < y.size(); ++i)
      y[i] = y[i] * weights[i % weights.size()] + static_cast<float>(bias);
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<Affine> Affine_registration{
    "Affine",
    {poplar::emulator::field("y", &Affine::y), poplar::emulator::field("weights", &Affine::weights),
     poplar::emulator::field("bias", &Affine::bias)}};
#endif

// 2-D fields: VectorList rows and a Vector of vector edges.
class RowSums : public poplar::Vertex {
public:
  poplar::Input<poplar::VectorList<float, poplar::VectorListLayout::DELTANELEMENTS>> rows;
  poplar::Vector<poplar::Input<poplar::Vector<float>>> extra;
  poplar::Output<poplar::Vector<float>> sums;
  void compute() {
    for (unsigned r = 0; r < rows.size(); ++r) {
      float s = 0;
      for (unsigned c = 0; c < rows[r].size(); ++c)
        s += rows[r][c];
      for (unsigned c = 0; c < extra[r].size(); ++c)
        s += extra[r][c];
      sums[r] = s;
    }
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<RowSums> RowSums_registration{
    "RowSums",
    {poplar::emulator::field("rows", &RowSums::rows), poplar::emulator::field("extra", &RowSums::extra),
     poplar::emulator::field("sums", &RowSums::sums)}};
#endif

// Every supported scalar edge type: out = in + 1 for integers, = in for bool.
template <typename T> class Inc : public poplar::Vertex {
public:
  poplar::Input<T> in;
  poplar::Output<T> out;
  void compute() { *out = static_cast<T>(*in + 1); }
};
template class Inc<int>;
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<Inc<int>> Inc_int_registration{
    "Inc<int>", {poplar::emulator::field("in", &Inc<int>::in), poplar::emulator::field("out", &Inc<int>::out)}};
static const poplar::emulator::VertexRegistration<Inc<unsigned char>> Inc_uchar_registration{
    "Inc<unsigned char>",
    {poplar::emulator::field("in", &Inc<unsigned char>::in), poplar::emulator::field("out", &Inc<unsigned char>::out)}};
static const poplar::emulator::VertexRegistration<Inc<signed char>> Inc_schar_registration{
    "Inc<signed char>",
    {poplar::emulator::field("in", &Inc<signed char>::in), poplar::emulator::field("out", &Inc<signed char>::out)}};
static const poplar::emulator::VertexRegistration<Inc<short>> Inc_short_registration{
    "Inc<short>", {poplar::emulator::field("in", &Inc<short>::in), poplar::emulator::field("out", &Inc<short>::out)}};
static const poplar::emulator::VertexRegistration<Inc<unsigned>> Inc_unsigned_registration{
    "Inc<unsigned>",
    {poplar::emulator::field("in", &Inc<unsigned>::in), poplar::emulator::field("out", &Inc<unsigned>::out)}};
static const poplar::emulator::VertexRegistration<Inc<long long>> Inc_ll_registration{
    "Inc<long long>",
    {poplar::emulator::field("in", &Inc<long long>::in), poplar::emulator::field("out", &Inc<long long>::out)}};
static const poplar::emulator::VertexRegistration<Inc<unsigned long long>> Inc_ull_registration{
    "Inc<unsigned long long>",
    {poplar::emulator::field("in", &Inc<unsigned long long>::in),
     poplar::emulator::field("out", &Inc<unsigned long long>::out)}};
static const poplar::emulator::VertexRegistration<Inc<bool>> Inc_bool_registration{
    "Inc<bool>", {poplar::emulator::field("in", &Inc<bool>::in), poplar::emulator::field("out", &Inc<bool>::out)}};
#endif

// Stores into 8/16-bit elements (tests of the sub-word write check). Worker w
// handles elements w, w + numWorkers(), ...: for T narrower than 32 bits two
// workers store into one word. Output: out[i] = 2 i.
template <typename T> class Interleaved : public poplar::MultiVertex {
public:
  poplar::Output<poplar::Vector<T>> out;
  void compute(unsigned workerId) {
    for (unsigned i = workerId; i < out.size(); i += numWorkers())
      out[i] = static_cast<T>(2.0f * static_cast<float>(i));
  }
};
// The same split over an InOut: y[i] += 1.
template <typename T> class InterleavedInOut : public poplar::MultiVertex {
public:
  poplar::InOut<poplar::Vector<T>> y;
  void compute(unsigned workerId) {
    for (unsigned i = workerId; i < y.size(); i += numWorkers())
      y[i] = static_cast<T>(static_cast<float>(y[i]) + 1.0f);
  }
};
// y[i] += 1, each worker on whole 32-bit words (4 / sizeof(T) elements, from
// the start of the edge): no race when the edge starts at a word.
template <typename T> class WordsInOut : public poplar::MultiVertex {
public:
  poplar::InOut<poplar::Vector<T>> y;
  void compute(unsigned workerId) {
    const unsigned perWord = 4 / sizeof(T);
    for (unsigned i = perWord * workerId; i < y.size(); i += perWord * numWorkers())
      for (unsigned j = i; j < i + perWord && j < y.size(); ++j)
        y[j] = static_cast<T>(static_cast<float>(y[j]) + 1.0f);
  }
};
#ifdef IPU_LOWER_EMULATOR
static const poplar::emulator::VertexRegistration<Interleaved<half>> Interleaved_half_registration{
    "Interleaved<half>", {poplar::emulator::field("out", &Interleaved<half>::out)}};
static const poplar::emulator::VertexRegistration<Interleaved<float>> Interleaved_float_registration{
    "Interleaved<float>", {poplar::emulator::field("out", &Interleaved<float>::out)}};
static const poplar::emulator::VertexRegistration<InterleavedInOut<half>> InterleavedInOut_half_registration{
    "InterleavedInOut<half>", {poplar::emulator::field("y", &InterleavedInOut<half>::y)}};
static const poplar::emulator::VertexRegistration<InterleavedInOut<float>> InterleavedInOut_float_registration{
    "InterleavedInOut<float>", {poplar::emulator::field("y", &InterleavedInOut<float>::y)}};
static const poplar::emulator::VertexRegistration<WordsInOut<half>> WordsInOut_half_registration{
    "WordsInOut<half>", {poplar::emulator::field("y", &WordsInOut<half>::y)}};
static const poplar::emulator::VertexRegistration<WordsInOut<signed char>> WordsInOut_schar_registration{
    "WordsInOut<signed char>", {poplar::emulator::field("y", &WordsInOut<signed char>::y)}};
#endif
