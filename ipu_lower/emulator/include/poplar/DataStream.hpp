// Mirrors Poplar SDK 3.x <poplar/DataStream.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_DATASTREAM_HPP
#define IPU_LOWER_EMU_POPLAR_DATASTREAM_HPP

#include <poplar/StringRef.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace poplar {

namespace core {
class DataStream;
} // namespace core

enum class DataStreamType {
  HostToDeviceFIFO,
  DeviceToHostFIFO,
  HostToDeviceBuffer,
  DeviceToHostBuffer
};

/// How a host-to-device stream behaves in a replicated graph.
enum class ReplicatedStreamMode { REPLICATE, BROADCAST };

/// A handle to a host <-> device data stream (FIFO).
class DataStream {
public:
  DataStream();
  DataStream(const DataStream &);
  DataStream(DataStream &&) noexcept;
  DataStream &operator=(const DataStream &);
  DataStream &operator=(DataStream &&) noexcept;
  ~DataStream();

  std::string handle() const;                   // unverified: return type
  std::size_t numElements() const;              // unverified: return type
  unsigned replicationFactor() const;           // unverified: return type
  ReplicatedStreamMode replicatedMode() const;  // unverified: return type
  DataStreamType type() const;                  // unverified: return type
  const Type &elementType() const;              // unverified: return type

private:
  std::unique_ptr<core::DataStream> impl;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_DATASTREAM_HPP
