/// @file workload.hpp
/// The chapter's two workloads, written once for the kernels, the CPU reference and --analyze.
///
/// Both have the same shape: each element has a *path* (which branch it takes, a small integer
/// computed from the element and the step), and a path costs a number of *rounds* of a mixer
/// that belongs to it. A warp whose elements take different paths runs those paths one after
/// another (SIMT); that is the divergence this chapter measures and removes.
/// - **synthetic**: a uint32 per element whose low three bits name its path (K <= 8 paths);
///   path p runs rounds[p] rounds of its own mixer and keeps the path bits. One step.
/// - **mutation** (a genetic algorithm's mutation step, as in GAFORT): a 128-bit genome per
///   individual; in generation s, individual i mutates when its random draw hash(seed, s, i)
///   falls below the mutation rate, and a mutation flips `rounds[1]` pseudo-random bits one
///   after another (path 1); the others age by one round (path 0). The draw depends on the
///   generation and the individual alone, so a generation's paths are known before the
///   previous generation has run: what the pipelined stage exploits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "algorithm/hd.hpp"

namespace stepwise::divergence {

/// The most paths a workload has (the synthetic workload's three path bits).
inline constexpr unsigned kMaxPaths = 8;
/// The elements of a warp: what "divergent" is measured over.
inline constexpr unsigned kWarp = 32;

/// A 32-bit left rotation by @p s (0 to 31). On the GPU a funnel shift: one instruction
/// (SHF.L.W) whether @p s is a constant or a register. Written as two shifts and an or, a
/// rotation by a register amount compiles to three instructions, which made the one-loop
/// stages pay 50 % more per round than the divergent stage's constant rotations.
STEPWISE_HD inline std::uint32_t rotate_left(std::uint32_t x, unsigned s) {
#ifdef __CUDA_ARCH__
  return __funnelshift_l(x, x, s);
#else
  return (x << s) | (x >> ((32u - s) & 31u));
#endif
}

/// @p values[p] for a run-time @p p, as a chain of selects over the kMaxPaths entries. Device
/// code that indexes an array with a run-time value puts the array in local memory (a copy of
/// the kernel's parameters, or of a constant table, on every thread's stack); selects keep it in
/// registers.
STEPWISE_HD inline unsigned entry(const unsigned (&values)[kMaxPaths], unsigned p) {
  unsigned value = values[0];
  for (unsigned k = 1; k < kMaxPaths; ++k) value = p == k ? values[k] : value;
  return value;
}

/// The constants of path p's mixer: odd multipliers, additive constants and rotations that
/// differ per path, so that the paths are different code in the divergent stage.
struct MixerConstants {
  std::uint32_t multiplier, increment;
  unsigned rotation;
};

/// Path p's constants (p < kMaxPaths).
STEPWISE_HD inline MixerConstants mixer_constants(unsigned p) {
  const unsigned multipliers[kMaxPaths] = {0x9E3779B1u, 0x85EBCA77u, 0xC2B2AE3Du, 0x27D4EB2Fu,
                                           0x165667B1u, 0xD3A2646Du, 0xFD7046C5u, 0xB55A4F09u};
  return {entry(multipliers, p), 0x7F4A7C15u + 0x1000193u * p, 5u + 3u * p};
}

/// One round of a mixer: multiply-add, rotate, xor-shift (four integer instructions).
STEPWISE_HD inline std::uint32_t mix_round(std::uint32_t x, const MixerConstants& c) {
  x = x * c.multiplier + c.increment;
  x = rotate_left(x, c.rotation);
  return x ^ (x >> 16);
}

/// @p rounds rounds of path @p P's mixer, with P a compile-time constant: each path its own
/// loop in the divergent stage's switch.
template <unsigned P>
STEPWISE_HD std::uint32_t mix_rounds(std::uint32_t x, unsigned rounds) {
  const MixerConstants c = mixer_constants(P);
  for (unsigned r = 0; r < rounds; ++r) x = mix_round(x, c);
  return x;
}

/// The synthetic workload: K paths, each a number of rounds of its own mixer.
struct Synthetic {
  using Item = std::uint32_t;
  unsigned paths = 4;               ///< K, 1 to 8
  unsigned rounds[kMaxPaths] = {};  ///< rounds of path p
  static constexpr unsigned kPathMask = 7u;
  static constexpr bool kPathReadsItem = true;  ///< the path is in the element's bits

  /// The element's path: its low three bits (the generator keeps them below K).
  STEPWISE_HD unsigned path(Item item, std::size_t, unsigned) const { return item & kPathMask; }

