/// @file nccl_check.hpp
/// Every NCCL call checked: STEPWISE_NCCL_CHECK(ncclAllReduce(...)) throws a std::runtime_error
/// naming the call, its file and line and ncclGetErrorString's text.
#pragma once

#include <nccl.h>

#include <stdexcept>
#include <string>

namespace stepwise::multigpu {

/// Throws std::runtime_error if @p result is not ncclSuccess. Use through STEPWISE_NCCL_CHECK.
inline void throw_on_nccl_error(ncclResult_t result, const char* call, const char* file, int line) {
  if (result == ncclSuccess) return;
  throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                           ncclGetErrorString(result));
}

}  // namespace stepwise::multigpu

/// Checks an NCCL call: `STEPWISE_NCCL_CHECK(ncclGroupEnd());`
#define STEPWISE_NCCL_CHECK(call) ::stepwise::multigpu::throw_on_nccl_error((call), #call, __FILE__, __LINE__)
