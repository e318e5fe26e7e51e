// CPU tests of --analyze: the index maps kernels 1-3 call (addressing.hpp), run here on the
// host, and the analysis built on them, hand-checked at small sizes.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduce_analysis.hpp"
#include "host/types.hpp"

using namespace stepwise::reduction;

namespace {

std::vector<unsigned> column(const TreeAnalysis& analysis, unsigned TreeStep::*field) {
  std::vector<unsigned> values;
  for (const TreeStep& step : analysis.steps) values.push_back(step.*field);
  return values;
}

using Column = std::vector<unsigned>;

}  // namespace

TEST_CASE("bank conflict degree: distinct words per bank, broadcasts free") {
  CHECK(bank_conflict_degree({}) == 0);
  CHECK(bank_conflict_degree({7}) == 1);
  std::vector<unsigned> consecutive;
  for (unsigned i = 0; i < 32; ++i) consecutive.push_back(100 + i);
  CHECK(bank_conflict_degree(consecutive) == 1);
  CHECK(bank_conflict_degree({0, 32, 64}) == 3);         // three words of bank 0
  CHECK(bank_conflict_degree({5, 5, 5, 5}) == 1);        // one word: a broadcast
  CHECK(bank_conflict_degree({0, 32, 32, 1, 33}) == 2);  // banks 0 and 1, two words each
  std::vector<unsigned> stride_two;
  for (unsigned i = 0; i < 32; ++i) stride_two.push_back(2 * i);
  CHECK(bank_conflict_degree(stride_two) == 2);
}

// thread_work is constexpr as well as host and device: the maps can be checked at compile time.
static_assert(thread_work(Addressing::interleaved_divergent, 8, 4, 64).active);
static_assert(!thread_work(Addressing::interleaved_divergent, 12, 4, 64).active);
static_assert(thread_work(Addressing::interleaved_strided, 1, 16, 64).left == 32);
static_assert(!thread_work(Addressing::interleaved_strided, 2, 16, 64).active);
static_assert(thread_work(Addressing::sequential, 5, 8, 64).right == 13);
static_assert(thread_work(Addressing::interleaved_divergent_mask, 8, 4, 64).active);
static_assert(!thread_work(Addressing::interleaved_divergent_mask, 12, 4, 64).active);
static_assert(harris_kernel(Addressing::interleaved_divergent) == 1);
static_assert(harris_kernel(Addressing::interleaved_divergent_mask) == 0);
static_assert(harris_kernel(Addressing::interleaved_strided) == 2);
static_assert(harris_kernel(Addressing::sequential) == 3);

TEST_CASE("stage 2's mask picks kernel 1's threads and words at every step of every block size") {
  // 2s is a power of two, so tid % 2s == tid & (2s - 1): the same work without the division.
  for (unsigned block = 2; block <= 1024; block *= 2) {
    CAPTURE(block);
    REQUIRE(tree_strides(Addressing::interleaved_divergent_mask, block) ==
            tree_strides(Addressing::interleaved_divergent, block));
    for (unsigned stride : tree_strides(Addressing::interleaved_divergent, block)) {
      for (unsigned tid = 0; tid < block; ++tid) {
        const ThreadWork mask = thread_work(Addressing::interleaved_divergent_mask, tid, stride, block);
        const ThreadWork modulo = thread_work(Addressing::interleaved_divergent, tid, stride, block);
        REQUIRE(mask.active == modulo.active);
        REQUIRE(mask.left == modulo.left);
        REQUIRE(mask.right == modulo.right);
      }
    }
  }
}

