// CPU tests of chapter 11: the ring schedule simulated for G = 1..8 (every chunk reduced once by
// every GPU, every GPU ending with every chunk, each step's send the neighbour's receive), the
// chunk and slice bounds for any n, the traffic model and busbw factor, the alpha-beta fit, the
// references, the report's columns, the options as the chapter's own spec parses them (no GPU is
// opened: every command line here stops at a refusal, --list, --check-options or --analyze), and
// --analyze --format json's document (the model's rows, the ring's steps, the sort's exchange).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allreduce.hpp"
#include "analysis.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "host/data.hpp"
#include "host/report.hpp"
#include "model.hpp"
#include "ring.hpp"
#include "scan_ops.hpp"
#include "sweep_report.hpp"

using namespace stepwise;
using namespace stepwise::multigpu;

namespace {

testing::ParseOutcome run(const std::vector<std::string>& arguments) {
  return testing::outcome_of(chapter(), arguments);
}

const std::vector<std::uint64_t> kSizes = {1, 2, 3, 5, 7, 8, 9, 16, 31, 1000, 4097};

}  // namespace

TEST_CASE("chunks cover [0, n) in order, differ by at most one element, and are empty only when n < G") {
  for (int gpus = 1; gpus <= 8; ++gpus)
    for (const std::uint64_t n : kSizes) {
      CAPTURE(gpus);
      CAPTURE(n);
      CHECK(part_begin(n, gpus, 0) == 0);
      CHECK(part_begin(n, gpus, gpus) == n);
      std::uint64_t smallest = n;
      std::uint64_t largest = 0;
      for (int c = 0; c < gpus; ++c) {
        CHECK(part_begin(n, gpus, c) + part_size(n, gpus, c) == part_begin(n, gpus, c + 1));
        smallest = std::min(smallest, part_size(n, gpus, c));
        largest = std::max(largest, part_size(n, gpus, c));
      }
      CHECK(largest - smallest <= 1);
      CHECK(largest == part_size(n, gpus, 0));  // slices_for reads the first chunk as the largest
      CHECK((smallest == 0) == (n < static_cast<std::uint64_t>(gpus)));
    }
}

TEST_CASE("the ring schedule, simulated: after reduce-scatter GPU g owns chunk g+1's whole sum, after all-gather all") {
  for (int gpus = 1; gpus <= 8; ++gpus) {
    CAPTURE(gpus);
    // contributors[g][c]: the set of GPUs whose input GPU g's copy of chunk c holds.
    std::vector<std::vector<std::set<int>>> holds(static_cast<std::size_t>(gpus),
                                                  std::vector<std::set<int>>(static_cast<std::size_t>(gpus)));
    for (int g = 0; g < gpus; ++g)
      for (int c = 0; c < gpus; ++c) holds[g][c] = {g};
    CHECK(ring_steps(gpus) == 2 * (gpus - 1));
    for (int step = 0; step < ring_steps(gpus); ++step) {
      auto next = holds;
      for (int g = 0; g < gpus; ++g) {
        const RingStep what = ring_step(g, gpus, step);
        const int left = ring_left(g, gpus);
        // What this GPU receives is what its left neighbour sends at the same step.
        CHECK(ring_step(left, gpus, step).send_chunk == what.receive_chunk);
        CHECK(what.reduce == (step < gpus - 1));
        const std::set<int>& partial = holds[left][what.receive_chunk];
        if (what.reduce) {
          CHECK(partial.count(g) == 0);  // no GPU's input is added twice
          next[g][what.receive_chunk].insert(partial.begin(), partial.end());
        } else {
          next[g][what.receive_chunk] = partial;
        }
      }
      holds = next;
      if (step == gpus - 2)
        for (int g = 0; g < gpus; ++g)
          CHECK(holds[g][ring_owned_chunk(g, gpus)].size() == static_cast<std::size_t>(gpus));
    }
    for (int g = 0; g < gpus; ++g)
      for (int c = 0; c < gpus; ++c) CHECK(holds[g][c].size() == static_cast<std::size_t>(gpus));
  }
}

