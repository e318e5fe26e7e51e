/// @file warp_aggregate.cuh
/// Warp aggregation on the device: fewer atomic operations by voting and shuffling.
///
/// - warp_ticket(): the warp-aggregated counter (stream compaction's "where does my value
///   go"): one atomicAdd per warp instead of one per lane.
/// - peers_by_ballot_loop(), peers_by_match(), peers_by_bit_ballots() and peers_by_bit_votes():
///   the lanes of the warp that share this lane's key, by the talk's ballot loop, by
///   `__match_any_sync` (sm_70 and later) or by one ballot per bit of a short key (in C++, or in
///   PTX that compiles to fewer instructions).
/// - subtree_reduce(): each group of peers reduced into its lowest lane by shuffles, all
///   groups in parallel, so that one lane per distinct key does the atomic.
///
/// The lane arithmetic is in warp_aggregate.hpp (host and device), where the CPU tests replay
/// it. Every function here is warp-synchronous: the lanes named by its mask (the full warp
/// unless said otherwise) must call it together. On Volta and later, lanes are scheduled
/// independently, so the masks are exact and no lane may leave early (a partial last warp
/// takes part with `active = false`).
#pragma once

#include <cstdint>

#include "algorithm/warp_aggregate.hpp"
#include "device/warp.cuh"

namespace stepwise {

/// This thread's lane in its warp (blockDim.x must be a multiple of 32).
__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x % kWarpLanes); }

/// The warp-aggregated ticket: every lane with @p keep set gets a distinct slot of the
/// counter, with one atomic for the warp.
///
/// The keeping lanes vote (`__ballot_sync`), the lowest of them adds their count
/// (`__popc`) to @p counter, the base it got back is broadcast (`__shfl_sync`) and each lane
/// adds its rank among the voters. The slots of one warp are consecutive and in lane order;
/// the warps' order is the atomics' order. All 32 lanes must call it (with keep = false for
/// lanes that have nothing).
/// @return the lane's slot, or -1 when @p keep is false
template <class Counter>
__device__ __forceinline__ std::int64_t warp_ticket(Counter* counter, bool keep) {
  const std::uint32_t voters = __ballot_sync(kFullWarp, keep);
  if (voters == 0) return -1;
  const int lane = lane_id();
  const int leader = leader_of(voters);
  Counter base = 0;
  if (lane == leader) base = atomicAdd(counter, static_cast<Counter>(popcount32(voters)));
  base = shuffle_index(base, leader);
  return keep ? static_cast<std::int64_t>(base) + ticket_rank(voters, lane) : -1;
}

/// The talk's stage 1, Volta-safe: the lanes of @p lanes whose key equals this lane's.
///
/// While lanes are unassigned, the lowest unassigned lane's key is broadcast and the lanes
/// holding it vote; those leave the loop with the ballot as their peer mask. The talk's code
/// used `__shfl` and `__ballot` over the whole warp while lanes were leaving the loop; here
/// the mask of every call is the set of lanes still in the loop (`unassigned`, which every
/// one of them holds), so no intrinsic waits for a lane that has left. Iterations: the number
/// of distinct keys. The calling lane must be in @p lanes, and all lanes of @p lanes call.
template <class Key>
__device__ __forceinline__ std::uint32_t peers_by_ballot_loop(Key key, std::uint32_t lanes) {
  std::uint32_t unassigned = lanes;
  for (;;) {
    const Key leader_key = __shfl_sync(unassigned, key, leader_of(unassigned));
    const std::uint32_t peers = __ballot_sync(unassigned, key == leader_key);
    if (key == leader_key) return peers;
    unassigned ^= peers;
  }
}

/// The same peer mask in one instruction: `__match_any_sync(lanes, key)` (sm_70 and later;
/// 4- and 8-byte keys). All lanes of @p lanes call.
template <class Key>
__device__ __forceinline__ std::uint32_t peers_by_match(Key key, std::uint32_t lanes) {
  return __match_any_sync(lanes, key);
}

/// The same peer mask for a key of @p kBits bits (its low bits), from one ballot per bit: the
/// lanes whose bit b equals this lane's are the ballot of bit b, or its complement where this
/// lane's bit is 0, and the peers are those masks ANDed over the bits. For few bits (a radix
/// sort's 8-bit digit) these kBits votes issue faster than one `__match_any_sync`, which the
/// hardware runs as a long multi-cycle instruction. All 32 lanes call.
template <int kBits>
__device__ __forceinline__ std::uint32_t peers_by_bit_ballots(std::uint32_t key) {
  static_assert(kBits >= 1 && kBits <= 32, "a key of 1 to 32 bits");
  std::uint32_t peers = kFullWarp;
#pragma unroll
  for (int b = 0; b < kBits; ++b) {
    const bool set = (key >> b) & 1u;
    const std::uint32_t same = __ballot_sync(kFullWarp, set);
    peers &= set ? same : ~same;
  }
  return peers;
}

/// The same peer mask as peers_by_bit_ballots(), each vote written in PTX as
/// cub::BlockRadixRankMatchEarlyCounts writes it: test the bit into a predicate, vote on the
/// predicate, complement the ballot under the negated predicate (`@!p not`). The compiler then
/// turns the bit tests of a whole digit into one register-to-predicates move (R2P) and each bit
/// costs three instructions (vote, conditional not, and); the C++ form above computes each bit
/// twice, once as a predicate for the vote and once as an all-ones-or-zero mask for the
/// complement, about twice the instructions per key (count them with `cuobjdump -sass`). All 32
/// lanes call.
template <int kBits>
__device__ __forceinline__ std::uint32_t peers_by_bit_votes(std::uint32_t key) {
  static_assert(kBits >= 1 && kBits <= 32, "a key of 1 to 32 bits");
  std::uint32_t peers = kFullWarp;
#pragma unroll
  for (int b = 0; b < kBits; ++b) {
    std::uint32_t same = 0;
    asm("{\n"
        "  .reg .pred p;\n"
        "  and.b32 %0, %1, %2;\n"
        "  setp.ne.u32 p, %0, 0;\n"
        "  vote.sync.ballot.b32 %0, p, 0xffffffff;\n"
        "  @!p not.b32 %0, %0;\n"
        "}"
        : "=r"(same)
        : "r"(key), "r"(1u << b));
    peers &= same;
  }
  return peers;
}

/// The talk's stage 2: reduces @p value over each group of peers into the group's lowest lane
/// (leader_of(peers)), every group at once, in ceil(log2(largest group)) rounds of one shuffle
/// and one ballot (SubtreeLane has the schedule). The other lanes return partial sums.
/// @p peers is this lane's peer mask (from peers_by_match or peers_by_ballot_loop over the
/// full warp). All 32 lanes call, with their own peer masks.
/// @param peers this lane's peer mask
/// @param value this lane's value
/// @param add the reduction, `add(lower lane's value, higher lane's value)`; it need not commute
template <class T, class Add>
__device__ __forceinline__ T subtree_reduce(std::uint32_t peers, T value, Add add) {
  const int lane = lane_id();
  SubtreeLane state = SubtreeLane::start(peers, lane);
  while (__any_sync(kFullWarp, state.remaining != 0)) {
    const int source = state.source();
    // Every lane shuffles, also those with nothing to add: a shuffle reads only lanes that take part.
    const T other = shuffle_index(value, source < 0 ? lane : source);
    if (source >= 0) value = add(value, other);
    state.advance(__ballot_sync(kFullWarp, state.done()));
  }
  return value;
}

}  // namespace stepwise
