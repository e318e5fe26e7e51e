/// @file communicators.hpp
/// The NCCL communicators of a team of the first G GPUs, one per GPU, created by one process
/// (ncclCommInitAll) and destroyed with the object.
#pragma once

#include <nccl.h>

#include <cstddef>
#include <vector>

#include "nccl_check.hpp"

namespace stepwise::multigpu {

/// One NCCL communicator per GPU of devices 0 ... G - 1, rank g on device g.
class Communicators {
 public:
  /// Creates the communicators of the first @p gpus devices (every NCCL call checked).
  explicit Communicators(int gpus) : comms_(static_cast<std::size_t>(gpus)) {
    std::vector<int> devices(static_cast<std::size_t>(gpus));
    for (int g = 0; g < gpus; ++g) devices[static_cast<std::size_t>(g)] = g;
    STEPWISE_NCCL_CHECK(ncclCommInitAll(comms_.data(), gpus, devices.data()));
  }
  ~Communicators() {
    for (ncclComm_t comm : comms_) ncclCommDestroy(comm);  // never throws from a destructor
  }
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;

  /// Communicator g belongs to device g.
  const std::vector<ncclComm_t>& comms() const { return comms_; }

 private:
  std::vector<ncclComm_t> comms_;
};

}  // namespace stepwise::multigpu
