// The plain types: shapes as the table shows them, the sweep grids, and the compile-time
// dispatch from a run-time shape to an instantiation; a stage's variant rows.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/dispatch.hpp"
#include "host/stage.hpp"
#include "host/types.hpp"

using namespace stepwise;

TEST_CASE("a launch shape reads the way the table prints it") {
  CHECK(describe(LaunchShape{}) == "-");
  CHECK(describe(LaunchShape{256}) == "256 thr");
  CHECK(describe(LaunchShape{128, 7}) == "128x7");
  CHECK(describe(LaunchShape{1024, 0, 2}) == "1024 thr, 2 blk/SM");
  CHECK(describe(LaunchShape{128, 4, 8}) == "128x4, 8 blk/SM");
}

TEST_CASE("shape_grid enumerates every combination, threads slowest") {
  const std::vector<LaunchShape> shapes = shape_grid({128, 256}, {7, 8}, {1, 2});
  REQUIRE(shapes.size() == 8);
  CHECK(shapes.front() == LaunchShape{128, 7, 1});
  CHECK(shapes[1] == LaunchShape{128, 7, 2});
  CHECK(shapes.back() == LaunchShape{256, 8, 2});
  CHECK(shape_grid({64, 128}).size() == 2);
  CHECK(shape_grid({64}, {}, {4}).front() == LaunchShape{64, 0, 4});
}

TEST_CASE("dispatch calls the instantiation of the run-time value, and refuses one not compiled") {
  using Compiled = IntList<1, 2, 4, 8>;
  int seen = 0;
  dispatch(4, Compiled{}, "VT", [&](auto value) { seen = decltype(value)::value * 10; });
  CHECK(seen == 40);
  CHECK(Compiled::values() == std::vector<int>{1, 2, 4, 8});
  try {
    dispatch(3, Compiled{}, "VT", [&](auto) { seen = -1; });
    FAIL("dispatch accepted a value that is not compiled");
  } catch (const std::invalid_argument& error) {
    CHECK(std::string(error.what()) == "VT 3 is not compiled in (compiled: 1, 2, 4, 8)");
  }
  CHECK(seen == 40);
}

TEST_CASE("dispatch_tile launches the compiled tile of a shape, and tile_grid lists exactly the compiled tiles") {
  using Threads = IntList<128, 256>;
  using Items = IntList<7, 11>;
  int seen = 0;
  dispatch_tile(LaunchShape{256, 11}, Threads{}, Items{},
                [&](auto nt, auto vt) { seen = decltype(nt)::value * 100 + decltype(vt)::value; });
  CHECK(seen == 25611);
  CHECK(tile_grid(Threads{}, Items{}) == std::vector<LaunchShape>{{128, 7}, {128, 11}, {256, 7}, {256, 11}});
  for (const LaunchShape& shape : tile_grid(Threads{}, Items{})) {
    bool launched = false;
    dispatch_tile(shape, Threads{}, Items{}, [&](auto, auto) { launched = true; });
    CHECK(launched);
  }
  try {
    dispatch_tile(LaunchShape{256, 9}, Threads{}, Items{}, [&](auto, auto) { seen = -1; });
    FAIL("dispatch_tile accepted a tile that is not compiled");
  } catch (const std::invalid_argument& error) {
    CHECK(std::string(error.what()) == "items per thread 9 is not compiled in (compiled: 7, 11)");
  }
  CHECK(seen == 25611);
}

TEST_CASE("summarize gives median, min and max") {
  const TimingStats odd = summarize({3.0, 1.0, 2.0});
  CHECK(odd.median_ms == 2.0);
  CHECK(odd.min_ms == 1.0);
  CHECK(odd.max_ms == 3.0);
  CHECK(odd.reps == 3);
  CHECK(summarize({4.0, 1.0, 2.0, 3.0}).median_ms == 2.5);
  CHECK_THROWS_AS(summarize({}), std::invalid_argument);
}

namespace {

using TestLaunch = void (*)(int);
void launch_all(int) {}
void launch_without_one(int) {}
void launch_other_tile(int) {}

struct TestTraits {
  int loads = 1;
};
using TestStage = Stage<TestLaunch, TestTraits>;

TestStage test_row(const std::string& name, RowKind kind = RowKind::kernel) {
  TestStage stage;
  stage.name = name;
  stage.kind = kind;
  stage.launch = launch_all;
  return stage;
}

/// Stages a, b (with two variants), c and a library row, numbered.
std::vector<TestStage> table_with_variants() {
  TestStage tuned = test_row("tuned");
  tuned.shape = {128, 40};
  tuned.sweep = shape_grid({128, 256}, {16, 40});
  tuned.options = {"--first-poll-ns"};
  tuned.traits.loads = 4;
  tuned.variants = {variant_of(tuned, "packed flags", "flags unpacked", &launch_without_one),
                    variant_of(tuned, "tile 128x40", "the tile before", &launch_other_tile)};
  tuned.variants.back().shape = {256, 12};
  return numbered<TestStage>({test_row("first"), tuned, test_row("last"), test_row("lib", RowKind::library)});
}

}  // namespace

