// Mirrors Poplar SDK 3.x <poplar/DeviceManager.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_DEVICEMANAGER_HPP
#define IPU_LOWER_EMU_POPLAR_DEVICEMANAGER_HPP

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/TargetType.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace poplar {

namespace core {
class DeviceManager;
} // namespace core

/// Enumerates the devices attached to this host.
class DeviceManager {
public:
  DeviceManager();
  DeviceManager(const DeviceManager &);
  DeviceManager(DeviceManager &&) noexcept;
  virtual ~DeviceManager();

  std::size_t getNumDevices() const;
  std::vector<Device> getDevices(const OptionFlags &opts = {}) const;
  std::vector<Device> getDevices(TargetType type, unsigned requiredNumIPUs,
                                 const OptionFlags &opts = {}) const;
  Device getDevice(unsigned deviceManagerId, const OptionFlags &opts = {}) const;
  std::vector<unsigned> getChildDeviceIds(unsigned parentId,
                                          unsigned numChildDeviceIpus = 1) const;

  static DeviceManager createDeviceManager();

private:
  std::unique_ptr<core::DeviceManager> impl;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_DEVICEMANAGER_HPP
