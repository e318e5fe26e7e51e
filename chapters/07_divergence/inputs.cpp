#include "inputs.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "host/data.hpp"
#include "host/parallel.hpp"

namespace stepwise::divergence {
namespace {

/// Elements per chunk of the parallel host loops (a multiple of the warp).
constexpr std::size_t kInputChunk = std::size_t{1} << 16;

/// A 64-bit hash of (seed, stream, index): element i of a stream depends on nothing else.
std::uint64_t hash(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return splitmix64(splitmix64(seed ^ (stream * 0xD1B54A32D192ED03ull)) ^ index);
}

/// A uniform double in [0, 1) from a hash.
double uniform(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1p-53; }

}  // namespace

unsigned default_rounds(unsigned p) { return 64u << std::min(p, 3u); }

Synthetic synthetic_work(const Plan& plan) {
  Synthetic work;
  work.paths = plan.paths;
  for (unsigned p = 0; p < kMaxPaths; ++p)
    work.rounds[p] = p < plan.rounds.size() ? plan.rounds[p] : (p < plan.paths ? default_rounds(p) : 0u);
  return work;
}

Mutation mutation_work(const Plan& plan, std::uint64_t seed) {
  Mutation work;
  work.rounds[1] = plan.mutation_rounds;
  const double threshold = plan.mutation_rate * 4294967296.0;
  work.threshold = threshold >= 4294967295.0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(threshold);
  work.seed = splitmix64(seed ^ 0xA5A5A5A5ull);
  return work;
}

std::vector<std::uint32_t> synthetic_input(std::size_t n, unsigned paths, double divergence, std::uint64_t seed) {
  if (paths < 1 || paths > kMaxPaths) throw std::invalid_argument("synthetic_input: paths must be 1 to 8");
  std::vector<std::uint32_t> input(n);
  for_each_range(n, kInputChunk, [&](std::size_t begin, std::size_t end) {
    for (std::size_t warp_begin = begin; warp_begin < end; warp_begin += kWarp) {
      const std::size_t warp = warp_begin / kWarp;
      const bool mixed = uniform(hash(seed, 1, warp)) < divergence;
      const auto warp_path = static_cast<std::uint32_t>(hash(seed, 2, warp) % paths);
      for (std::size_t i = warp_begin; i < std::min(end, warp_begin + kWarp); ++i) {
        const auto path = mixed ? static_cast<std::uint32_t>(hash(seed, 3, i) % paths) : warp_path;
        input[i] = (static_cast<std::uint32_t>(hash(seed, 4, i)) & ~Synthetic::kPathMask) | path;
      }
    }
  });
  return input;
}

std::vector<Genome> random_population(std::size_t n, std::uint64_t seed) {
  std::vector<Genome> population(n);
  for_each_range(n, kInputChunk, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t low = hash(seed, 5, i), high = hash(seed, 6, i);
      population[i] = {{static_cast<std::uint32_t>(low), static_cast<std::uint32_t>(low >> 32),
                        static_cast<std::uint32_t>(high), static_cast<std::uint32_t>(high >> 32)}};
    }
  });
  return population;
}

template <class W>
std::vector<typename W::Item> run_reference(const W& work, const std::vector<typename W::Item>& input, unsigned steps) {
  std::vector<typename W::Item> current = input;
  for (unsigned step = 0; step < steps; ++step) {
    for_each_range(current.size(), kInputChunk, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        current[i] = work.apply(current[i], work.path(current[i], i, step), i, step);
    });
  }
  return current;
}

template <class W>
std::vector<std::uint8_t> paths_of(const W& work, const std::vector<typename W::Item>& input, unsigned step) {
  std::vector<std::uint8_t> paths(input.size());
  for_each_range(input.size(), kInputChunk, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) paths[i] = static_cast<std::uint8_t>(work.path(input[i], i, step));
  });
  return paths;
}