TEST_CASE("thread work follows each kernel's formula") {
  // Kernel 1 at s = 2: multiples of 4 add sdata[tid + 2].
  CHECK(thread_work(Addressing::interleaved_divergent, 4, 2, 64).active);
  CHECK_FALSE(thread_work(Addressing::interleaved_divergent, 6, 2, 64).active);
  CHECK(thread_work(Addressing::interleaved_divergent, 4, 2, 64).right == 6);
  // Kernel 2 at s = 2: thread 3 works on index 12 and 14; thread 16 is out (index 64).
  const ThreadWork strided = thread_work(Addressing::interleaved_strided, 3, 2, 64);
  CHECK(strided.active);
  CHECK(strided.left == 12);
  CHECK(strided.right == 14);
  CHECK_FALSE(thread_work(Addressing::interleaved_strided, 16, 2, 64).active);
  // Kernel 3 at s = 32: the first 32 threads add sdata[tid + 32].
  CHECK(thread_work(Addressing::sequential, 31, 32, 64).right == 63);
  CHECK_FALSE(thread_work(Addressing::sequential, 32, 32, 64).active);
  CHECK(tree_strides(Addressing::sequential, 64) == Column{32, 16, 8, 4, 2, 1});
  CHECK(tree_strides(Addressing::interleaved_divergent, 64) == Column{1, 2, 4, 8, 16, 32});
}

TEST_CASE("replaying thread_work over tree_strides sums the block, race free, for every scheme") {
  for (Addressing scheme : {Addressing::interleaved_divergent, Addressing::interleaved_divergent_mask,
                            Addressing::interleaved_strided, Addressing::sequential}) {
    for (unsigned block : {64u, 128u, 256u, 512u, 1024u}) {
      CAPTURE(static_cast<int>(scheme));
      CAPTURE(block);
      std::vector<unsigned> sdata(block);
      for (unsigned i = 0; i < block; ++i) sdata[i] = i + 1;
      for (unsigned stride : tree_strides(scheme, block)) {
        std::set<unsigned> written;
        std::set<unsigned> read;
        for (unsigned tid = 0; tid < block; ++tid) {
          const ThreadWork w = thread_work(scheme, tid, stride, block);
          if (!w.active) continue;
          REQUIRE(w.right < block);
          written.insert(w.left);
          read.insert(w.right);
          sdata[w.left] += sdata[w.right];
        }
        // No word is both written and read as a right operand in one step: the threads of a
        // step may run in any order.
        for (unsigned word : written) REQUIRE(read.count(word) == 0);
      }
      CHECK(sdata[0] == block * (block + 1) / 2);
    }
  }
}

TEST_CASE("kernel 1, 64 threads: every warp diverges, no bank conflicts") {
  const TreeAnalysis a = analyze(Addressing::interleaved_divergent, 64);
  CHECK(column(a, &TreeStep::active_threads) == Column{32, 16, 8, 4, 2, 1});
  CHECK(column(a, &TreeStep::active_warps) == Column{2, 2, 2, 2, 2, 1});
  CHECK(column(a, &TreeStep::divergent_warps) == Column{2, 2, 2, 2, 2, 1});
  CHECK(column(a, &TreeStep::conflict_degree) == Column{1, 1, 1, 1, 1, 1});
  CHECK(a.avoidable_divergent_warps == 2);
  CHECK(a.wasted_warp_steps == 5);
  CHECK(a.worst_conflict_degree == 1);
}

TEST_CASE("kernel 1, 256 threads: 24 divergent warps in the steps with >= 32 threads") {
  const TreeAnalysis a = analyze(Addressing::interleaved_divergent, 256);
  CHECK(column(a, &TreeStep::active_threads) == Column{128, 64, 32, 16, 8, 4, 2, 1});
  CHECK(column(a, &TreeStep::active_warps) == Column{8, 8, 8, 8, 8, 4, 2, 1});
  CHECK(a.avoidable_divergent_warps == 24);
  CHECK(a.wasted_warp_steps == 4 + 6 + 7 + 7 + 7 + 3 + 1 + 0);
  CHECK(a.worst_conflict_degree == 1);
}

