// Host <-> device FIFO and remote buffer handles (poplar/DataStream.hpp).
#include <poplar/DataStream.hpp>

namespace poplar {

const emulator::StreamInfo &DataStream::get() const {
  if (!impl)
    emulator::fail("DataStream: invalid (default-constructed) stream");
  return *impl;
}

const emulator::RemoteBufferInfo &RemoteBuffer::get() const {
  if (!impl)
    emulator::fail("RemoteBuffer: invalid (default-constructed) remote buffer");
  return *impl;
}

} // namespace poplar
