// CPU emulator of Poplar SDK 3.x <poplar/Device.hpp>: IPU Model / CPU devices (there is no IPU hardware).
#ifndef IPU_LOWER_EMU_POPLAR_DEVICE_HPP
#define IPU_LOWER_EMU_POPLAR_DEVICE_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>

#include <memory>
#include <utility>

namespace poplar {

namespace core {
/// Emulator state of a device.
class Device {
public:
  Target target;
  unsigned id = 0;
  bool attached = false;
};
} // namespace core

/// A physical or modelled entity that can execute code. Movable, not copyable.
class Device {
public:
  Device() = default; // unverified (used widely: `poplar::Device device;`)
  Device(Device &&) noexcept = default;
  virtual ~Device();
  Device &operator=(Device &&) noexcept = default;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  unsigned getId() const { return get().id; }
  const Target &getTarget() const { return get().target; }
  /// Modelled devices always attach; a default-constructed Device does not.
  bool attach() const;
  bool isAttached() const { return impl && impl->attached; }
  void detach() const;

  static Device createCPUDevice(unsigned numIPUs = 1); // unverified: return type

private:
  Device(Target target, unsigned id);
  const core::Device &get() const;
  std::unique_ptr<core::Device> impl;
  template <class> friend struct emulator::Access;
};

namespace emulator {
template <> struct Access<Device> {
  static Device make(Target target, unsigned id) {
    return Device(std::move(target), id);
  }
};
} // namespace emulator

} // namespace poplar

#endif // IPU_LOWER_EMU_POPLAR_DEVICE_HPP