TEST_CASE("kernel 2, 256 threads: no avoidable divergence, conflicts up to 8-way") {
  const TreeAnalysis a = analyze(Addressing::interleaved_strided, 256);
  CHECK(column(a, &TreeStep::active_threads) == Column{128, 64, 32, 16, 8, 4, 2, 1});
  CHECK(column(a, &TreeStep::active_warps) == Column{4, 2, 1, 1, 1, 1, 1, 1});
  CHECK(column(a, &TreeStep::divergent_warps) == Column{0, 0, 0, 1, 1, 1, 1, 1});
  // Stride 2s words: 2s lanes share a bank until fewer lanes are active than that.
  CHECK(column(a, &TreeStep::conflict_degree) == Column{2, 4, 8, 8, 8, 4, 2, 1});
  CHECK(a.avoidable_divergent_warps == 0);
  CHECK(a.wasted_warp_steps == 0);
  CHECK(a.worst_conflict_degree == 8);
}

TEST_CASE("kernel 2, 1024 threads: a 32-way conflict at s = 16") {
  const TreeAnalysis a = analyze(Addressing::interleaved_strided, 1024);
  CHECK(a.steps[4].stride == 16);
  CHECK(a.steps[4].active_threads == 32);
  CHECK(a.steps[4].conflict_degree == 32);
  CHECK(a.worst_conflict_degree == 32);
}

TEST_CASE("kernel 3, 128 threads: neither divergence nor conflicts") {
  const TreeAnalysis a = analyze(Addressing::sequential, 128);
  CHECK(column(a, &TreeStep::active_threads) == Column{64, 32, 16, 8, 4, 2, 1});
  CHECK(column(a, &TreeStep::active_warps) == Column{2, 1, 1, 1, 1, 1, 1});
  CHECK(column(a, &TreeStep::divergent_warps) == Column{0, 0, 1, 1, 1, 1, 1});
  CHECK(column(a, &TreeStep::conflict_degree) == Column{1, 1, 1, 1, 1, 1, 1});
  CHECK(a.avoidable_divergent_warps == 0);
  CHECK(a.worst_conflict_degree == 1);
}

TEST_CASE("at every supported block size: kernel 1 diverges, kernel 2 conflicts, kernel 3 neither") {
  for (unsigned block : {64u, 128u, 256u, 512u, 1024u}) {
    CAPTURE(block);
    const TreeAnalysis one = analyze(Addressing::interleaved_divergent, block);
    const TreeAnalysis two = analyze(Addressing::interleaved_strided, block);
    const TreeAnalysis three = analyze(Addressing::sequential, block);
    CHECK(one.avoidable_divergent_warps > 0);
    CHECK(one.worst_conflict_degree == 1);
    CHECK(two.avoidable_divergent_warps == 0);
    CHECK(two.worst_conflict_degree > 1);
    CHECK(three.avoidable_divergent_warps == 0);
    CHECK(three.worst_conflict_degree == 1);
    CHECK(one.steps.size() == two.steps.size());
    CHECK(two.steps.size() == three.steps.size());
  }
}

TEST_CASE("analysis rejects block sizes the kernels do not support") {
  CHECK_THROWS_AS(analyze(Addressing::sequential, 100), std::invalid_argument);
  CHECK_THROWS_AS(analyze(Addressing::sequential, 32), std::invalid_argument);
  CHECK_THROWS_AS(analyze(Addressing::sequential, 2048), std::invalid_argument);
}

TEST_CASE("the rendered analysis names the kernel, the block and the summary") {
  const std::string text = render(analyze(Addressing::interleaved_strided, 256));
  CHECK(text.find("kernel 2") != std::string::npos);
  CHECK(text.find("256 threads per block (8 warps)") != std::string::npos);
  CHECK(text.find("worst bank conflict: 8-way") != std::string::npos);
}

TEST_CASE("bank ways: the distinct words of one bank") {
  CHECK(bank_ways({0, 32, 32, 64, 1}, 0) == 3);
  CHECK(bank_ways({0, 32, 32, 64, 1}, 1) == 1);
  CHECK(bank_ways({0, 32, 32, 64, 1}, 2) == 0);
}

