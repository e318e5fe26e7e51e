/// @file warp_aggregate.hpp
/// The lane arithmetic of warp aggregation, written once for both sides (STEPWISE_HD): the
/// kernels of common/device/warp_aggregate.cuh call these functions lane by lane, and the CPU tests
/// and the chapters' `--analyze` call them on arrays of 32 keys to replay what a warp does.
///
/// Conventions (those of `__ballot_sync`): a **lane mask** has bit l set for lane l, lane 0
/// in the least significant bit. The slides of Westphal's GTC talk S5151 write masks as binary
/// numbers of 8 lanes, lane 0 on the right: `10010001` is lanes 0, 4 and 7, `0x91`.
///
/// Three pieces:
/// - **the ticket** (warp-aggregated counter, the filter case): the lanes that keep a value
///   vote (`mask`), one lane (the lowest) adds popc(mask) to the counter, and lane l's slot
///   is base + ticket_rank(mask, l);
/// - **peers**: the lanes whose key equals this lane's (`__match_any_sync`, or the talk's
///   ballot loop: ballot_loop() replays it);
/// - **the sub-tree reduction** over a peer mask (the talk's stage 2): every group of peers
///   is reduced in parallel into its lowest lane in ceil(log2(group size)) rounds of one
///   shuffle each (SubtreeLane holds one lane's schedule; subtree_reduce_lanes() replays it).
#pragma once

#include <cstdint>

#include "algorithm/hd.hpp"

namespace stepwise {

/// Lanes in a warp.
inline constexpr int kWarpLanes = 32;

/// The number of set bits of @p mask (`__popc` on the device).
STEPWISE_HD inline int popcount32(std::uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return __popc(mask);
#else
  int count = 0;
  for (; mask != 0; mask &= mask - 1) ++count;
  return count;
#endif
}

/// `__ffs`: 1 + the index of the least significant set bit of @p mask, 0 when no bit is set.
STEPWISE_HD inline int find_first_set(std::uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(mask));
#else
  if (mask == 0) return 0;
  int index = 1;
  while ((mask & 1u) == 0) {
    mask >>= 1;
    ++index;
  }
  return index;
#endif
}

/// The mask of lane @p lane alone (0 <= lane < 32).
STEPWISE_HD inline std::uint32_t lane_bit(int lane) { return 1u << lane; }

/// The lanes below @p lane (`%lanemask_lt`).
STEPWISE_HD inline std::uint32_t lanes_below(int lane) { return lane_bit(lane) - 1u; }

/// The lanes above @p lane (`%lanemask_gt`): the talk's `0xfffffffe << lane`.
STEPWISE_HD inline std::uint32_t lanes_above(int lane) { return 0xfffffffeu << lane; }

/// The lowest lane of a non-empty @p mask: the leader of a group, the lane that does its atomic.
STEPWISE_HD inline int leader_of(std::uint32_t mask) { return find_first_set(mask) - 1; }

/// Lane @p lane's place among the lanes of @p mask: how many of them are below it. For the
/// ticket, its slot after the warp's base; for peers, its rank in its group (the leader is 0).
STEPWISE_HD inline int ticket_rank(std::uint32_t mask, int lane) { return popcount32(mask & lanes_below(lane)); }

/// What `__match_any_sync(lanes, keys[lane])` returns to lane @p lane: the lanes of @p lanes
/// whose key equals keys[lane]. @p keys holds 32 keys, one per lane (those outside @p lanes
/// are not read).
template <class Key>
STEPWISE_HD std::uint32_t peers_of(const Key* keys, std::uint32_t lanes, int lane) {
  std::uint32_t peers = 0;
  for (int other = 0; other < kWarpLanes; ++other)
    if ((lanes & lane_bit(other)) != 0 && keys[other] == keys[lane]) peers |= lane_bit(other);
  return peers;
}