TEST_CASE("the ring's step-to-step dependencies are its neighbours': a GPU reads only what its left one wrote last") {
  for (int gpus = 2; gpus <= 8; ++gpus)
    for (int step = 1; step < ring_steps(gpus); ++step)
      for (int g = 0; g < gpus; ++g) {
        CAPTURE(gpus);
        CAPTURE(step);
        const int left = ring_left(g, gpus);
        // The chunk g reads from its left neighbour at this step is the one that neighbour wrote at the step before.
        CHECK(ring_step(left, gpus, step - 1).receive_chunk == ring_step(g, gpus, step).receive_chunk);
        CHECK(ring_right(left, gpus) == g);
      }
}

TEST_CASE("pipelined slices: at most max_slices, at most slice_elements each, never more than the chunk's elements") {
  CHECK(pipeline_slices(0, 100, 8) == 1);
  CHECK(pipeline_slices(1, 100, 8) == 1);
  CHECK(pipeline_slices(100, 100, 8) == 1);
  CHECK(pipeline_slices(101, 100, 8) == 2);
  CHECK(pipeline_slices(1u << 30, 100, 8) == 8);
  CHECK(pipeline_slices(5, 1, 8) == 5);
  for (const std::uint64_t chunk : kSizes)
    for (int slices = 1; slices <= 8; ++slices) {
      std::uint64_t covered = 0;
      for (int p = 0; p < slices; ++p) {
        CHECK(part_begin(chunk, slices, p) == covered);
        covered += part_size(chunk, slices, p);
      }
      CHECK(covered == chunk);
    }
  // A pipelined row's slices for the chapter's sizes, from its traits.
  for (const AllReduceStage& stage : allreduce_stages()) {
    if (stage.traits.slice_bytes == 0) {
      CHECK(slices_for(stage.traits, 1u << 28, 4, 4) == 1);
      continue;
    }
    CHECK(slices_for(stage.traits, 1, 8, 4) == 1);
    CHECK(slices_for(stage.traits, 1u << 28, 2, 4) == stage.traits.max_slices);
    const std::uint64_t one_slice = stage.traits.slice_bytes / 4;
    CHECK(slices_for(stage.traits, 2 * one_slice, 2, 4) == 1);
    CHECK(slices_for(stage.traits, 2 * one_slice + 2, 2, 4) == 2);
  }
}

TEST_CASE("busbw factors and the traffic model follow nccl-tests' 2(G-1)/G") {
  CHECK(allreduce_bus_factor(1) == 0.0);
  CHECK(allreduce_bus_factor(2) == doctest::Approx(1.0));
  CHECK(allreduce_bus_factor(4) == doctest::Approx(1.5));
  CHECK(allreduce_bus_factor(8) == doctest::Approx(1.75));
  for (int gpus = 1; gpus <= 8; ++gpus) {
    CAPTURE(gpus);
    const double bytes = 1 << 20;
    const TrafficCount ring_count = traffic_of(Traffic::ring, bytes, gpus);
    CHECK(ring_count.sent == doctest::Approx(allreduce_bus_factor(gpus) * bytes));
    CHECK(ring_count.steps == ring_steps(gpus));
    const TrafficCount root = traffic_of(Traffic::through_root, bytes, gpus);
    CHECK(root.received == doctest::Approx((gpus - 1) * bytes));
    CHECK(traffic_of(Traffic::host_staged, bytes, gpus).sent == bytes);
    CHECK(traffic_of(Traffic::pipelined_ring, bytes, gpus, 4).steps == (gpus > 1 ? ring_steps(gpus) + 3 : 0));
    // The ring never sends more than the root's busiest GPU, and from G = 3 on strictly less.
    CHECK(ring_count.sent <= root.sent + 1e-9);
    if (gpus >= 3) CHECK(ring_count.sent < root.sent);
  }
  CHECK(predicted_seconds({2e9, 1e9, 3}, 1e-6, 1e9) == doctest::Approx(3e-6 + 2.0));
}