TEST_CASE("warp 0, lane by lane: kernel 2's banks and ways, kernel 3 conflict free") {
  const TreeAnalysis two = analyze(Addressing::interleaved_strided, 256);
  REQUIRE(two.steps[0].warp0.size() == 32);
  for (const LaneWork& lane : two.steps[0].warp0) {  // s = 1: lane i reads words 2i and 2i + 1
    CAPTURE(lane.lane);
    CHECK(lane.active);
    CHECK(lane.thread == lane.lane);
    CHECK(lane.left == 2 * lane.lane);
    CHECK(lane.left_bank == (2 * lane.lane) % 32);
    CHECK(lane.right_bank == (2 * lane.lane + 1) % 32);
    CHECK(lane.left_ways == 2);
    CHECK(lane.right_ways == 2);
  }
  CHECK(two.steps[0].warp0_conflict_degree == 2);
  // s = 8: lanes 0-15 add (16 x 16 < 256), their words 16 apart: banks 0 and 16, eight words each.
  CHECK(two.steps[3].warp0[15].active);
  CHECK_FALSE(two.steps[3].warp0[16].active);
  CHECK(two.steps[3].warp0[1].left_bank == 16);
  CHECK(two.steps[3].warp0[1].left_ways == 8);
  CHECK(two.steps[3].warp0_conflict_degree == 8);
  const TreeAnalysis three = analyze(Addressing::sequential, 256);
  for (const TreeStep& step : three.steps) {
    CHECK(step.warp0_conflict_degree == 1);
    for (const LaneWork& lane : step.warp0)
      if (lane.active) CHECK(lane.left_ways == 1);
  }
}

TEST_CASE("the drawn trees: the slides' values, every scheme ends with their sum in word 0") {
  CHECK(example_values(16) == std::vector<long long>{10, 1, 8, -1, 0, -2, 3, 5, -2, -3, 2, 7, 0, 11, 0, 2});
  for (Addressing scheme :
       {Addressing::interleaved_divergent, Addressing::interleaved_strided, Addressing::sequential}) {
    CAPTURE(static_cast<int>(scheme));
    const AdditionTree tree = addition_tree(scheme, 16);
    REQUIRE(tree.levels.size() == 4);
    CHECK(tree.levels.back().values[0] == 41);
    CHECK(addition_tree(scheme, 64).levels.back().values[0] == 4 * 41);
  }
  // Kernel 1, step 1: the values of the slides' figure.
  const AdditionTree one = addition_tree(Addressing::interleaved_divergent, 16);
  CHECK(one.levels[0].values == std::vector<long long>{11, 1, 7, -1, -2, -2, 8, 5, -5, -3, 9, 7, 11, 11, 2, 2});
  CHECK(one.levels[0].adds[1].thread == 2);
  // Kernel 2 does the same adds with threads 0-7; kernel 3 adds word 8 + t into word t.
  const AdditionTree two = addition_tree(Addressing::interleaved_strided, 16);
  CHECK(two.levels[0].values == one.levels[0].values);
  CHECK(two.levels[0].adds[1].thread == 1);
  CHECK(two.levels[0].adds[1].left == 2);
  const AdditionTree three = addition_tree(Addressing::sequential, 16);
  CHECK(three.levels[0].stride == 8);
  CHECK(three.levels[0].adds[3].left == 3);
  CHECK(three.levels[0].adds[3].right == 11);
  CHECK_THROWS_AS(addition_tree(Addressing::sequential, 2), std::invalid_argument);
  CHECK_THROWS_AS(addition_tree(Addressing::sequential, 24), std::invalid_argument);
  CHECK_THROWS_AS(addition_tree(Addressing::sequential, 128), std::invalid_argument);
}

