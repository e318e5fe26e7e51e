/// @file ring.hpp
/// The ring all-reduce's schedule, written once for the host and the device: how n elements
/// split into G chunks (any n, n < G included), which chunk each GPU receives and sends at each
/// step of the reduce-scatter and the all-gather, and how a chunk splits into the slices of the
/// pipelined ring. The CPU tests simulate the whole ring with it for G = 1..8.
#pragma once

#include <cstdint>

#include "algorithm/hd.hpp"
#include "parts.hpp"

namespace stepwise::multigpu {

/// The GPU before @p gpu on a ring of @p gpus: the one it receives from.
STEPWISE_HD inline int ring_left(int gpu, int gpus) { return (gpu + gpus - 1) % gpus; }

/// The GPU after @p gpu on a ring of @p gpus: the one it sends to.
STEPWISE_HD inline int ring_right(int gpu, int gpus) { return (gpu + 1) % gpus; }

/// The steps of a ring all-reduce on @p gpus GPUs: G - 1 of reduce-scatter, then G - 1 of all-gather.
STEPWISE_HD inline int ring_steps(int gpus) { return 2 * (gpus - 1); }

/// What one GPU does at one step of the ring.
struct RingStep {
  bool reduce = true;     ///< reduce-scatter (add the received chunk to its own) or all-gather (copy it)
  int receive_chunk = 0;  ///< the chunk it receives from ring_left() at this step
  int send_chunk = 0;     ///< the chunk ring_right() receives from it at this step
};

/// What GPU @p gpu of @p gpus does at step @p step (0 <= step < ring_steps()):
/// - reduce-scatter step s: it receives chunk (g - s - 1) mod G, its left neighbour's partial sum of
///   that chunk, and adds its own input to it; it sends chunk (g - s) mod G;
/// - all-gather step s: it receives chunk (g - s) mod G, complete, and keeps it; it sends (g - s + 1) mod G.
/// After the reduce-scatter GPU g holds the whole sum of chunk (g + 1) mod G (ring_owned_chunk()).
STEPWISE_HD inline RingStep ring_step(int gpu, int gpus, int step) {
  RingStep result;
  result.reduce = step < gpus - 1;
  const int s = result.reduce ? step : step - (gpus - 1);
  const int offset = result.reduce ? 1 : 0;
  result.receive_chunk = ((gpu - s - offset) % gpus + 2 * gpus) % gpus;
  result.send_chunk = ((gpu - s - offset + 1) % gpus + 2 * gpus) % gpus;
  return result;
}

/// The chunk GPU @p gpu holds complete after the reduce-scatter.
STEPWISE_HD inline int ring_owned_chunk(int gpu, int gpus) { return ring_right(gpu, gpus); }

/// The pipelined ring's slices per chunk: enough that each holds at most @p slice_elements
/// (at least 1, at most @p max_slices, never more slices than the chunk has elements).
STEPWISE_HD inline int pipeline_slices(std::uint64_t chunk_elements, std::uint64_t slice_elements, int max_slices) {
  if (chunk_elements == 0 || slice_elements == 0) return 1;
  std::uint64_t slices = (chunk_elements + slice_elements - 1) / slice_elements;
  if (slices > static_cast<std::uint64_t>(max_slices)) slices = static_cast<std::uint64_t>(max_slices);
  return slices < 1 ? 1 : static_cast<int>(slices);
}

}  // namespace stepwise::multigpu