TEST_CASE("the alpha-beta fit recovers a model it is given, and refuses what cannot be fitted") {
  const double alpha = 12e-6;
  const double beta = 150e9;
  std::vector<double> bytes;
  std::vector<double> seconds;
  for (const std::uint64_t size : sweep_bytes(std::uint64_t{1} << 30)) {
    bytes.push_back(static_cast<double>(size));
    seconds.push_back(alpha + static_cast<double>(size) / beta);
  }
  const AlphaBeta exact = fit_alpha_beta(bytes, seconds);
  CHECK(exact.alpha_s == doctest::Approx(alpha).epsilon(1e-6));
  CHECK(exact.beta_bytes_per_s == doctest::Approx(beta).epsilon(1e-6));
  CHECK(exact.points == static_cast<int>(bytes.size()));
  // 5 % noise, alternating: alpha stays within about 5 %, which unweighted least squares would not give.
  std::vector<double> noisy = seconds;
  for (std::size_t i = 0; i < noisy.size(); ++i) noisy[i] *= i % 2 == 0 ? 1.05 : 0.95;
  const AlphaBeta rough = fit_alpha_beta(bytes, noisy);
  CHECK(rough.alpha_s == doctest::Approx(alpha).epsilon(0.08));
  CHECK(rough.beta_bytes_per_s == doctest::Approx(beta).epsilon(0.08));
  CHECK_THROWS_AS(fit_alpha_beta({8.0}, {1e-5}), std::invalid_argument);
  CHECK_THROWS_AS(fit_alpha_beta({8.0, 8.0}, {1e-5, 2e-5}), std::invalid_argument);
  CHECK_THROWS_AS(fit_alpha_beta({8.0, 16.0}, {1e-5, 0.0}), std::invalid_argument);
}

TEST_CASE("the size sweep runs from 8 B to the largest size, x4, the largest included") {
  const std::vector<std::uint64_t> sweep = sweep_bytes(std::uint64_t{1} << 30);
  REQUIRE(sweep.size() == 15);
  CHECK(sweep.front() == 8);
  CHECK(sweep[1] == 32);
  CHECK(sweep.back() == std::uint64_t{1} << 30);
  CHECK(sweep_bytes(8) == std::vector<std::uint64_t>{8});
  CHECK(sweep_bytes(100) == std::vector<std::uint64_t>{8, 32, 100});
}

TEST_CASE("the references: int32 wraps mod 2^32, float32 sums in double with the magnitudes as scale") {
  const std::int32_t max = std::numeric_limits<std::int32_t>::max();
  const std::vector<std::vector<std::int32_t>> ints = {{max, -7, 1}, {1, 5, 2}, {max, -1, 3}};
  const std::vector<std::int32_t> sums = allreduce_on_cpu(ints);
  CHECK(sums == std::vector<std::int32_t>{-1, -3, 6});  // (2^31 - 1) + 1 + (2^31 - 1) = 2^32 - 1: -1 mod 2^32
  CHECK(sum_of(max, 1) == std::numeric_limits<std::int32_t>::min());
  std::vector<double> want;
  std::vector<double> scale;
  allreduce_on_cpu(std::vector<std::vector<float>>{{1.5f, -2.0f}, {-0.5f, 0.25f}}, want, scale);
  CHECK(want == std::vector<double>{1.0, -1.75});
  CHECK(scale == std::vector<double>{2.0, 2.25});
  CHECK(float_tolerance(1) == 0.0);
  CHECK(float_tolerance(2) == doctest::Approx(std::ldexp(1.0, -24)).epsilon(1e-6));
  // The tolerance can fail: a sum that misses one GPU's term of magnitude ~1 is far outside it.
  CHECK(float_tolerance(8) * 8.0 < 1e-5);
}

TEST_CASE("the scan's reference on every core equals the serial one, wrapping across its chunks") {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, 3 * kHostChunk + 5}) {
    CAPTURE(n);
    const std::vector<std::int32_t> input =
        random_ints(n, 9, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
    std::vector<std::int32_t> serial(n), parallel(n);
    inclusive_scan_on_cpu<WrappingSum>(input.data(), serial.data(), n);
    parallel_inclusive_scan_on_cpu<WrappingSum>(input.data(), parallel.data(), n);
    CHECK(parallel == serial);
    if (n >= 1000) CHECK(std::set<std::int32_t>(serial.end() - 100, serial.end()).size() > 90);  // not constant
  }
}

