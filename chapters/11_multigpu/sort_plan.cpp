#include "sort_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "sample_sort.hpp"

namespace stepwise::multigpu {

ExchangePlan make_exchange_plan(const std::vector<std::uint64_t>& counts, int gpus) {
  if (gpus < 1 || gpus > kMaxGpus) throw std::invalid_argument("gpus must be in [1, 8], got " + std::to_string(gpus));
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  if (counts.size() != g_count * g_count)
    throw std::invalid_argument("the counts of " + std::to_string(gpus) + " GPUs are " +
                                std::to_string(g_count * g_count) + " numbers, got " + std::to_string(counts.size()));
  ExchangePlan plan;
  plan.gpus = gpus;
  plan.counts = counts;
  plan.send_offsets.assign(g_count * g_count, 0);
  plan.recv_offsets.assign(g_count * g_count, 0);
  plan.recv_totals.assign(g_count, 0);
  for (std::size_t g = 0; g < g_count; ++g) {
    std::uint64_t sent = 0;
    for (std::size_t d = 0; d < g_count; ++d) {
      plan.send_offsets[g * g_count + d] = sent;
      sent += counts[g * g_count + d];
    }
  }
  for (std::size_t d = 0; d < g_count; ++d) {
    std::uint64_t received = 0;
    for (std::size_t g = 0; g < g_count; ++g) {
      plan.recv_offsets[d * g_count + g] = received;
      received += counts[g * g_count + d];
    }
    plan.recv_totals[d] = received;
  }
  return plan;
}

double load_balance(const ExchangePlan& plan) {
  std::uint64_t total = 0;
  std::uint64_t largest = 0;
  for (std::uint64_t share : plan.recv_totals) {
    total += share;
    largest = std::max(largest, share);
  }
  if (total == 0) return 1.0;
  return static_cast<double>(largest) * plan.gpus / static_cast<double>(total);
}

std::uint64_t output_begin(const ExchangePlan& plan, int d) {
  std::uint64_t begin = 0;
  for (int g = 0; g < d; ++g) begin += plan.recv_totals[static_cast<std::size_t>(g)];
  return begin;
}

std::vector<std::uint64_t> choose_splitters(std::vector<std::uint64_t> samples, int gpus) {
  std::vector<std::uint64_t> sorted(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i)
    sorted[sample_sorted_rank(samples.data(), samples.size(), i)] = samples[i];  // the kernel's rank sort
  const std::size_t valid = static_cast<std::size_t>(
      std::count_if(sorted.begin(), sorted.end(), [](std::uint64_t sample) { return sample != kNoSample; }));
  std::vector<std::uint64_t> splitters;
  if (valid == 0) return splitters;
  for (int j = 1; j < gpus; ++j) splitters.push_back(sorted[splitter_rank(j, valid, gpus)]);
  return splitters;
}

SortReplay replay_sample_sort(const std::vector<std::uint32_t>& keys, int gpus, int samples) {
  const std::size_t n = keys.size();
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  std::vector<std::vector<std::uint32_t>> parts(g_count);
  std::vector<std::uint64_t> gathered;
  for (int g = 0; g < gpus; ++g) {
    std::vector<std::uint32_t>& part = parts[static_cast<std::size_t>(g)];
    part.assign(keys.begin() + static_cast<std::ptrdiff_t>(part_begin(n, gpus, g)),
                keys.begin() + static_cast<std::ptrdiff_t>(part_begin(n, gpus, g + 1)));
    std::sort(part.begin(), part.end());
    for (int i = 0; i < samples; ++i) {
      if (part.empty()) {
        gathered.push_back(kNoSample);
        continue;
      }
      const std::size_t position = sample_position(part.size(), samples, i);
      gathered.push_back(pack_sample(part[position], part_begin(n, gpus, g) + position));
    }
  }
  SortReplay replay;
  replay.samples = gathered;
  replay.splitters = choose_splitters(gathered, gpus);
  std::vector<std::uint64_t> counts(g_count * g_count, 0);
  for (int g = 0; g < gpus; ++g) {
    const std::vector<std::uint32_t>& part = parts[static_cast<std::size_t>(g)];
    std::size_t previous = 0;
    for (int d = 0; d < gpus; ++d) {
      const std::size_t boundary = d + 1 < gpus && !replay.splitters.empty()
                                       ? bucket_boundary(part.data(), part.size(), part_begin(n, gpus, g),
                                                         replay.splitters[static_cast<std::size_t>(d)])
                                       : part.size();
      counts[static_cast<std::size_t>(g) * g_count + static_cast<std::size_t>(d)] = boundary - previous;
      previous = boundary;
    }
  }
  replay.plan = make_exchange_plan(counts, gpus);
  replay.outputs.assign(g_count, {});
  for (std::size_t d = 0; d < g_count; ++d) {
    std::vector<std::uint32_t>& output = replay.outputs[d];
    for (std::size_t g = 0; g < g_count; ++g) {
      const auto first = parts[g].begin() + static_cast<std::ptrdiff_t>(replay.plan.send_offsets[g * g_count + d]);
      const std::size_t middle = output.size();
      output.insert(output.end(), first, first + static_cast<std::ptrdiff_t>(counts[g * g_count + d]));
      std::inplace_merge(output.begin(), output.begin() + static_cast<std::ptrdiff_t>(middle), output.end());
    }
  }
  replay.sorted_parts = std::move(parts);
  return replay;
}

SortReplay replay_partition_sort(const std::vector<std::uint32_t>& keys, int gpus, int samples) {
  const std::size_t n = keys.size();
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  std::vector<std::uint64_t> gathered;
  for (int g = 0; g < gpus; ++g) {
    const std::size_t first = part_begin(n, gpus, g);
    const std::size_t count = part_size(n, gpus, g);
    const std::size_t drawn = std::min(count, kLocalSamples);
    std::vector<std::uint64_t> local(drawn);
    for (std::size_t i = 0; i < drawn; ++i) {
      const std::size_t position = stratified_position(count, drawn, i);
      local[i] = pack_sample(keys[first + position], first + position);
    }
    std::sort(local.begin(), local.end());
    for (int i = 0; i < samples; ++i)
      gathered.push_back(drawn == 0 ? kNoSample : local[sample_position(drawn, samples, i)]);
  }
  SortReplay replay;
  replay.samples = gathered;
  replay.splitters = choose_splitters(gathered, gpus);
  const int cuts = static_cast<int>(replay.splitters.size());
  std::vector<std::uint64_t> counts(g_count * g_count, 0);
  replay.outputs.assign(g_count, {});
  for (int g = 0; g < gpus; ++g)
    for (std::size_t i = part_begin(n, gpus, g); i < part_begin(n, gpus, g + 1); ++i) {
      const int d = bucket_of(keys[i], i, replay.splitters.data(), cuts);
      ++counts[static_cast<std::size_t>(g) * g_count + static_cast<std::size_t>(d)];
      replay.outputs[static_cast<std::size_t>(d)].push_back(keys[i]);
    }
  for (std::vector<std::uint32_t>& output : replay.outputs) std::sort(output.begin(), output.end());
  replay.plan = make_exchange_plan(counts, gpus);
  return replay;
}

std::vector<PhaseBytes> scan_traffic(std::size_t n, std::size_t value_bytes, int gpus, int g) {
  (void)n;
  (void)g;
  const std::uint64_t others = static_cast<std::uint64_t>(gpus - 1);
  return {{"totals all-gather", others > 0 ? value_bytes : 0, others * value_bytes}};
}

std::vector<PhaseBytes> sort_traffic(std::size_t n, int gpus, int samples, int g) {
  const std::uint64_t others = static_cast<std::uint64_t>(gpus - 1);
  const std::uint64_t part = part_size(n, gpus, g);
  const std::uint64_t sample_bytes = sizeof(std::uint64_t) * static_cast<std::uint64_t>(samples);
  const std::uint64_t count_bytes = sizeof(std::uint64_t) * static_cast<std::uint64_t>(gpus);
  const std::uint64_t kept = part / static_cast<std::uint64_t>(gpus);
  const std::uint64_t moved = sizeof(std::uint32_t) * (part - kept);
  return {{"samples all-gather", others > 0 ? sample_bytes : 0, others * sample_bytes},
          {"counts all-gather", others > 0 ? count_bytes : 0, others * count_bytes},
          {"bucket exchange (even keys)", moved, moved}};
}

}  // namespace stepwise::multigpu
