/// @file 03_balanced_cut.hpp
/// Exercise 10-3 (README.md): where balanced path cuts two sorted multisets, and how many elements a set
/// operation writes, as set_ops.hpp's balanced_cut and std::set_* compute them.
#pragma once

#include <cstdint>
#include <vector>

#include "set_ops.hpp"

namespace stepwise::segmented::exercises {

/// Your function: the balanced cut of the sorted multisets @p a and @p b at output diagonal @p diagonal
/// (0 <= diagonal <= a.size() + b.size()): Merge Path's cut (on equal keys A's copies first), then, if the
/// key x = b[j] at the cut has copies before it, those copies redealt in the balanced order A0 B0 A1 B1 ...
/// (then the longer side's extras), with B's r-th copy taken too when A's r-th copy is before the cut.
Cut<std::int64_t> predicted_cut(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b,
                                std::int64_t diagonal);

/// Your function: how many elements @p op writes for the sorted multisets @p a and @p b (multiset
/// semantics, std::set_*'s: a key held cA times by A and cB times by B gives min, max, max(cA - cB, 0)
/// or |cA - cB| copies).
std::int64_t predicted_output_count(SetOp op, const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b);

}  // namespace stepwise::segmented::exercises
