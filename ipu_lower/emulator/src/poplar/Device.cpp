// IPU Model / CPU devices (poplar/Device.hpp).
#include <poplar/Device.hpp>

namespace poplar {

Device::~Device() = default;

bool Device::attach() const {
  if (!impl)
    return false;
  impl->attached = true;
  return true;
}

void Device::detach() const {
  if (impl)
    impl->attached = false;
}

Device Device::createCPUDevice(unsigned numIPUs) {
  return Device(Target::createCPUTarget(false, numIPUs), 0);
}

Device::Device(Target target, unsigned id) : impl(new core::Device) {
  impl->target = std::move(target);
  impl->id = id;
}

const core::Device &Device::get() const {
  if (!impl)
    emulator::fail("Device: no device (default-constructed or moved-from)");
  return *impl;
}

} // namespace poplar
