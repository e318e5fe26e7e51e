/// @file analysis.hpp
/// Chapter 11's `--analyze --format json`, the document `tools/plot analysis` draws: what the text
/// mode prints (the bytes each GPU sends and receives, the steps, the alpha-beta predictions) and
/// the data of two diagrams, computed with the code the stages run: the ring's steps (ring.hpp's
/// schedule) and a small sample sort's exchange (sort_plan.hpp's replay and exchange plan).
/// Host code only: no kernel is launched and no GPU is needed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chapter.hpp"
#include "host/types.hpp"
#include "sort_plan.hpp"

namespace stepwise::multigpu {

/// The GPUs the diagrams draw when --gpus is not given (the text model's default is 2, the
/// smallest team where anything travels; four show the ring's pattern).
inline constexpr int kDiagramGpus = 4;
/// The most GPUs a diagram draws: the most the chapter runs on (sample_sort.hpp's kMaxGpus; this
/// header leaves sample_sort.hpp out, since ring.hpp's part_begin has the same name).
inline constexpr int kMaxDiagramGpus = 8;
/// The sort's worked example: keys per GPU, samples per GPU, its fixed seed, and its keys' range
/// [0, kExampleLargestKey] (two digits, so that the diagram prints them; equal keys occur).
inline constexpr int kExampleKeysPerGpu = 24;
inline constexpr int kExampleSamples = 4;
inline constexpr std::uint64_t kExampleSeed = 11;
inline constexpr std::int32_t kExampleLargestKey = 99;

/// What one GPU does at one step of the ring (ring_step, ring_left, ring_right).
struct RingMove {
  int gpu = 0;
  int from = 0;            ///< its left neighbour, which it reads
  int receives_chunk = 0;  ///< the chunk it receives
  int to = 0;              ///< its right neighbour, which reads it
  int sends_chunk = 0;     ///< the chunk it sends
};

/// What each GPU holds of each chunk: holds[g][c] lists the GPUs whose inputs are summed in GPU g's
/// copy of chunk c, in increasing order (its own input alone, {g}, before the first step).
using RingHoldings = std::vector<std::vector<std::vector<int>>>;

/// One step of the ring and what every GPU holds after it.
struct RingDiagramStep {
  bool reduce = true;           ///< reduce-scatter (the received partial sum plus its own input) or all-gather (a copy)
  std::vector<RingMove> moves;  ///< one per GPU
  RingHoldings holds;
};

/// The ring all-reduce of stage 3 on a team of GPUs, step by step.
struct RingDiagram {
  int gpus = 0;
  RingHoldings start;                  ///< before the first step
  std::vector<RingDiagramStep> steps;  ///< ring_steps(gpus) of them
  std::vector<int> owned;              ///< ring_owned_chunk: the chunk each GPU completes in the reduce-scatter
};

/// The ring of stage 3 on @p gpus GPUs (1 to kMaxDiagramGpus): every step's moves from ring_step,
/// and the partial sums they leave, step after step (a reduce-scatter step adds the GPU's own input
/// to what its left neighbour held of the chunk before the step; an all-gather step copies it).
/// @throws std::invalid_argument for @p gpus outside [1, kMaxDiagramGpus].
RingDiagram ring_diagram(int gpus);

/// The sample sort's worked example: kExampleKeysPerGpu keys per GPU from kExampleSeed, sorted by
/// replay_sample_sort with kExampleSamples samples per GPU.
struct SortExample {
  int gpus = 0;
  std::vector<std::uint32_t> keys;  ///< all keys, GPU g's part at [part_begin(g), part_begin(g + 1))
  SortReplay replay;
};

/// The worked example on @p gpus GPUs (1 to kMaxDiagramGpus).
/// @throws std::invalid_argument for @p gpus outside [1, kMaxDiagramGpus].
SortExample sort_example(int gpus);

/// `--analyze --format json`: a JSON document ("analysis": "multigpu") with the text mode's rows
/// for @p plan and @p options, and the diagrams' data ("ring", "sort_exchange") for --gpus GPUs
/// (kDiagramGpus when --gpus is not given; null above kMaxDiagramGpus, with a note saying why).
std::string analysis_json(const Plan& plan, const CommonOptions& options);

}  // namespace stepwise::multigpu
