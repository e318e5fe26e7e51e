/// @file 01_ring_schedule.hpp
/// Exercise 11-1 (README.md): the ring all-reduce's schedule, which chunk each GPU receives and sends at each
/// step, as ring.hpp's ring_step computes it for the kernels of stages 3 and 4.
#pragma once

#include "ring.hpp"

namespace stepwise::multigpu::exercises {

/// Your function: what GPU @p gpu of a ring of @p gpus does at step @p step (0 <= step < 2 (gpus - 1)): whether
/// the step reduces (the G - 1 steps of the reduce-scatter) or copies (the G - 1 of the all-gather), the chunk
/// it receives from its left neighbour (gpu - 1 mod G) and the chunk it sends to its right one (gpu + 1 mod G).
/// At reduce-scatter step 0 every GPU sends its own chunk (chunk gpu); after the reduce-scatter GPU g holds the
/// whole sum of chunk g + 1 mod G, which it sends first in the all-gather.
RingStep predicted_ring_step(int gpu, int gpus, int step);

}  // namespace stepwise::multigpu::exercises
