/// @file 02_traffic.hpp
/// Exercise 11-2 (README.md): the bytes each GPU moves and the steps each stage of the all-reduce takes, the
/// bus-bandwidth factor, and the alpha-beta time of a size, as model.hpp computes them for --analyze.
#pragma once

#include "model.hpp"

namespace stepwise::multigpu::exercises {

/// Your function: what the busiest GPU sends and receives, and the transfers that follow each other, in one
/// all-reduce of @p bytes per GPU on @p gpus GPUs by @p traffic (@p slices: the pipelined ring's slices per chunk,
/// at least 1). The stages: host-staged (its buffer down to the host, the sum back: 2 steps, on any G),
/// through GPU 0 (GPU 0 receives G - 1 buffers and sends the sum back to each: 2 steps), the ring and NCCL
/// (modelled as a ring: 2 (G - 1) steps of one chunk of bytes / G each way), the pipelined ring (the ring's bytes;
/// its last slice leaves slices - 1 steps late). On one GPU nothing travels, except through the host.
TrafficCount predicted_traffic(Traffic traffic, double bytes, int gpus, int slices);

/// Your function: nccl-tests' bus-bandwidth factor of an all-reduce on @p gpus GPUs (busbw = algbw x factor).
double predicted_bus_factor(int gpus);

/// Your function: the alpha-beta time in seconds of @p count: alpha per step that follows another, plus the
/// larger of the bytes sent and received at @p beta_bytes_per_s (no bandwidth term when beta is 0).
double predicted_seconds_of(const TrafficCount& count, double alpha_s, double beta_bytes_per_s);

}  // namespace stepwise::multigpu::exercises
