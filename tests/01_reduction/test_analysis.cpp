// CPU tests of --analyze: the index maps kernels 1-3 call (addressing.hpp), run here on the
// host, and the analysis built on them, hand-checked at small sizes.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduce_analysis.hpp"

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
  for (Addressing scheme :
       {Addressing::interleaved_divergent, Addressing::interleaved_strided, Addressing::sequential}) {
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
