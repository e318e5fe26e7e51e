/// @file 01_ballots.hpp
/// Exercise 05-1 (README.md): the trips of stage 2's ballot loop over one warp's keys.
#pragma once

#include <cstdint>
#include <vector>

#include "ops.hpp"

namespace stepwise::atomics::exercises {

/// One trip around the ballot loop.
struct BallotTrip {
  int leader = 0;            ///< the lowest lane still unassigned: the loop broadcasts its key
  std::uint32_t ballot = 0;  ///< the unassigned lanes holding that key (lane l is bit l): its peers
};

/// Your function: the trips of the ballot loop (the talk's stage 1, the chapter's stage 2) over
/// @p keys, lane l holding keys[l] (1 to 32 lanes), in the order the loop takes them. While lanes
/// are unassigned, the lowest of them broadcasts its key, the unassigned lanes vote whether they
/// hold it, and the voters (the ballot) leave with it as their peer mask.
std::vector<BallotTrip> ballot_loop_trips(const std::vector<Key>& keys);

}  // namespace stepwise::atomics::exercises
