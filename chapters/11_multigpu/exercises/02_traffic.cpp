// Exercise 11-2: bytes, steps and the alpha-beta time (README.md, "11-2").
//
// The lesson: every all-reduce must bring each GPU G - 1 other buffers' worth of information and
// send its own out; the ring does it with 2 (G - 1) / G of a buffer each way per GPU, whatever G,
// which is why nccl-tests reports busbw = algbw x 2 (G - 1) / G: a number comparable with a
// link's bandwidth. GPU 0 as the root moves G - 1 buffers each way, a bottleneck that grows with
// G. The time of a size is alpha per step plus bytes / beta: small sizes pay the steps (the ring
// has 2 (G - 1) of them, the root 2), large ones the bytes.
//
// Predict first, by hand: for 1 GiB per GPU on 2, 4 and 8 GPUs, each stage's bytes sent per GPU
// and steps, the busbw factor, and with alpha = 10 us and beta = 100 GB/s the size below which
// GPU 0 as the root beats the ring on 8 GPUs. Then write the three functions. Grade them with
// `ctest --test-dir build -L exercise-11`.
#include "02_traffic.hpp"

#include "host/exercise.hpp"

namespace stepwise::multigpu::exercises {

TrafficCount predicted_traffic([[maybe_unused]] Traffic traffic, [[maybe_unused]] double bytes,
                               [[maybe_unused]] int gpus, [[maybe_unused]] int slices) {
  // TODO: one case per Traffic; one GPU moves nothing but through the host.
  throw NotDoneYet("11-2", "predicted_traffic", __FILE__);
}

double predicted_bus_factor([[maybe_unused]] int gpus) {
  // TODO: the bytes each GPU must send per byte of its buffer.
  throw NotDoneYet("11-2", "predicted_bus_factor", __FILE__);
}

double predicted_seconds_of([[maybe_unused]] const TrafficCount& count, [[maybe_unused]] double alpha_s,
                            [[maybe_unused]] double beta_bytes_per_s) {
  // TODO: steps x alpha + the larger byte count / beta.
  throw NotDoneYet("11-2", "predicted_seconds_of", __FILE__);
}

}  // namespace stepwise::multigpu::exercises