TEST_CASE("the report: algbw = bytes / time, busbw = algbw x 2(G-1)/G, and a fit per stage over its sizes") {
  SweepReport report;
  report.gpus = 4;
  report.element_type = "float32";
  report.devices = {"GPU A", "GPU A", "GPU A", "GPU A"};
  report.reps = 3;
  for (const std::uint64_t bytes : {std::uint64_t{1} << 10, std::uint64_t{1} << 20, std::uint64_t{1} << 30}) {
    Measurement row;
    row.number = 3;
    row.stage = "ring";
    row.bytes = bytes;
    row.n = bytes / 4;
    row.time = TimingStats{(10e-6 + static_cast<double>(bytes) / 100e9) * 1e3, 0, 0, 3};
    report.rows.push_back(row);
  }
  const Measurement& big = report.rows.back();
  CHECK(big.algbw_gbps() == doctest::Approx(static_cast<double>(big.bytes) / (big.time->median_ms * 1e-3) / 1e9));
  CHECK(big.busbw_gbps(4) == doctest::Approx(1.5 * big.algbw_gbps()));
  const std::vector<StageFit> fits = fit_stages(report);
  REQUIRE(fits.size() == 1);
  CHECK(fits[0].fit.alpha_s == doctest::Approx(10e-6).epsilon(1e-6));
  CHECK(fits[0].fit.beta_bytes_per_s == doctest::Approx(100e9).epsilon(1e-6));
  const std::string markdown = render_sweep(report, Format::markdown);
  CHECK(markdown.find("| busbw (GB/s) |") != std::string::npos);
  CHECK(markdown.find("alpha (us)") != std::string::npos);
  const std::string json = render_sweep(report, Format::json);
  CHECK(json.find("\"busbw_gbps\"") != std::string::npos);
  CHECK(json.find("\"check\": \"PASS\"") != std::string::npos);
}

TEST_CASE("a scan or sort report is titled by its problem and has no bus bandwidth") {
  SweepReport report;
  report.problem = "sort";
  report.heading = "sort";
  report.gpus = 2;
  report.element_type = "uint32";
  Measurement row;
  row.number = 1;
  row.stage = "sample-sort";
  row.bytes = 1u << 20;
  row.n = row.bytes / 4;
  row.time = TimingStats{1.0, 1.0, 1.0, 1};
  report.rows.push_back(row);
  const std::string markdown = render_sweep(report, Format::markdown);
  CHECK(markdown.find("**sort of uint32 on 2 GPUs**") != std::string::npos);
  CHECK(markdown.find("all-reduce") == std::string::npos);
  CHECK(markdown.find("busbw does not apply") != std::string::npos);
  const std::string json = render_sweep(report, Format::json);
  CHECK(json.find("\"problem\": \"sort\"") != std::string::npos);
  CHECK(json.find("busbw_gbps") == std::string::npos);
  CHECK(json.find("\"algbw_gbps\"") != std::string::npos);
}

TEST_CASE("the table: rows in teaching order, the library last, traits set in each stage's file") {
  const std::vector<AllReduceStage>& table = allreduce_stages();
  REQUIRE(table.size() >= 2);
  int expected = 1;
  for (const AllReduceStage& stage : table) {
    CHECK((stage.launch != nullptr));
    CHECK_FALSE(stage.lesson.empty());
    if (stage.kind == RowKind::library) {
      CHECK(stage.number == 0);
      CHECK(stage.traits.needs_comms);
    } else {
      CHECK(stage.number == expected++);
    }
    // A row that synchronizes is the one that stages through the host.
    CHECK(stage.synchronizes == stage.traits.needs_host_staging);
  }
  CHECK(table.back().kind == RowKind::library);
}

TEST_CASE("options: bad values exit 2 with one line, before any GPU") {
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{{"--gpus", "0"},
                                                                                   {"--gpus", "abc"},
                                                                                   {"--type", "float16"},
                                                                                   {"--bytes", "6"},
                                                                                   {"--bytes", "0"},
                                                                                   {"--bytes", "2Gi"},
                                                                                   {"--bytes", "8", "--n", "2"},
                                                                                   {"--n", "2^29"},
                                                                                   {"--flush", "write"},
                                                                                   {"--format", "csv"},
                                                                                   {"--alpha-us", "3"},
                                                                                   {"--problem", "broadcast"}}) {
    CAPTURE(bad.front());
    const testing::ParseOutcome outcome = run(bad);
    REQUIRE(outcome.code);
    CHECK(*outcome.code == 2);
  }
  const testing::ParseOutcome good = run({"--gpus", "2", "--type", "int32", "--bytes", "1Mi", "--check-options"});
  REQUIRE(good.code);
  CHECK(*good.code == 0);
}

