// CPU emulator of Poplar SDK 3.x <poplar/DataStream.hpp>: host <-> device FIFO handles.
#ifndef IPU_LOWER_EMU_POPLAR_DATASTREAM_HPP
#define IPU_LOWER_EMU_POPLAR_DATASTREAM_HPP

#include <ipu_lower_emulator/Support.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

namespace poplar {

enum class DataStreamType {
  HostToDeviceFIFO,
  DeviceToHostFIFO,
  HostToDeviceBuffer,
  DeviceToHostBuffer
};

/// How a host-to-device stream behaves in a replicated graph.
enum class ReplicatedStreamMode { REPLICATE, BROADCAST };

namespace emulator {
struct StreamInfo {
  std::string handle;
  Type type;
  std::size_t numElements = 0;
  DataStreamType kind = DataStreamType::HostToDeviceFIFO;
  ReplicatedStreamMode mode = ReplicatedStreamMode::REPLICATE;
  const void *graph = nullptr; ///< the GraphData that created it
  bool toDevice() const {
    return kind == DataStreamType::HostToDeviceFIFO ||
           kind == DataStreamType::HostToDeviceBuffer;
  }
};
} // namespace emulator

/// A handle to a host <-> device data stream (FIFO).
class DataStream {
public:
  DataStream() = default;
  DataStream(const DataStream &) = default;
  DataStream(DataStream &&) noexcept = default;
  DataStream &operator=(const DataStream &) = default;
  DataStream &operator=(DataStream &&) noexcept = default;
  ~DataStream() = default;

  std::string handle() const { return get().handle; }                 // unverified: return type
  std::size_t numElements() const { return get().numElements; }       // unverified: return type
  unsigned replicationFactor() const { return 1; }                    // unverified: return type
  ReplicatedStreamMode replicatedMode() const { return get().mode; }  // unverified: return type
  DataStreamType type() const { return get().kind; }                  // unverified: return type
  const Type &elementType() const { return get().type; }              // unverified: return type

private:
  explicit DataStream(std::shared_ptr<const emulator::StreamInfo> i)
      : impl(std::move(i)) {}
  const emulator::StreamInfo &get() const;
  std::shared_ptr<const emulator::StreamInfo> impl;
  template <class> friend struct emulator::Access;
};

namespace emulator {
template <> struct Access<DataStream> {
  static DataStream make(std::shared_ptr<const StreamInfo> info) {
    return DataStream(std::move(info));
  }
  static const std::shared_ptr<const StreamInfo> &info(const DataStream &s) {
    s.get();
    return s.impl;
  }
};
} // namespace emulator

namespace emulator {
struct RemoteBufferInfo {
  std::string handle;
  Type type;
  std::size_t numElements = 0; ///< of one repeat
  std::size_t repeats = 1;
  bool rearrangeOnHost = false, optimiseMemory = false;
  const void *graph = nullptr; ///< the GraphData that created it
};
} // namespace emulator

/// Memory off the IPU (streaming memory): `getRepeats()` slots of
/// `numElements()` elements that program::Copy moves to and from tensors, one
/// slot at a time, and Engine::copyToRemoteBuffer / copyFromRemoteBuffer to and
/// from the host (Poplar API reference, class poplar::RemoteBuffer).
class RemoteBuffer {
public:
  RemoteBuffer() = default;
  RemoteBuffer(const RemoteBuffer &) = default;
  RemoteBuffer(RemoteBuffer &&) noexcept = default;
  RemoteBuffer &operator=(const RemoteBuffer &) = default;
  RemoteBuffer &operator=(RemoteBuffer &&) noexcept = default;
  ~RemoteBuffer() = default;

  std::string handle() const { return get().handle; }
  std::size_t numElements() const { return get().numElements; }
  std::size_t getRepeats() const { return get().repeats; }
  const Type &elementType() const { return get().type; } // unverified: returns Type by value
  bool isRearrangeOnHost() const { return get().rearrangeOnHost; }
  bool isOptimisedForMemory() const { return get().optimiseMemory; }
  bool operator==(const RemoteBuffer &b) const { return impl == b.impl; }
  bool operator!=(const RemoteBuffer &b) const { return impl != b.impl; }

private:
  explicit RemoteBuffer(std::shared_ptr<const emulator::RemoteBufferInfo> i)
      : impl(std::move(i)) {}
  const emulator::RemoteBufferInfo &get() const;
  std::shared_ptr<const emulator::RemoteBufferInfo> impl;
  template <class> friend struct emulator::Access;
};

namespace emulator {
template <> struct Access<RemoteBuffer> {
  static RemoteBuffer make(std::shared_ptr<const RemoteBufferInfo> info) {
    return RemoteBuffer(std::move(info));
  }
  static const std::shared_ptr<const RemoteBufferInfo> &info(const RemoteBuffer &b) {
    b.get();
    return b.impl;
  }
};
} // namespace emulator

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_DATASTREAM_HPP
