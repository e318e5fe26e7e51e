/// @file host_memory.hpp
/// What a run may take of the host's memory, checked before anything large is allocated.
/// Host code only: no CUDA header.
#pragma once

#include <cstdint>
#include <string>

namespace stepwise {

/// The host memory a new allocation can take without swapping: MemAvailable from
/// /proc/meminfo (Linux), else the free physical pages; 0 when neither can be read.
std::uint64_t available_host_bytes();

/// Refuses a run whose host buffers would not fit, before any of them is allocated.
/// @param bytes what the run will hold on the host at its peak
/// @param what the option or input the size comes from, as the user typed it (`--n 2^34`)
/// @throws UsageError `--n 2^34 needs 96.0 GiB of host memory; 15.2 GiB is available` when
///   @p bytes exceeds available_host_bytes() (unknown availability refuses nothing).
void require_host_bytes(double bytes, const std::string& what);

}  // namespace stepwise
