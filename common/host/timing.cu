// The two kernels of the timer: the read flush and the stream hold (see timing.hpp).
#include <cstdint>

#include "host/timing.hpp"

namespace stepwise::detail {
namespace {

/// Loads every 16-byte word once. The XOR of the words is stored only if it equals a value it
/// never has for the timer's constant buffer contents, so the loads cannot be optimized away
/// and nothing is written.
__global__ void read_flush(const uint4* __restrict__ words, std::size_t count, unsigned* sink) {
  unsigned folded = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint4 word = words[i];
    folded ^= word.x ^ word.y ^ word.z ^ word.w ^ static_cast<unsigned>(i);
  }
  if (folded == 0x9E3779B9u) *sink = folded;
}

__device__ unsigned long long global_timer_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void hold(const volatile int* release, int* timed_out, unsigned long long timeout_ns) {
  const unsigned long long start = global_timer_ns();
  while (*release == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      *timed_out = 1;
      return;
    }
    __nanosleep(1000);
  }
}

}  // namespace

void enqueue_read_flush(const unsigned char* scratch, std::size_t bytes, unsigned* sink, cudaStream_t stream) {
  const std::size_t words = bytes / sizeof(uint4);
  read_flush<<<1024, 256, 0, stream>>>(reinterpret_cast<const uint4*>(scratch), words, sink);
  STEPWISE_CHECK_LAUNCH();
}

void enqueue_hold(const volatile int* release, int* timed_out, unsigned long long timeout_ns, cudaStream_t stream) {
  hold<<<1, 1, 0, stream>>>(release, timed_out, timeout_ns);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::detail
