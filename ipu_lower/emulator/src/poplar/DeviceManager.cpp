// The device manager, which finds no hardware IPUs (poplar/DeviceManager.hpp).
#include <poplar/DeviceManager.hpp>

namespace poplar {

DeviceManager::~DeviceManager() = default;

Device DeviceManager::getDevice(unsigned deviceManagerId, const OptionFlags &opts) const {
  (void)opts;
  emulator::fail("DeviceManager::getDevice: no IPU device with id " +
                 std::to_string(deviceManagerId) +
                 " (the CPU emulator has no IPUs; use IPUModel)");
}

} // namespace poplar
