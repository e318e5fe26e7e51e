/// @file tree_layout.hpp
/// Where Blelloch's tree (stages 2 and 3) keeps its nodes: the index maps the kernel calls,
/// written once (STEPWISE_HD) so that the bank analysis (bank_conflicts.hpp) replays them on the CPU.
///
/// A block of NT threads scans 2*NT items in place. At the level of stride s (1, 2, 4, ... in
/// the up-sweep, back down in the down-sweep), thread t < active combines the nodes
/// left_child(s, t) = s*(2t+1) - 1 and right_child(s, t) = s*(2t+2) - 1. Consecutive threads
/// are 2s items apart, so in shared memory a warp's 32 accesses of one level share banks: at
/// s = 8 and 16 one bank serves 16 different words (16-way). Stage 3 stores item i at
/// padded_slot(i) = i + i/32 instead (GPU Gems 3, chapter 39, CONFLICT_FREE_OFFSET(n) =
/// n >> LOG_NUM_BANKS): one word of padding after every 32 items shifts each row of 32 by one
/// bank, and every level becomes conflict-free. (The chapter's other variant adds n >> (2 *
/// LOG_NUM_BANKS) as well; for the 512 items of this tree that term is 0.)
#pragma once

#include "algorithm/hd.hpp"

namespace stepwise::scan::tree {

/// Threads per block of stages 2 and 3; each block scans 2 * kThreads items.
inline constexpr int kThreads = 256;
/// log2 of the 32 banks.
inline constexpr int kLogBanks = 5;

/// The node thread @p t writes at the level of stride @p stride: the root of its subtree.
STEPWISE_HD constexpr int right_child(int stride, int t) { return stride * (2 * t + 2) - 1; }

/// The node thread @p t reads beside it: the root of the subtree on its left.
STEPWISE_HD constexpr int left_child(int stride, int t) { return stride * (2 * t + 1) - 1; }

/// Where node (item) @p i lives in shared memory: one padding word after every 32 items when
/// @p padded (CONFLICT_FREE_OFFSET), else at i.
STEPWISE_HD constexpr int node_slot(int i, bool padded) { return padded ? i + (i >> kLogBanks) : i; }

/// The shared-memory words a tree of @p items nodes takes.
STEPWISE_HD constexpr int tree_words(int items, bool padded) { return node_slot(items - 1, padded) + 1; }

}  // namespace stepwise::scan::tree
