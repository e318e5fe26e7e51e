// The grader of exercise 09-3 (chapters/09_sort/exercises/README.md): the student's places of a tile's keys in
// one radix pass, against the chapter's model (tile_places.hpp's tile_digit_places: digit start + the earlier
// tiles' keys of the digit + the rank in the tile), tile by tile, for every input class, digit width and tile
// size; then the keys placed where the student says, against the CPU reference: one pass must be a stable sort
// by the digit, and the passes of every digit, least significant first, the reference's sort.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "03_tile_places.hpp"
#include "exercise_checks.hpp"
#include "inputs.hpp"
#include "tile_places.hpp"

using namespace stepwise::sort;
using stepwise::testing::Differences;

namespace {

/// A fixed seed: the same keys on every run, so a failure names the same key twice.
constexpr std::uint64_t kSeed = 20261126;

/// One pass over @p keys in tiles of @p tile_size, the places asked of the student tile by tile, each compared
/// with the model's. Returns the keys placed where the student says, or an empty vector when a place falls
/// outside the output or on a place already taken (recorded as a difference).
std::vector<std::uint32_t> graded_pass(Differences& differences, const std::string& name,
                                       const std::vector<std::uint32_t>& keys, std::size_t tile_size, int shift,
                                       int width) {
  const std::size_t radix = std::size_t{1} << width;
  std::vector<std::uint64_t> digit_starts(radix, 0);
  for (std::uint32_t key : keys) ++digit_starts[digit(key, shift, width)];
  std::uint64_t running = 0;
  for (std::uint64_t& start : digit_starts) {
    const std::uint64_t count = start;
    start = running;
    running += count;
  }
  std::vector<std::vector<std::uint64_t>> earlier_tiles;
  std::vector<std::uint64_t> earlier(radix, 0);
  std::vector<std::uint32_t> placed(keys.size());
  std::vector<bool> taken(keys.size(), false);
  bool valid = true;
  const std::string pass = name + ", " + std::to_string(width) + "-bit digit at bit " + std::to_string(shift) +
                           ", tiles of " + std::to_string(tile_size);
  for (std::size_t first = 0; first < keys.size(); first += tile_size) {
    const std::vector<std::uint32_t> tile(
        keys.begin() + static_cast<std::ptrdiff_t>(first),
        keys.begin() + static_cast<std::ptrdiff_t>(std::min(first + tile_size, keys.size())));
    const std::vector<std::uint64_t> yours =
        exercises::predicted_places(tile, shift, width, digit_starts, earlier_tiles);
    std::vector<std::uint64_t> model(tile.size());
    tile_digit_places(tile.data(), static_cast<int>(tile.size()), shift, width, digit_starts.data(), earlier.data(),
                      model.data());
    const std::string where = pass + ", tile " + std::to_string(first / tile_size);
    if (yours.size() != model.size()) {
      differences.add(where + ": " + std::to_string(yours.size()) + " places for " + std::to_string(tile.size()) +
                      " keys");
      valid = false;
    } else {
      for (std::size_t i = 0; i < tile.size(); ++i) {
        differences.compare(where + ", key " + std::to_string(i) + " (" + std::to_string(tile[i]) + ")", yours[i],
                            model[i]);
        if (yours[i] >= keys.size() || taken[yours[i]]) {
          valid = false;
        } else {
          taken[yours[i]] = true;
          placed[yours[i]] = tile[i];
        }
      }
    }
    std::vector<std::uint64_t> counts(radix, 0);
    for (std::uint32_t key : tile) ++counts[digit(key, shift, width)];
    for (std::size_t d = 0; d < radix; ++d) earlier[d] += counts[d];
    earlier_tiles.push_back(counts);
  }
  if (!valid) {
    differences.add(pass + ": two keys share a place, or a place is past the output");
    return {};
  }
  return placed;
}

}  // namespace

TEST_CASE("exercise 09-3: the README's worked pass, 4-bit digits in tiles of four") {
  const std::vector<std::uint32_t> input = {0x13, 0x21, 0x02, 0x31, 0x11, 0x03, 0x22, 0x01};
  const std::vector<std::uint64_t> digit_starts = {0, 0, 4, 6, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
  const std::vector<std::vector<std::uint64_t>> tile_0 = {{0, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
  const std::vector<std::uint64_t> yours =
      exercises::predicted_places({0x11, 0x03, 0x22, 0x01}, 0, 4, digit_starts, tile_0);
  const std::vector<std::uint64_t> answer = {2, 7, 5, 3};
  Differences differences;
  differences.compare("the number of places", yours.size(), answer.size());
  for (std::size_t i = 0; i < yours.size() && i < answer.size(); ++i)
    differences.compare("tile 1, key " + std::to_string(i), yours[i], answer[i]);
  differences.check();
  std::vector<std::uint64_t> model(4);
  const std::uint64_t earlier[16] = {0, 2, 1, 1};
  tile_digit_places(input.data() + 4, 4, 0, 4, digit_starts.data(), earlier, model.data());
  CHECK(model == answer);
}

TEST_CASE("exercise 09-3: every input class, digit width and tile size, tile by tile, and one stable pass") {
  Differences differences;
  for (const InputClass& input : all_input_classes())
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{100}, std::size_t{4099}}) {
      const std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(n, input, kSeed + n);
      for (std::size_t tile_size : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{2048}}) {
        if ((n + tile_size - 1) / tile_size > 128) continue;  // the earlier tiles' counts are handed over each time
        for (int width : {1, 4, 8})
          for (int shift : {0, 8, 32 - width}) {
            const std::string name = to_string(input) + ", n = " + std::to_string(n);
            const std::vector<std::uint32_t> placed = graded_pass(differences, name, keys, tile_size, shift, width);
            if (placed.empty()) continue;
            std::vector<std::uint32_t> stable = keys;
            std::stable_sort(stable.begin(), stable.end(), [&](std::uint32_t a, std::uint32_t b) {
              return digit(a, shift, width) < digit(b, shift, width);
            });
            differences.compare(name + ", " + std::to_string(width) + "-bit digit at bit " + std::to_string(shift) +
                                    ", tiles of " + std::to_string(tile_size) +
                                    ": the pass is a stable sort by the digit",
                                placed == stable, true);
          }
      }
    }
  differences.check();
}

TEST_CASE("exercise 09-3: the passes of every digit, least significant first, sort as the CPU reference does") {
  Differences differences;
  for (const InputClass& input : all_input_classes())
    for (int width : {4, 8}) {
      const std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(3001, input, kSeed);
      std::vector<std::uint32_t> sorted = keys;
      for (int shift = 0; shift < 32 && !sorted.empty(); shift += width)
        sorted = graded_pass(differences, to_string(input), sorted, 100, shift, width);
      differences.compare(to_string(input) + ", " + std::to_string(32 / width) + " passes of " + std::to_string(width) +
                              "-bit digits: the keys equal the reference's sort",
                          sorted == sort_reference(keys, {}).keys, true);
    }
  differences.check();
}