TEST_CASE("the all-reduce refuses --flush write; the scan and the sort take every flush") {
  const testing::ParseOutcome allreduce = run({"--problem", "allreduce", "--flush", "write", "--check-options"});
  REQUIRE(allreduce.code);
  CHECK(*allreduce.code == 2);
  for (const char* problem : {"scan", "sort"})
    for (const std::vector<std::string>& flush :
         std::vector<std::vector<std::string>>{{"--flush", "read"}, {"--flush", "write"}, {"--warm-cache"}}) {
      CAPTURE(problem);
      CAPTURE(flush.front());
      std::vector<std::string> args{"--problem", problem, "--n", "2^20", "--gpus", "2", "--check-options"};
      args.insert(args.end(), flush.begin(), flush.end());
      const testing::ParseOutcome outcome = run(args);
      REQUIRE(outcome.code);
      CHECK(*outcome.code == 0);
    }
}

TEST_CASE("--gpus above the visible GPUs is refused with exit 2; without a GPU the run says 77 instead") {
  Plan plan;
  plan.gpus = 3;
  CHECK_THROWS_AS(require_gpus(plan, 2), UsageError);
  CHECK_NOTHROW(require_gpus(plan, 3));
  CHECK_NOTHROW(require_gpus(plan, 0));  // no GPU: the session's exit 77 comes first
  plan.gpus = 0;                         // all of them
  CHECK_NOTHROW(require_gpus(plan, 8));
}

TEST_CASE("--analyze: each row's traffic and steps for --gpus, no GPU needed") {
  const testing::ParseOutcome outcome = run({"--analyze", "--gpus", "4", "--bytes", "64Mi"});
  REQUIRE(outcome.code);
  CHECK(*outcome.code == 0);
  CHECK(outcome.out.find("on 4 GPUs: busbw factor 2(G-1)/G = 1.500") != std::string::npos);
  for (const AllReduceStage& stage : allreduce_stages()) {
    const TrafficCount count =
        traffic_of(stage.traits.traffic, 64.0 * (1 << 20), 4, slices_for(stage.traits, (64u << 20) / 4, 4, 4));
    CAPTURE(stage.name);
    std::string line;
    std::istringstream lines(outcome.out);
    for (std::string candidate; std::getline(lines, candidate);)
      if (candidate.find("  " + stage.name + " ") != std::string::npos) line = candidate;
    REQUIRE_FALSE(line.empty());
    CHECK(line.find(" " + std::to_string(count.steps) + " ") != std::string::npos);
  }
  const testing::ParseOutcome sweep = run({"--analyze", "--size-sweep"});
  REQUIRE(sweep.code);
  CHECK(*sweep.code == 0);
  CHECK(sweep.out.find("the model of 2 GPUs") != std::string::npos);
  CHECK(sweep.out.find("1 GiB") != std::string::npos);
}

TEST_CASE("the scan's least time: a read of every part but the last, then a copy of each part, in parallel") {
  const std::uint64_t n = std::uint64_t{1} << 30;
  // One GPU: a copy of all n values of 4 bytes.
  CHECK(scan_least_seconds(n, 1, 4.0, 3.08e12, 3.05e12) == doctest::Approx(8.0 * n / 3.05e12));
  // Two GPUs: half of the values read once, then read and written: 0.6972 + 1.4082 ms.
  const double two = 4.0 * (n / 2) / 3.08e12 + 8.0 * (n / 2) / 3.05e12;
  CHECK(scan_least_seconds(n, 2, 4.0, 3.08e12, 3.05e12) == doctest::Approx(two));
  CHECK(two * 1e3 == doctest::Approx(2.1054).epsilon(1e-4));
  // More GPUs shrink both passes; the bound stays above a copy of n / G values.
  for (int gpus : {2, 3, 4, 8}) {
    CAPTURE(gpus);
    const double least = scan_least_seconds(n, gpus, 4.0, 3.08e12, 3.05e12);
    CHECK(least > 8.0 * n / gpus / 3.05e12);
    CHECK(least < scan_least_seconds(n, gpus - 1, 4.0, 3.08e12, 3.05e12));
  }
  // A faster read moves only the first term.
  CHECK(scan_least_seconds(n, 2, 4.0, 6.16e12, 3.05e12) == doctest::Approx(two - 2.0 * (n / 2) / 3.08e12));
  CHECK_THROWS_AS(scan_least_seconds(n, 0, 4.0, 3.08e12, 3.05e12), std::invalid_argument);
  CHECK_THROWS_AS(scan_least_seconds(n, 2, 4.0, 0.0, 3.05e12), std::invalid_argument);
  CHECK_THROWS_AS(scan_least_seconds(n, 2, 4.0, 3.08e12, -1.0), std::invalid_argument);
}

