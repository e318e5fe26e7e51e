// The grader of exercise 02-3 (chapters/02_scan/exercises/README.md): the student's windows of a
// look-back, against the chapter's replay of stage 7's look_back (lookback_replay.hpp's
// replay_look_back, the algorithm of common/device/lookback.cuh with the warp's lanes in arrays), on the
// lecture's diagram and on every tile up to 200 with every last inclusive predecessor.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "03_lookback.hpp"
#include "exercise_checks.hpp"
#include "lookback_replay.hpp"

using namespace stepwise::scan;
using stepwise::testing::Differences;

namespace {

/// The replay of @p tile's look-back when every aggregate is 1 and tiles 0 .. @p last_inclusive have
/// published their inclusive prefix, the others their aggregate.
LookbackReplay model(long long tile, long long last_inclusive) {
  return replay_look_back(tile, [last_inclusive](long long predecessor, int) {
    if (predecessor <= last_inclusive)
      return TileStatus{TileState::inclusive, static_cast<std::int32_t>(predecessor + 1)};
    return TileStatus{TileState::aggregate, 1};
  });
}

void compare(Differences& differences, const std::string& name, const std::vector<exercises::WindowPrediction>& yours,
             const LookbackReplay& model) {
  if (yours.size() != model.windows.size())
    differences.add(name + ": " + std::to_string(yours.size()) + " windows, the look-back has " +
                    std::to_string(model.windows.size()));
  for (std::size_t w = 0; w < yours.size() && w < model.windows.size(); ++w) {
    const LookbackWindow& window = model.windows[w];
    const std::string where = name + ", window " + std::to_string(w + 1);
    differences.compare(where + ", window_end", yours[w].window_end, window.window_end);
    differences.compare(where + ", nearest inclusive lane", yours[w].nearest_inclusive, window.nearest_inclusive);
    differences.compare(where + ", folded lanes", yours[w].folded_lanes, window.folded_lanes);
    differences.compare(where + ", prefix", yours[w].prefix, window.prefix);
  }
}

}  // namespace

TEST_CASE("exercise 02-3: the lecture's diagram, tile 80 with tiles 0-40 inclusive") {
  Differences differences;
  // lookback_example() is the diagram: three tiles publish late, so the warp spins once, but the
  // windows are those of the same statuses without the wait.
  compare(differences, "tile 80, tiles 0-40 inclusive (the diagram)", exercises::predicted_windows(80, 40),
          lookback_example());
  differences.check();
}

TEST_CASE("exercise 02-3: tile 0, nothing published, and a whole window of aggregates") {
  Differences differences;
  for (const auto& [tile, last] : std::vector<std::pair<long long, long long>>{
           {0, -1}, {1, -1}, {1, 0}, {31, -1}, {32, -1}, {33, -1}, {100, -1}, {100, 99}, {100, 68}, {100, 67}})
    compare(differences, "tile " + std::to_string(tile) + ", last inclusive " + std::to_string(last),
            exercises::predicted_windows(tile, last), model(tile, last));
  differences.check();
}

TEST_CASE("exercise 02-3: every tile up to 200, every last inclusive predecessor") {
  Differences differences;
  for (long long tile = 0; tile <= 200; ++tile)
    for (long long last = -1; last < tile; ++last)
      compare(differences, "tile " + std::to_string(tile) + ", last inclusive " + std::to_string(last),
              exercises::predicted_windows(tile, last), model(tile, last));
  differences.check();
}