TEST_CASE("the report names stage 2's variant and finds it equal to kernel 1") {
  const std::string text = analysis_report(128);
  CHECK(text.find("kernel 1 (stage 1), interleaved-divergent") != std::string::npos);
  CHECK(text.find("kernel 3 (stage 4), sequential") != std::string::npos);
  CHECK(text.find("stage 2, interleaved-divergent-mask") != std::string::npos);
  CHECK(text.find("the same threads add the same words as kernel 1") != std::string::npos);
}

TEST_CASE("--analyze --format json: one document with the three schemes, their lanes and their trees") {
  const stepwise::ChapterInfo chapter = {"01", "reduction", "title", 1, 1, "reference"};
  const nlohmann::json doc = nlohmann::json::parse(analysis_json(chapter, 128, 8));
  CHECK(doc["analysis"] == "reduction-addressing");
  CHECK(doc["chapter"]["id"] == "01");
  CHECK(doc["block"] == 128);
  CHECK(doc["banks"] == 32);
  CHECK(doc["tree_elements"] == 8);
  CHECK(doc["tree_input"].size() == 8);
  REQUIRE(doc["schemes"].size() == 3);
  const int kernels[] = {1, 2, 3};
  const int stages[] = {1, 3, 4};
  for (int i = 0; i < 3; ++i) {
    const nlohmann::json& scheme = doc["schemes"][i];
    CAPTURE(i);
    CHECK(scheme["kernel"] == kernels[i]);
    CHECK(scheme["stage"] == stages[i]);
    CHECK(scheme["steps"].size() == 7);  // log2(128)
    CHECK(scheme["tree"].size() == 3);   // log2(8)
    CHECK(scheme["tree"][2]["values"][0] == 24);
    for (const nlohmann::json& step : scheme["steps"]) CHECK(step["warp0"]["lanes"].size() == 32);
  }
  const nlohmann::json& idle = doc["schemes"][0]["steps"][0]["warp0"]["lanes"][1];  // kernel 1, s = 1: odd lanes idle
  CHECK(idle["active"] == false);
  CHECK_FALSE(idle.contains("left_bank"));
  CHECK(doc["schemes"][1]["steps"][1]["warp0"]["conflict_degree"] == 4);
  CHECK(doc["variants"][0]["stage"] == 2);
  CHECK(doc["variants"][0]["same_work"] == true);
  CHECK_THROWS_AS(analysis_json(chapter, 100, 8), std::invalid_argument);
  CHECK_THROWS_AS(analysis_json(chapter, 128, 12), std::invalid_argument);
}

TEST_CASE("shared-memory accesses and wavefronts per block, as Nsight Compute counts them") {
  // 256 threads: kernel 1 has 47 active warp-steps (8+8+8+8+8+4+2+1), kernels 2 and 3 have 12.
  const TreeAnalysis one = analyze(Addressing::interleaved_divergent, 256);
  const TreeAnalysis two = analyze(Addressing::interleaved_strided, 256);
  const TreeAnalysis three = analyze(Addressing::sequential, 256);
  CHECK(one.shared_accesses == 3 * 47);
  CHECK(one.shared_wavefronts == 141);
  CHECK(two.shared_accesses == 3 * 12);
  CHECK(two.shared_wavefronts == 141);  // 105 replays: 70 on the loads, 35 on the store
  CHECK(three.shared_accesses == 36);
  CHECK(three.shared_wavefronts == 36);
  // Kernel 2 packs kernel 1's accesses into fewer instructions, but the same words in the
  // same banks: the wavefronts are the same at every block size.
  for (unsigned block : {64u, 128u, 256u, 512u, 1024u}) {
    CAPTURE(block);
    CHECK(analyze(Addressing::interleaved_strided, block).shared_wavefronts ==
          analyze(Addressing::interleaved_divergent, block).shared_wavefronts);
    CHECK(analyze(Addressing::sequential, block).shared_wavefronts ==
          analyze(Addressing::interleaved_strided, block).shared_accesses);
  }
}
