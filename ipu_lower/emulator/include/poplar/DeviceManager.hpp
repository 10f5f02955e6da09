// CPU emulator of Poplar SDK 3.x <poplar/DeviceManager.hpp>: enumerates no hardware IPUs (there are none).
#ifndef IPU_LOWER_EMU_POPLAR_DEVICEMANAGER_HPP
#define IPU_LOWER_EMU_POPLAR_DEVICEMANAGER_HPP

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/TargetType.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace poplar {

/// Enumerates the devices attached to this host: none under the emulator, so
/// code that looks for hardware falls back to (or reports the lack of) IPUs.
class DeviceManager {
public:
  DeviceManager() = default;
  DeviceManager(const DeviceManager &) = default;
  DeviceManager(DeviceManager &&) noexcept = default;
  virtual ~DeviceManager();

  std::size_t getNumDevices() const { return 0; }
  std::vector<Device> getDevices(const OptionFlags &opts = {}) const {
    (void)opts;
    return {};
  }
  std::vector<Device> getDevices(TargetType type, unsigned requiredNumIPUs,
                                 const OptionFlags &opts = {}) const {
    (void)type;
    (void)requiredNumIPUs;
    (void)opts;
    return {};
  }
  /// There are none: an error.
  Device getDevice(unsigned deviceManagerId, const OptionFlags &opts = {}) const;
  std::vector<unsigned> getChildDeviceIds(unsigned parentId,
                                          unsigned numChildDeviceIpus = 1) const {
    (void)parentId;
    (void)numChildDeviceIpus;
    return {};
  }

  static DeviceManager createDeviceManager() { return DeviceManager(); }
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_DEVICEMANAGER_HPP