  /// Path @p p's work on @p item, the path bits kept: the same function however it is
  /// compiled (a switch of loops in the divergent stage, one loop in the others).
  STEPWISE_HD Item apply(Item item, unsigned p, std::size_t, unsigned) const {
    const MixerConstants c = mixer_constants(p);
    std::uint32_t x = item;
    const unsigned count = entry(rounds, p);
    for (unsigned r = 0; r < count; ++r) x = mix_round(x, c);
    return (x & ~kPathMask) | p;
  }
};

/// A 128-bit genome.
struct Genome {
  std::uint32_t word[4];
  friend bool operator==(const Genome& a, const Genome& b) {
    return a.word[0] == b.word[0] && a.word[1] == b.word[1] && a.word[2] == b.word[2] && a.word[3] == b.word[3];
  }
};

/// The random draw of individual @p i in generation @p step: 32 bits of a hash of both.
STEPWISE_HD inline std::uint32_t mutation_draw(std::uint64_t seed, unsigned step, std::size_t i) {
  std::uint64_t x = seed ^ (static_cast<std::uint64_t>(step) << 40) ^ static_cast<std::uint64_t>(i);
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>((x ^ (x >> 31)) >> 32);
}

/// One mutation round: draw the next bit position from @p state and flip that bit. The word is
/// chosen by selects, not by an index, so the genome stays in registers.
STEPWISE_HD inline void flip_one_bit(Genome& g, std::uint32_t& state) {
  state = mix_round(state, mixer_constants(1));
  const std::uint32_t bit = 1u << (state & 31u);
  const unsigned word = (state >> 5) & 3u;
  g.word[0] ^= word == 0 ? bit : 0u;
  g.word[1] ^= word == 1 ? bit : 0u;
  g.word[2] ^= word == 2 ? bit : 0u;
  g.word[3] ^= word == 3 ? bit : 0u;
}

/// The mutation workload: path 1 (mutate) with probability rate, path 0 (age) otherwise.
struct Mutation {
  using Item = Genome;
  static constexpr unsigned paths = 2;
  static constexpr bool kPathReadsItem = false;  ///< the path is a random draw, known ahead
  unsigned rounds[kMaxPaths] = {1, 256};         ///< rounds[0]: ageing, rounds[1]: bits a mutation flips
  std::uint32_t threshold = 0;                   ///< draws below it mutate: rate x 2^32 (saturated)
  std::uint64_t seed = 0;

  STEPWISE_HD unsigned path(const Item&, std::size_t i, unsigned step) const {
    return mutation_draw(seed, step, i) < threshold ? 1u : 0u;
  }

  STEPWISE_HD Item apply(Item g, unsigned p, std::size_t i, unsigned step) const {
    std::uint32_t state = mutation_draw(seed ^ 0x5DEECE66Dull, step, i) ^ (p != 0 ? g.word[1] : g.word[0]);
    const unsigned count = p != 0 ? rounds[1] : rounds[0];
    for (unsigned r = 0; r < count; ++r) flip_one_bit(g, state);
    return g;
  }
};

/// Where each path's elements go in a remap's order: the elements of the path with the smallest
/// slot first. The identity gives the order by path (stages 3-6); stage 7 puts the costliest
/// path first (heaviest_first).
struct PathSlots {
  unsigned slot[kMaxPaths] = {0, 1, 2, 3, 4, 5, 6, 7};
  /// Path @p p's slot, for a run-time @p p (selects, not an indexed load).
  STEPWISE_HD unsigned of(unsigned p) const { return entry(slot, p); }
};

/// The slots that put paths 0 to @p paths - 1 in order of decreasing rounds (ties: the smaller
/// path first); the slots of paths past them stay their own.
inline PathSlots heaviest_first(const unsigned (&rounds)[kMaxPaths], unsigned paths) {
  PathSlots slots;
  for (unsigned p = 0; p < paths; ++p) {
    unsigned ahead = 0;  // the paths that go before p: costlier, or as costly and smaller
    for (unsigned q = 0; q < paths; ++q) ahead += rounds[q] > rounds[p] || (rounds[q] == rounds[p] && q < p) ? 1u : 0u;
    slots.slot[p] = ahead;
  }
  return slots;
}

/// The path of paths 0 to @p paths - 1 with the most rounds (ties: the smaller path): the one
/// stage 9 lists.
inline unsigned costliest_path(const unsigned (&rounds)[kMaxPaths], unsigned paths) {
  unsigned best = 0;
  for (unsigned p = 1; p < paths; ++p)
    if (rounds[p] > rounds[best]) best = p;
  return best;
}

/// Stage 8 remaps when its sample predicts at least this many rounds saved per warp of
/// elements (the sample's mean of max-minus-mean rounds per warp). Measured on an H100 with the
/// synthetic workload (2^24 elements, 4 paths of 64-512 rounds): stage 2 costs 0.09 ms plus
/// 3.56 us per round of its warps' longest lanes, and stage 3 costs 0.14 ms more than stage 2 on
/// sorted input, where the remap saves nothing: about 40 rounds per warp.
/// @see controlled_should_remap
inline constexpr double kBreakEvenRounds = 40.0;

/// Stage 8's decision from its sample: @p sum_max is the sum over sampled warps of the most
/// rounds a lane of the warp runs (what the warp costs without a remap), @p sum_mean the sum of
/// their mean rounds (what its elements cost once grouped by path), @p warps how many warps
/// were sampled. Remaps when the predicted saving per warp reaches kBreakEvenRounds.
STEPWISE_HD inline bool controlled_should_remap(double sum_max, double sum_mean, double warps) {
  return warps > 0 && (sum_max - sum_mean) / warps >= kBreakEvenRounds;
}

}  // namespace stepwise::divergence