TEST_CASE("--analyze --problem scan prints the least time; --read-tbps and --copy-tbps only there") {
  const testing::ParseOutcome defaults = run({"--analyze", "--problem", "scan", "--gpus", "2", "--n", "2^30"});
  REQUIRE(defaults.code);
  CHECK(*defaults.code == 0);
  CHECK(defaults.out.find("R = 3.08 TB/s") != std::string::npos);
  CHECK(defaults.out.find("C = 3.05 TB/s") != std::string::npos);
  CHECK(defaults.out.find("= 2.1054 ms; one GPU: n x 8 B / C = 2.8164 ms; at most 1.34x") != std::string::npos);
  const testing::ParseOutcome given =
      run({"--analyze", "--problem", "scan", "--gpus", "4", "--n", "2^30", "--read-tbps", "4", "--copy-tbps", "2"});
  REQUIRE(given.code);
  CHECK(*given.code == 0);
  const double least = scan_least_seconds(std::uint64_t{1} << 30, 4, 4.0, 4e12, 2e12);
  CHECK(given.out.find("= " + format_fixed(least * 1e3, 4) + " ms") != std::string::npos);
  const testing::ParseOutcome json_out =
      run({"--analyze", "--format", "json", "--problem", "scan", "--gpus", "4", "--n", "2^30", "--copy-tbps", "2"});
  REQUIRE(json_out.code);
  REQUIRE(*json_out.code == 0);
  const nlohmann::json document = nlohmann::json::parse(json_out.out);
  const nlohmann::json& bound = document.at("scan").at("least_time");
  CHECK(bound.at("read_tbps").get<double>() == doctest::Approx(3.08));
  CHECK(bound.at("copy_tbps").get<double>() == doctest::Approx(2.0));
  CHECK(bound.at("seconds").get<double>() ==
        doctest::Approx(scan_least_seconds(std::uint64_t{1} << 30, 4, 4.0, 3.08e12, 2e12)));
  const testing::ParseOutcome one = run({"--analyze", "--problem", "scan", "--gpus", "1", "--n", "7"});
  REQUIRE(one.code);
  CHECK(one.out.find("1 GPU: n x 8 B / C = ") != std::string::npos);
  struct Refusal {
    std::vector<std::string> arguments;
    std::string says;
  };
  for (const Refusal& refusal :
       {Refusal{{"--analyze", "--problem", "sort", "--read-tbps", "4"}, "--read-tbps: only with --problem scan"},
        Refusal{{"--analyze", "--copy-tbps", "2"}, "--copy-tbps: only with --problem scan"},
        Refusal{{"--problem", "scan", "--read-tbps", "4"}, "--read-tbps requires --analyze"},
        Refusal{{"--analyze", "--problem", "scan", "--copy-tbps", "0"}, "--copy-tbps"},
        Refusal{{"--analyze", "--problem", "scan", "--read-tbps", "nan"}, "--read-tbps"}}) {
    CAPTURE(refusal.says);
    const testing::ParseOutcome outcome = run(refusal.arguments);
    REQUIRE(outcome.code);
    CHECK(*outcome.code == 2);
    CHECK(outcome.err.find(refusal.says) != std::string::npos);
    CHECK(std::count(outcome.err.begin(), outcome.err.end(), '\n') == 1);
  }
}

