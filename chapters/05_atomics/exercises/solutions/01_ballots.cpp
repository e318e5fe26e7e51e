// Exercise 05-1, solved: the unassigned lanes start as lanes 0 .. n - 1; each trip's leader is the
// lowest of them, its ballot the unassigned lanes with the leader's key, and those lanes leave.
#include "01_ballots.hpp"

namespace stepwise::atomics::exercises {

std::vector<BallotTrip> ballot_loop_trips(const std::vector<Key>& keys) {
  const int lanes = static_cast<int>(keys.size());
  std::uint32_t unassigned = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
  std::vector<BallotTrip> trips;
  while (unassigned != 0) {
    int leader = 0;
    while ((unassigned & (1u << leader)) == 0) ++leader;
    std::uint32_t ballot = 0;
    for (int lane = 0; lane < lanes; ++lane)
      if ((unassigned & (1u << lane)) != 0 &&
          keys[static_cast<std::size_t>(lane)] == keys[static_cast<std::size_t>(leader)])
        ballot |= 1u << lane;
    trips.push_back({leader, ballot});
    unassigned &= ~ballot;
  }
  return trips;
}

}  // namespace stepwise::atomics::exercises
