// Mirrors Poplar SDK 3.x <poplar/Device.hpp>; declaration-only stand-in for syntax checking (to become the CPU emulator).
#ifndef IPU_LOWER_EMU_POPLAR_DEVICE_HPP
#define IPU_LOWER_EMU_POPLAR_DEVICE_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>

#include <memory>

namespace poplar {

namespace core {
class Device;
} // namespace core

/// A physical or modelled entity that can execute code. Movable, not copyable.
class Device {
public:
  Device(); // unverified (used widely: `poplar::Device device;`)
  Device(Device &&) noexcept;
  virtual ~Device();
  Device &operator=(Device &&) noexcept;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  unsigned getId() const;
  const Target &getTarget() const;
  bool attach() const;
  bool isAttached() const;
  void detach() const;

  static Device createCPUDevice(unsigned numIPUs = 1); // unverified: return type

private:
  std::unique_ptr<core::Device> impl;
};

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_DEVICE_HPP