TEST_CASE(
    "--analyze --problem sort|scan: each phase's alpha-beta time on its busiest GPU, from --alpha-us and --beta-gbps") {
  const auto predicted_line = [](const std::string& out, const std::string& phase) {
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("  " + phase + " ", 0) == 0 && line.find("GPU") == std::string::npos) return line;
    return std::string();
  };
  for (int gpus : {1, 2, 4, 8}) {
    CAPTURE(gpus);
    const testing::ParseOutcome sort = run({"--analyze", "--problem", "sort", "--gpus", std::to_string(gpus), "--n",
                                            "2^30", "--alpha-us", "5", "--beta-gbps", "354"});
    REQUIRE(sort.code);
    CHECK(*sort.code == 0);
    CHECK(sort.out.find("alpha = 5.00 us, beta = 354.0 GB/s") != std::string::npos);
    // Keys spread evenly: each GPU sends (G - 1) / G of its 2^30 / G keys of 4 bytes, and receives as much.
    const double exchanged = 4.0 * (1u << 30) / gpus * (gpus - 1) / gpus;
    const double microseconds = predicted_seconds(TrafficCount{exchanged, exchanged, 1}, 5e-6, 354e9) * 1e6;
    const std::string line = predicted_line(sort.out, "bucket exchange (even keys)");
    REQUIRE_FALSE(line.empty());
    CHECK(line.find(" " + format_fixed(microseconds, 2)) != std::string::npos);
    CHECK(microseconds == doctest::Approx(gpus == 1 ? 5.0 : 5.0 + exchanged / 354e3));
  }
  const testing::ParseOutcome scan = run({"--analyze", "--problem", "scan", "--gpus", "4", "--n", "2^30"});
  REQUIRE(scan.code);
  CHECK(*scan.code == 0);
  const std::string line = predicted_line(scan.out, "totals all-gather");
  REQUIRE_FALSE(line.empty());
  CHECK(line.find(" 10.00") != std::string::npos);  // 12 bytes at the default 100 GB/s: alpha, to two decimals
}