template <class W>
void order_on_host(const W& work, std::size_t n, unsigned step, std::uint32_t* order) {
  static_assert(!W::kPathReadsItem, "order_on_host computes paths without the elements");
  const std::size_t chunks = (n + kInputChunk - 1) / kInputChunk;
  std::vector<std::size_t> counts(chunks * kMaxPaths, 0);
  const auto path = [&](std::size_t i) { return work.path(typename W::Item{}, i, step); };
  for_each_range(n, kInputChunk, [&](std::size_t begin, std::size_t end) {
    std::size_t* count = &counts[begin / kInputChunk * kMaxPaths];
    for (std::size_t i = begin; i < end; ++i) ++count[path(i)];
  });
  std::size_t offset = 0;  // counts become offsets: path by path, chunk by chunk within a path
  for (unsigned p = 0; p < kMaxPaths; ++p)
    for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
      const std::size_t count = counts[chunk * kMaxPaths + p];
      counts[chunk * kMaxPaths + p] = offset;
      offset += count;
    }
  for_each_range(n, kInputChunk, [&](std::size_t begin, std::size_t end) {
    std::size_t* next = &counts[begin / kInputChunk * kMaxPaths];
    for (std::size_t i = begin; i < end; ++i) order[next[path(i)]++] = static_cast<std::uint32_t>(i);
  });
}

std::ostream& operator<<(std::ostream& out, const Genome& genome) {
  char text[48];
  std::snprintf(text, sizeof text, "%08x %08x %08x %08x", genome.word[0], genome.word[1], genome.word[2],
                genome.word[3]);
  return out << text;
}

WarpCost warp_cost(const std::vector<std::uint8_t>& paths, const std::vector<std::uint32_t>& order,
                   const unsigned* rounds) {
  const std::size_t count = order.empty() ? paths.size() : order.size();
  WarpCost cost;
  for (std::size_t begin = 0; begin < count; begin += kWarp) {
    unsigned present = 0, longest = 0;
    for (std::size_t t = begin; t < std::min(count, begin + kWarp); ++t) {
      const unsigned p = paths[order.empty() ? t : order[t]];
      present |= 1u << p;
      longest = std::max(longest, rounds[p]);
      cost.lane_rounds += rounds[p];
    }
    ++cost.warps;
    if ((present & (present - 1)) != 0) ++cost.divergent_warps;
    for (unsigned p = 0; p < kMaxPaths; ++p)
      if ((present >> p) & 1u) cost.branch_rounds += rounds[p];
    cost.loop_rounds += longest;
  }
  return cost;
}

WarpCost lean_cost(const std::vector<std::uint8_t>& paths, unsigned costliest, const unsigned* rounds,
                   std::size_t* listed_elsewhere) {
  const std::size_t n = paths.size();
  std::vector<std::uint32_t> listed;
  for (std::size_t i = 0; i < n; ++i)
    if (paths[i] == costliest) listed.push_back(static_cast<std::uint32_t>(i));
  const std::size_t listed_from = n - listed.size();
  std::size_t elsewhere = 0;
  for (std::size_t j = 0; j < listed.size(); ++j) elsewhere += listed[j] != listed_from + j ? 1 : 0;
  if (listed_elsewhere != nullptr) *listed_elsewhere = elsewhere;
  WarpCost cost;
  for (std::size_t begin = 0; begin < n; begin += kWarp) {
    const std::size_t end = std::min(n, begin + kWarp);
    unsigned present = 0, longest = 0;
    for (std::size_t t = begin; t < end; ++t) {
      if (paths[t] == costliest) continue;
      present |= 1u << paths[t];
      longest = std::max(longest, rounds[paths[t]]);
      cost.lane_rounds += rounds[paths[t]];
    }
    const std::size_t listed_lanes = end > listed_from ? end - std::max(begin, listed_from) : 0;
    cost.lane_rounds += static_cast<double>(listed_lanes) * rounds[costliest];
    const double issued = longest + (listed_lanes != 0 ? rounds[costliest] : 0u);
    ++cost.warps;
    if ((present & (present - 1)) != 0) ++cost.divergent_warps;
    cost.loop_rounds += issued;
    cost.branch_rounds += issued;
  }
  return cost;
}

