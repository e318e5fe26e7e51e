/// @file sort_plan.hpp
/// The host side of the distributed sample sort: the exchange plan built from the G x G bucket
/// counts (where each bucket starts in its sender's sorted part and in its receiver's buffer),
/// the load balance it gives, the bytes each GPU sends and receives in each phase (--analyze),
/// and the whole sort replayed on the CPU with sample_sort.hpp's arithmetic (the CPU tests).
/// No CUDA header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace stepwise::multigpu {

/// Who sends how many keys to whom, and where each run lies.
struct ExchangePlan {
  int gpus = 0;
  /// counts[g * gpus + d]: the keys GPU g sends to GPU d (its bucket d).
  std::vector<std::uint64_t> counts;
  /// send_offsets[g * gpus + d]: where bucket d starts in GPU g's sorted part.
  std::vector<std::uint64_t> send_offsets;
  /// recv_offsets[d * gpus + g]: where GPU g's run starts in GPU d's receive buffer (runs in
  /// sender order, so that GPU d's merged buffer is its slice of the sorted output).
  std::vector<std::uint64_t> recv_offsets;
  /// recv_totals[d]: the keys GPU d receives, its share of the output.
  std::vector<std::uint64_t> recv_totals;
};

/// The plan for @p counts (gpus x gpus, row g = what GPU g sends).
/// @throws std::invalid_argument if counts has not gpus * gpus entries or gpus is not in [1, kMaxGpus].
ExchangePlan make_exchange_plan(const std::vector<std::uint64_t>& counts, int gpus);

/// The bucket load balance: the largest GPU's share over the mean share (1 is perfect; gpus is
/// one GPU receiving everything). 1 when nothing is sorted.
double load_balance(const ExchangePlan& plan);

/// The first output position GPU @p d holds: the keys of every GPU before it.
std::uint64_t output_begin(const ExchangePlan& plan, int d);

/// What the sample sort does on the CPU, the same arithmetic as the kernels: each part sorted,
/// its samples drawn, the splitters chosen, each part's buckets counted by binary search, the
/// exchange planned and each GPU's runs merged.
struct SortReplay {
  /// sorted_parts[g]: GPU g's part after its local sort (replay_sample_sort only; its buckets are
  /// the runs plan.send_offsets cuts).
  std::vector<std::vector<std::uint32_t>> sorted_parts;
  /// The G x s sample slots every GPU gathers, GPU g's at [g s, (g + 1) s), kNoSample for an empty part.
  std::vector<std::uint64_t> samples;
  std::vector<std::uint64_t> splitters;
  ExchangePlan plan;
  /// outputs[d]: what GPU d holds at the end.
  std::vector<std::vector<std::uint32_t>> outputs;
};

/// The G - 1 splitters of the gathered samples @p samples (each GPU's s slots, those of a GPU with
/// an empty part holding kNoSample): sorted (kNoSample last), then splitter j is the valid sample
/// at splitter_rank(j). Empty when no slot holds a sample (n = 0): every bucket is then empty.
std::vector<std::uint64_t> choose_splitters(std::vector<std::uint64_t> samples, int gpus);

/// Replays the sample sort of @p keys over @p gpus GPUs with @p samples samples per GPU.
SortReplay replay_sample_sort(const std::vector<std::uint32_t>& keys, int gpus, int samples);

/// Replays the partition-first sort (stage 2) of @p keys over @p gpus GPUs with @p samples
/// samples per GPU: each unsorted part's kLocalSamples stratified samples sorted, s regular ones
/// of them gathered, the splitters chosen as in replay_sample_sort, every key counted into
/// bucket_of's bucket, and each GPU's keys sorted.
SortReplay replay_partition_sort(const std::vector<std::uint32_t>& keys, int gpus, int samples);

/// The bytes one GPU sends and receives in one phase.
struct PhaseBytes {
  std::string phase;
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
};

/// The bytes GPU @p g of @p gpus sends and receives in each phase of the distributed scan of
/// @p n values of @p value_bytes: one total out, gpus - 1 in (the AllGather); the data itself
/// stays on its GPU.
std::vector<PhaseBytes> scan_traffic(std::size_t n, std::size_t value_bytes, int gpus, int g);

/// The bytes GPU @p g sends and receives in each phase of the sample sort of @p n uint32 keys with
/// @p samples samples per GPU: the samples' AllGather (8 bytes a sample), the counts' AllGather
/// (8 bytes a count), every GPU sending its slots also when its part is empty, and the buckets' exchange, there for
/// keys spread evenly (each GPU keeps 1/gpus of its part and sends the rest, receiving as much); a skewed input moves
/// up to all of a part.
std::vector<PhaseBytes> sort_traffic(std::size_t n, int gpus, int samples, int g);

}  // namespace stepwise::multigpu