TEST_CASE("variant_of: the stage with one change undone, at the stage's shape, with no sweep") {
  const std::vector<TestStage> table = table_with_variants();
  const TestStage& tuned = table[1];
  REQUIRE(tuned.variants.size() == 2);
  const TestStage& packed = tuned.variants[0];
  CHECK(packed.variant == "packed flags");
  CHECK(packed.lesson == "flags unpacked");
  CHECK(packed.name == "tuned");
  CHECK((packed.launch == &launch_without_one));
  CHECK(packed.shape == LaunchShape{128, 40});
  CHECK(packed.sweep.empty());
  CHECK(packed.options == std::vector<std::string>{"--first-poll-ns"});
  CHECK(packed.traits.loads == 4);
  CHECK(packed.variants.empty());
  CHECK(tuned.variants[1].shape == LaunchShape{256, 12});
  CHECK(tuned.variant.empty());
  CHECK((tuned.launch == &launch_all));
}

TEST_CASE("numbered gives a variant its stage's number; with_variants puts the variants right after their stage") {
  const std::vector<TestStage> table = table_with_variants();
  CHECK(table[1].number == 2);
  CHECK(table[1].variants[0].number == 2);
  CHECK(table[1].variants[1].number == 2);
  CHECK(table[2].number == 3);
  CHECK(table[3].number == 0);
  const std::vector<TestStage> rows = with_variants(table);
  REQUIRE(rows.size() == 6);
  std::vector<std::string> labels;
  for (const TestStage& row : rows)
    labels.push_back(row.variant.empty() ? row.name : variant_label(row.number, row.variant));
  CHECK(labels == std::vector<std::string>{"first", "tuned", "2 - packed flags", "2 - tile 128x40", "last", "lib"});
  CHECK(rows[1].variants.empty());
  const std::vector<StageInfo> described = describe(table);
  REQUIRE(described.size() == 6);
  CHECK(described[3].variant == "tile 128x40");
  CHECK(kernel_numbers_where(rows, [](const TestStage& row) { return row.traits.loads == 4; }) == std::vector<int>{2});
  const std::vector<StageInfo> plain = {StageInfo{}, StageInfo{}};
  CHECK(with_variants(plain).size() == 2);
}

TEST_CASE("a stage runs at its shape for n: the first sized shape that covers n, else its default") {
  StageInfo stage;
  stage.shape = {512, 23};
  stage.sweep = shape_grid({128, 512}, {11, 15, 23});
  stage.shapes_by_n = {{1u << 22, {128, 11}}, {1u << 24, {128, 15}}};
  CHECK(shapes_by_n_problem(stage).empty());
  CHECK(shape_at(stage, 1) == LaunchShape{128, 11});
  CHECK(shape_at(stage, 1u << 22) == LaunchShape{128, 11});
  CHECK(shape_at(stage, (1u << 22) + 1) == LaunchShape{128, 15});
  CHECK(shape_at(stage, 1u << 24) == LaunchShape{128, 15});
  CHECK(shape_at(stage, (1u << 24) + 1) == LaunchShape{512, 23});
  CHECK(shape_at(stage, std::uint64_t{1} << 40) == LaunchShape{512, 23});
  StageInfo plain;
  plain.shape = {256, 7};
  CHECK(shape_at(plain, 1) == LaunchShape{256, 7});
  CHECK(shapes_by_n_problem(plain).empty());
}

TEST_CASE("a malformed shapes_by_n is named: descending sizes, a shape not swept, the default shape") {
  StageInfo stage;
  stage.shape = {512, 23};
  stage.sweep = shape_grid({128, 512}, {11, 15, 23});
  stage.shapes_by_n = {{1u << 24, {128, 15}}, {1u << 22, {128, 11}}};
  CHECK(shapes_by_n_problem(stage) == "sizes not ascending");
  stage.shapes_by_n = {{1u << 22, {256, 11}}};
  CHECK(shapes_by_n_problem(stage) == "256x11 is not one of the sweep's shapes");
  stage.shapes_by_n = {{1u << 22, {512, 23}}};
  CHECK(shapes_by_n_problem(stage) == "512x23 is the default shape");
}

TEST_CASE("a variant row has no shapes by size: it runs at its stage's default shape") {
  using Row = Stage<void (*)(), NoTraits>;
  Row stage;
  stage.shape = {512, 23};
  stage.sweep = shape_grid({128, 512}, {11, 23});
  stage.shapes_by_n = {{1u << 22, {128, 11}}};
  const Row variant = variant_of(stage, "a change", "the change undone", +[] {});
  CHECK(variant.shapes_by_n.empty());
  CHECK(variant.sweep.empty());
  CHECK(shape_at(variant, 1) == LaunchShape{512, 23});
}
