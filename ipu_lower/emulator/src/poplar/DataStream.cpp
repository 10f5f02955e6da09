// Host <-> device FIFO handles (poplar/DataStream.hpp).
#include <poplar/DataStream.hpp>

namespace poplar {

const emulator::StreamInfo &DataStream::get() const {
  if (!impl)
    emulator::fail("DataStream: invalid (default-constructed) stream");
  return *impl;
}

} // namespace poplar