/// The talk's stage 1, replayed for a whole warp: while lanes are unassigned, the lowest
/// unassigned lane's key is broadcast and the lanes holding it vote
/// (`__ballot_sync(key == leader_key)`); that ballot is their peer mask and they leave.
/// @param keys 32 keys, one per lane
/// @param lanes the lanes that take part (a partial last warp has fewer than 32)
/// @param ballots receives the ballots in the order the loop takes them (room for 32), or null
/// @param peers receives each lane's peer mask (32 entries; lanes outside @p lanes get 0), or null
/// @return the number of iterations: the number of distinct keys among @p lanes
template <class Key>
STEPWISE_HD int ballot_loop(const Key* keys, std::uint32_t lanes, std::uint32_t* ballots, std::uint32_t* peers) {
  if (peers != nullptr)
    for (int lane = 0; lane < kWarpLanes; ++lane) peers[lane] = 0;
  int iterations = 0;
  for (std::uint32_t unassigned = lanes; unassigned != 0; ++iterations) {
    const int leader = leader_of(unassigned);
    std::uint32_t ballot = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane)
      if ((unassigned & lane_bit(lane)) != 0 && keys[lane] == keys[leader]) ballot |= lane_bit(lane);
    if (ballots != nullptr) ballots[iterations] = ballot;
    if (peers != nullptr)
      for (int lane = 0; lane < kWarpLanes; ++lane)
        if ((ballot & lane_bit(lane)) != 0) peers[lane] = ballot;
    unassigned ^= ballot;
  }
  return iterations;
}

/// One lane's state in the sub-tree reduction of its peer group (the talk's stage 2).
///
/// The lane starts with the peers above it (`remaining`) and its rank among its peers. Each
/// round, every lane that still has a peer above adds the value of the nearest one
/// (`source()`, one shuffle for the whole warp), then the lanes whose rank is odd are done:
/// the warp ballots them, every lane drops them from `remaining` (advance()), and the ranks
/// halve. After ceil(log2(group size)) rounds the leader (rank 0) holds the group's sum:
/// ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + ...), a binary tree over the group in lane order,
/// whatever lanes the group occupies.
struct SubtreeLane {
  std::uint32_t remaining = 0;  ///< the peers above this lane whose values are still to be added
  std::uint32_t rank = 0;       ///< the rank among the peers, halved each round

  /// The state of lane @p lane with peer mask @p peers (which contains @p lane).
  STEPWISE_HD static SubtreeLane start(std::uint32_t peers, int lane) {
    SubtreeLane state;
    state.remaining = peers & lanes_above(lane);
    state.rank = static_cast<std::uint32_t>(ticket_rank(peers, lane));
    return state;
  }
  /// The lane whose value this lane adds this round, -1 for none.
  STEPWISE_HD int source() const { return leader_of(remaining); }
  /// True when this lane's partial sum has been taken this round: its vote for the ballot.
  STEPWISE_HD bool done() const { return (rank & 1u) != 0; }
  /// The end of a round: @p done_lanes is the ballot of done().
  STEPWISE_HD void advance(std::uint32_t done_lanes) {
    remaining &= ~done_lanes;
    rank >>= 1;
  }
};

/// The sub-tree reduction of a whole warp, replayed round by round exactly as the kernels run
/// it (every lane reads its source's value of the previous round, then all update).
/// @param peers 32 peer masks (lanes that do not take part: 0)
/// @param values 32 values; on return each group's leader holds its group's sum (the other
///   lanes hold partial sums)
/// @param add the reduction, called as add(lower lane's value, higher lane's value)
/// @return the number of rounds: ceil(log2(largest group))
template <class T, class Add>
STEPWISE_HD int subtree_reduce_lanes(const std::uint32_t* peers, T* values, Add add) {
  SubtreeLane lanes[kWarpLanes];
  for (int lane = 0; lane < kWarpLanes; ++lane)
    lanes[lane] = peers[lane] == 0 ? SubtreeLane{} : SubtreeLane::start(peers[lane], lane);
  int rounds = 0;
  for (;;) {
    bool any = false;
    for (int lane = 0; lane < kWarpLanes; ++lane) any = any || lanes[lane].remaining != 0;
    if (!any) return rounds;
    T before[kWarpLanes];
    for (int lane = 0; lane < kWarpLanes; ++lane) before[lane] = values[lane];
    std::uint32_t done_lanes = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const int source = lanes[lane].source();
      if (source >= 0) values[lane] = add(before[lane], before[source]);
      if (lanes[lane].done()) done_lanes |= lane_bit(lane);
    }
    for (int lane = 0; lane < kWarpLanes; ++lane) lanes[lane].advance(done_lanes);
    ++rounds;
  }
}

/// ceil(log2(@p group_size)): the rounds the sub-tree reduction takes for a largest group of
/// that many lanes (0 for a group of 1).
STEPWISE_HD inline int subtree_rounds(int group_size) {
  int rounds = 0;
  while ((1 << rounds) < group_size) ++rounds;
  return rounds;
}

}  // namespace stepwise
