/// @file gpu_checks.hpp
/// What every GPU test checks after a stage ran: nothing was written outside any device
/// buffer (the guard zones of device_buffer.hpp).
#pragma once

#include <doctest/doctest.h>

#include "device_buffer.hpp"

namespace stepwise::testing {

/// Fails the current test case when a kernel wrote outside a device buffer, and re-arms the guards.
inline void check_no_stray_writes() {
  const Check guards = check_guard_zones();
  CHECK_MESSAGE(guards.passed, guards.detail);
}

}  // namespace stepwise::testing
