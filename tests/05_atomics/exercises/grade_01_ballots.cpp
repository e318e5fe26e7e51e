// The grader of exercise 05-1 (chapters/05_atomics/exercises/README.md): the student's trips of the
// ballot loop, against the chapter's replay of the loop the kernels run (analysis.hpp's
// replay_ballots, over common/algorithm/warp_aggregate.hpp's ballot_loop).
#include <doctest/doctest.h>

#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>

#include "01_ballots.hpp"
#include "analysis.hpp"
#include "exercise_checks.hpp"
#include "warp_inputs.hpp"

using namespace stepwise;
using atomics::exercises::BallotTrip;
using stepwise::testing::Differences;

namespace {

std::string hex(std::uint32_t mask) {
  std::ostringstream text;
  text << "0x" << std::hex << std::setw(2) << std::setfill('0') << mask;
  return text.str();
}

/// Compares @p yours with the replay of the ballot loop over @p keys.
void compare_trips(Differences& differences, const std::string& name, const std::vector<atomics::Key>& keys,
                   const std::vector<BallotTrip>& yours) {
  const atomics::BallotReplay model = atomics::replay_ballots(keys);
  differences.compare(name + ", the number of trips", yours.size(), model.iterations.size());
  for (std::size_t i = 0; i < yours.size() && i < model.iterations.size(); ++i) {
    const std::string where = name + ", trip " + std::to_string(i + 1);
    differences.compare(where + ", leader", yours[i].leader, model.iterations[i].leader);
    differences.compare(where + ", ballot", hex(yours[i].ballot), hex(model.iterations[i].ballot));
  }
}

}  // namespace

TEST_CASE("exercise 05-1: the talk's example, as --analyze draws it") {
  const std::vector<atomics::Key>& keys = atomics::talk_keys();
  const std::vector<BallotTrip> yours = atomics::exercises::ballot_loop_trips(keys);
  Differences differences;
  differences.compare("the number of trips", yours.size(), std::size_t{3});
  // `chapter_05_atomics --analyze`: "iteration 1: lowest unassigned lane 0 (key 2), ... = 0x91" and so on.
  const BallotTrip printed[] = {{0, 0x91}, {1, 0x26}, {3, 0x48}};
  for (std::size_t i = 0; i < yours.size() && i < 3; ++i) {
    const std::string where = "trip " + std::to_string(i + 1);
    differences.compare(where + ", leader", yours[i].leader, printed[i].leader);
    differences.compare(where + ", ballot", hex(yours[i].ballot), hex(printed[i].ballot));
  }
  compare_trips(differences, "the talk's example, against the replay", keys, yours);
  differences.check();
}

TEST_CASE("exercise 05-1: every warp width, keys from few and from many bins, against the replay") {
  Differences differences;
  for (const atomics::grading::KeysCase& warp : atomics::grading::warp_cases())
    compare_trips(differences, warp.name, warp.keys, atomics::exercises::ballot_loop_trips(warp.keys));
  differences.check();
}

TEST_CASE("exercise 05-1: the trips are the distinct keys, the ballots each lane's peers") {
  Differences differences;
  for (const atomics::grading::KeysCase& warp : atomics::grading::warp_cases()) {
    const std::vector<BallotTrip> yours = atomics::exercises::ballot_loop_trips(warp.keys);
    differences.compare(warp.name + ", trips against the tile's distinct keys", yours.size(),
                        static_cast<std::size_t>(atomics::profile_warps(warp.keys).groups));
    const atomics::BallotReplay model = atomics::replay_ballots(warp.keys);
    for (std::size_t lane = 0; lane < warp.keys.size(); ++lane) {
      std::uint32_t yours_peers = 0;
      for (const BallotTrip& trip : yours)
        if ((trip.ballot >> lane & 1u) != 0) yours_peers |= trip.ballot;
      differences.compare(warp.name + ", lane " + std::to_string(lane) + "'s peers", hex(yours_peers),
                          hex(model.peers[lane]));
    }
  }
  differences.check();
}