TEST_CASE(
    "--analyze --format json: the text mode's rows, the ring's 2(G-1) steps and the sort's exchange, G = 1, 2, 4, 8") {
  for (const int gpus : {1, 2, 4, 8}) {
    CAPTURE(gpus);
    const testing::ParseOutcome outcome = run({"--analyze", "--format", "json", "--gpus", std::to_string(gpus)});
    REQUIRE(outcome.code);
    CHECK(*outcome.code == 0);
    const nlohmann::json document = nlohmann::json::parse(outcome.out);
    CHECK(document["analysis"] == "multigpu");
    CHECK(document["chapter"] == "11");
    CHECK(document["gpus"] == gpus);
    CHECK(document["diagram_gpus"] == gpus);
    // The model's rows: every stage at the default size, as traffic_of counts them.
    const nlohmann::json& rows = document["allreduce"]["rows"];
    REQUIRE(rows.size() == allreduce_stages().size());
    CHECK(document["allreduce"]["busbw_factor"].get<double>() == doctest::Approx(allreduce_bus_factor(gpus)));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const AllReduceStage& stage = allreduce_stages()[i];
      const std::uint64_t bytes = rows[i]["bytes"].get<std::uint64_t>();
      const TrafficCount count = traffic_of(stage.traits.traffic, static_cast<double>(bytes), gpus,
                                            slices_for(stage.traits, bytes / kElementBytes, gpus, kElementBytes));
      CHECK(rows[i]["name"] == stage.name);
      CHECK(rows[i]["steps"] == count.steps);
      CHECK(rows[i]["sent"].get<double>() == doctest::Approx(count.sent));
      CHECK(rows[i]["received"].get<double>() == doctest::Approx(count.received));
    }
    // The ring: 2(G-1) steps; each GPU receives what its left neighbour sends; after the reduce-scatter GPU g holds
    // chunk g + 1's whole sum; after the all-gather every GPU holds every chunk's.
    const nlohmann::json& ring = document["ring"];
    std::vector<int> everyone(static_cast<std::size_t>(gpus));
    for (int g = 0; g < gpus; ++g) everyone[static_cast<std::size_t>(g)] = g;
    REQUIRE(ring["steps"].size() == static_cast<std::size_t>(ring_steps(gpus)));
    for (std::size_t s = 0; s < ring["steps"].size(); ++s) {
      const nlohmann::json& step = ring["steps"][s];
      CHECK(step["phase"] == (static_cast<int>(s) < gpus - 1 ? "reduce-scatter" : "all-gather"));
      for (int g = 0; g < gpus; ++g) {
        const nlohmann::json& move = step["moves"][static_cast<std::size_t>(g)];
        CHECK(move["from"] == ring_left(g, gpus));
        CHECK(move["receives_chunk"] == step["moves"][static_cast<std::size_t>(ring_left(g, gpus))]["sends_chunk"]);
      }
      if (static_cast<int>(s) == gpus - 2)
        for (int g = 0; g < gpus; ++g)
          CHECK(step["holds"][static_cast<std::size_t>(g)][static_cast<std::size_t>(ring_owned_chunk(g, gpus))]
                    .get<std::vector<int>>() == everyone);
    }
    const nlohmann::json& last = ring["steps"].empty() ? ring["start"] : ring["steps"].back()["holds"];
    for (const nlohmann::json& held : last)
      for (const nlohmann::json& chunk : held) CHECK(chunk.get<std::vector<int>>() == everyone);
    // The sort's exchange: each part's buckets are its keys, each GPU ends with what the others send it, and the
    // shares concatenated in GPU order are all the keys, sorted.
    const nlohmann::json& sort = document["sort_exchange"];
    CHECK(sort["splitters"].size() == static_cast<std::size_t>(gpus - 1));
    std::vector<std::uint32_t> keys;
    for (const nlohmann::json& part : sort["parts"]) {
      CHECK(part.size() == static_cast<std::size_t>(kExampleKeysPerGpu));
      for (const nlohmann::json& key : part) keys.push_back(key.get<std::uint32_t>());
    }
    std::sort(keys.begin(), keys.end());
    std::vector<std::uint32_t> shares;
    std::uint64_t kept = 0;
    for (int g = 0; g < gpus; ++g) {
      const std::size_t row = static_cast<std::size_t>(g);
      std::uint64_t sent = 0;
      std::uint64_t received = 0;
      for (int d = 0; d < gpus; ++d) {
        sent += sort["counts"][row][static_cast<std::size_t>(d)].get<std::uint64_t>();
        received += sort["counts"][static_cast<std::size_t>(d)][row].get<std::uint64_t>();
      }
      CHECK(sent == static_cast<std::uint64_t>(kExampleKeysPerGpu));
      CHECK(received == sort["outputs"][row].size());
      CHECK(sort["output_begin"][row] == shares.size());
      for (const nlohmann::json& key : sort["outputs"][row]) shares.push_back(key.get<std::uint32_t>());
    }
    for (const nlohmann::json& transfer : sort["transfers"]) {
      CHECK(transfer["keys"].get<std::uint64_t>() > 0);
      if (transfer["kept"].get<bool>()) kept += transfer["keys"].get<std::uint64_t>();
    }
    CHECK(shares == keys);
    CHECK(kept <= keys.size());
  }
  const testing::ParseOutcome defaults = run({"--analyze", "--format", "json"});
  REQUIRE(defaults.code);
  const nlohmann::json document = nlohmann::json::parse(defaults.out);
  CHECK(document["gpus"] == kAnalyzedGpus);
  CHECK(document["diagram_gpus"] == kDiagramGpus);
  CHECK(document["ring"]["gpus"] == kDiagramGpus);
  CHECK(document["notes"][0].get<std::string>().find("--gpus not given") != std::string::npos);
  // Above the chapter's most GPUs the model is there, the diagrams are not.
  const testing::ParseOutcome beyond = run({"--analyze", "--format", "json", "--gpus", "16", "--problem", "sort"});
  REQUIRE(beyond.code);
  CHECK(*beyond.code == 0);
  const nlohmann::json wide = nlohmann::json::parse(beyond.out);
  CHECK(wide["ring"].is_null());
  CHECK(wide["sort_exchange"].is_null());
  CHECK(wide["sort"]["phases"].size() == 16 * 3);
  // The text mode is unchanged, and any other format is refused with one line.
  const testing::ParseOutcome text = run({"--analyze", "--gpus", "4"});
  REQUIRE(text.code);
  CHECK(text.out.rfind("all-reduce of float32 on 4 GPUs", 0) == 0);
  const testing::ParseOutcome refused = run({"--analyze", "--format", "markdown"});
  REQUIRE(refused.code);
  CHECK(*refused.code == 2);
  CHECK(refused.err.find("--format markdown") != std::string::npos);
}