namespace {

/// Whether warp @p warp of @p paths holds more than one path (a short last warp: those it has).
bool warp_is_divergent(const std::vector<std::uint8_t>& paths, std::size_t warp) {
  const std::size_t begin = warp * kWarp, end = std::min(paths.size(), begin + kWarp);
  for (std::size_t i = begin + 1; i < end; ++i)
    if (paths[i] != paths[begin]) return true;
  return false;
}

/// @p indices stably sorted by their paths (a counting sort over the few path values).
std::vector<std::uint32_t> stable_by_path(const std::vector<std::uint8_t>& paths,
                                          const std::vector<std::uint32_t>& indices) {
  std::size_t start[kMaxPaths + 1] = {};
  for (std::uint32_t i : indices) ++start[paths[i] + 1];
  for (unsigned p = 0; p < kMaxPaths; ++p) start[p + 1] += start[p];
  std::vector<std::uint32_t> sorted(indices.size());
  for (std::uint32_t i : indices) sorted[start[paths[i]]++] = i;
  return sorted;
}

}  // namespace

std::vector<std::uint32_t> order_by_path(const std::vector<std::uint8_t>& paths) {
  std::vector<std::uint32_t> all(paths.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint32_t>(i);
  return stable_by_path(paths, all);
}

std::vector<std::uint32_t> order_by_slot(const std::vector<std::uint8_t>& paths, const PathSlots& slots) {
  std::vector<std::uint8_t> slot_of(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) slot_of[i] = static_cast<std::uint8_t>(slots.of(paths[i]));
  return order_by_path(slot_of);
}

std::vector<std::uint32_t> partial_moves(const std::vector<std::uint8_t>& paths) {
  std::vector<std::uint32_t> moved;
  for (std::size_t warp = 0; warp * kWarp < paths.size(); ++warp)
    if (warp_is_divergent(paths, warp))
      for (std::size_t i = warp * kWarp; i < std::min(paths.size(), (warp + 1) * kWarp); ++i)
        moved.push_back(static_cast<std::uint32_t>(i));
  return stable_by_path(paths, moved);
}

std::vector<std::uint32_t> partial_order(const std::vector<std::uint8_t>& paths) {
  std::vector<std::uint32_t> order;
  for (std::size_t warp = 0; warp * kWarp < paths.size(); ++warp)
    if (!warp_is_divergent(paths, warp))
      for (std::size_t i = warp * kWarp; i < std::min(paths.size(), (warp + 1) * kWarp); ++i)
        order.push_back(static_cast<std::uint32_t>(i));
  const std::vector<std::uint32_t> moved = partial_moves(paths);
  order.insert(order.end(), moved.begin(), moved.end());
  return order;
}

Sample sample_warps(const std::vector<std::uint8_t>& paths, const unsigned* rounds) {
  constexpr std::size_t kSampledWarps = 2048;  // as stages/08_controlled.cu
  const std::size_t chunks = (paths.size() + kWarp - 1) / kWarp;
  const std::size_t stride = chunks > kSampledWarps ? chunks / kSampledWarps : 1;
  Sample sample;
  for (std::size_t chunk = 0; chunk < chunks; chunk += stride) {
    unsigned longest = 0, total = 0;
    for (std::size_t i = chunk * kWarp; i < std::min(paths.size(), (chunk + 1) * kWarp); ++i) {
      longest = std::max(longest, rounds[paths[i]]);
      total += rounds[paths[i]];
    }
    sample.sum_max += longest;
    sample.sum_mean += static_cast<double>(total) / kWarp;
    sample.warps += 1;
  }
  return sample;
}

template std::vector<std::uint32_t> run_reference<Synthetic>(const Synthetic&, const std::vector<std::uint32_t>&,
                                                             unsigned);
template std::vector<Genome> run_reference<Mutation>(const Mutation&, const std::vector<Genome>&, unsigned);
template std::vector<std::uint8_t> paths_of<Synthetic>(const Synthetic&, const std::vector<std::uint32_t>&, unsigned);
template std::vector<std::uint8_t> paths_of<Mutation>(const Mutation&, const std::vector<Genome>&, unsigned);
template void order_on_host<Mutation>(const Mutation&, std::size_t, unsigned, std::uint32_t*);

}  // namespace stepwise::divergence
