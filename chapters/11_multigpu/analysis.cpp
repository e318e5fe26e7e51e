// Chapter 11's --analyze --format json: the text mode's model (chapter.cpp's analyze, distributed.cpp's
// analyze_distributed) as JSON, and the data of the ring-steps diagram (ring_diagram.cpp) and of the
// sort-exchange diagram, a small sample sort replayed by sort_plan.hpp.
#include "analysis.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "allreduce.hpp"
#include "host/data.hpp"
#include "model.hpp"
#include "sample_sort.hpp"
#include "scan.hpp"
#include "scan_ops.hpp"

namespace stepwise::multigpu {
namespace {

using json = nlohmann::json;

static_assert(kMaxDiagramGpus == kMaxGpus, "the diagrams draw as many GPUs as the chapter runs on");

const char* type_name(TypeOption type) { return type == TypeOption::float32 ? "float32" : "int32"; }

/// The all-reduce table's rows at every size, as the text mode prints them.
json allreduce_json(const Plan& plan, int gpus) {
  json rows = json::array();
  for (const std::uint64_t bytes : plan.sizes)
    for (const AllReduceStage& stage : allreduce_stages()) {
      const int slices = slices_for(stage.traits, bytes / kElementBytes, gpus, kElementBytes);
      const TrafficCount count = traffic_of(stage.traits.traffic, static_cast<double>(bytes), gpus, slices);
      const double seconds = predicted_seconds(count, plan.alpha_us * 1e-6, plan.beta_gbps * 1e9);
      rows.push_back({{"bytes", bytes},
                      {"stage", stage.number == 0 ? std::string("lib") : std::to_string(stage.number)},
                      {"name", stage.name},
                      {"traffic", to_string(stage.traits.traffic)},
                      {"sent", count.sent},
                      {"received", count.received},
                      {"steps", count.steps},
                      {"predicted_us", seconds * 1e6}});
    }
  return {{"type", type_name(plan.type)}, {"busbw_factor", allreduce_bus_factor(gpus)},
          {"alpha_us", plan.alpha_us},    {"beta_gbps", plan.beta_gbps},
          {"sizes", plan.sizes},          {"rows", rows}};
}

/// The scan's or the sort's phases per GPU and (scan) each row's device memory traffic, as
/// analyze_distributed prints them.
json distributed_json(const Plan& plan, std::size_t n, int gpus) {
  const bool scan = plan.problem == ProblemKind::scan;
  const std::size_t value_bytes = 4;
  json phases = json::array();
  for (int g = 0; g < gpus; ++g)
    for (const PhaseBytes& phase :
         scan ? scan_traffic(n, value_bytes, gpus, g) : sort_traffic(n, gpus, plan.samples, g))
      phases.push_back({{"gpu", g}, {"phase", phase.phase}, {"sent", phase.sent}, {"received", phase.received}});
  json document = {{"n", n}, {"type", scan ? type_name(plan.type) : "uint32"}, {"phases", phases}};
  if (scan) {
    json rows = json::array();
    for (const ScanStage<WrappingSum>& stage : scan_stages<WrappingSum>()) {
      const double values = stage.traits.one_gpu ? static_cast<double>(n) : static_cast<double>(part_size(n, gpus, 0));
      rows.push_back({{"name", stage.name},
                      {"bytes", values * value_bytes * stage.traits.accesses},
                      {"accesses", stage.traits.accesses},
                      {"one_gpu", stage.traits.one_gpu}});
    }
    document["device_traffic"] = rows;
    document["least_time"] = {
        {"read_tbps", plan.read_tbps},
        {"copy_tbps", plan.copy_tbps},
        {"seconds", scan_least_seconds(n, gpus, value_bytes, plan.read_tbps * 1e12, plan.copy_tbps * 1e12)},
        {"one_gpu_seconds", scan_least_seconds(n, 1, value_bytes, plan.read_tbps * 1e12, plan.copy_tbps * 1e12)}};
  } else {
    document["samples"] = plan.samples;
    document["exchange_note"] =
        "the buckets' exchange depends on the keys: the counts above are for keys spread evenly; a GPU may receive "
        "up to all n keys, and each keeps room for them";
  }
  return document;
}

json ring_json(const RingDiagram& ring) {
  json steps = json::array();
  for (std::size_t s = 0; s < ring.steps.size(); ++s) {
    const RingDiagramStep& step = ring.steps[s];
    json moves = json::array();
    for (const RingMove& move : step.moves)
      moves.push_back({{"gpu", move.gpu},
                       {"from", move.from},
                       {"receives_chunk", move.receives_chunk},
                       {"to", move.to},
                       {"sends_chunk", move.sends_chunk}});
    steps.push_back({{"step", s},
                     {"phase", step.reduce ? "reduce-scatter" : "all-gather"},
                     {"moves", moves},
                     {"holds", step.holds}});
  }
  return {{"gpus", ring.gpus},   {"chunks", ring.gpus}, {"stage", "3"},
          {"start", ring.start}, {"steps", steps},      {"owned", ring.owned}};
}

json sample_json(std::uint64_t sample, std::size_t first) {
  if (sample == kNoSample) return nullptr;
  return {{"key", sample_key(sample)}, {"position", sample_global(sample)}, {"index", sample_global(sample) - first}};
}

json sort_json(const SortExample& example) {
  const SortReplay& replay = example.replay;
  const ExchangePlan& plan = replay.plan;
  const int gpus = example.gpus;
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  const std::size_t n = example.keys.size();
  json parts = json::array();
  json samples = json::array();
  json counts = json::array();
  json send_offsets = json::array();
  json recv_offsets = json::array();
  json transfers = json::array();
  json output_begins = json::array();
  for (int g = 0; g < gpus; ++g) {
    const std::size_t first = part_begin(n, gpus, g);
    parts.push_back(std::vector<std::uint32_t>(example.keys.begin() + static_cast<std::ptrdiff_t>(first),
                                               example.keys.begin() + static_cast<std::ptrdiff_t>(first) +
                                                   static_cast<std::ptrdiff_t>(part_size(n, gpus, g))));
    json mine = json::array();
    for (int i = 0; i < kExampleSamples; ++i)
      mine.push_back(sample_json(replay.samples[static_cast<std::size_t>(g * kExampleSamples + i)], first));
    samples.push_back(mine);
    const std::size_t row = static_cast<std::size_t>(g) * g_count;
    counts.push_back(std::vector<std::uint64_t>(plan.counts.begin() + static_cast<std::ptrdiff_t>(row),
                                                plan.counts.begin() + static_cast<std::ptrdiff_t>(row + g_count)));
    send_offsets.push_back(
        std::vector<std::uint64_t>(plan.send_offsets.begin() + static_cast<std::ptrdiff_t>(row),
                                   plan.send_offsets.begin() + static_cast<std::ptrdiff_t>(row + g_count)));
    recv_offsets.push_back(
        std::vector<std::uint64_t>(plan.recv_offsets.begin() + static_cast<std::ptrdiff_t>(row),
                                   plan.recv_offsets.begin() + static_cast<std::ptrdiff_t>(row + g_count)));
    output_begins.push_back(output_begin(plan, g));
    for (std::size_t d = 0; d < g_count; ++d) {
      const std::uint64_t keys = plan.counts[row + d];
      if (keys == 0) continue;  // the stage sends no empty bucket
      transfers.push_back({{"from", g},
                           {"to", d},
                           {"keys", keys},
                           {"send_offset", plan.send_offsets[row + d]},
                           {"recv_offset", plan.recv_offsets[d * g_count + static_cast<std::size_t>(g)]},
                           {"kept", d == static_cast<std::size_t>(g)}});
    }
  }
  json splitters = json::array();
  for (const std::uint64_t splitter : replay.splitters)
    splitters.push_back({{"key", sample_key(splitter)}, {"position", sample_global(splitter)}});
  return {{"gpus", gpus},
          {"keys_per_gpu", kExampleKeysPerGpu},
          {"samples_per_gpu", kExampleSamples},
          {"seed", kExampleSeed},
          {"largest_key", kExampleLargestKey},
          {"parts", parts},
          {"sorted_parts", replay.sorted_parts},
          {"samples", samples},
          {"splitters", splitters},
          {"counts", counts},
          {"send_offsets", send_offsets},
          {"recv_offsets", recv_offsets},
          {"transfers", transfers},
          {"outputs", replay.outputs},
          {"output_begin", output_begins},
          {"load_balance", load_balance(plan)}};
}

}  // namespace

SortExample sort_example(int gpus) {
  if (gpus < 1 || gpus > kMaxDiagramGpus)
    throw std::invalid_argument("the sort's example on " + std::to_string(gpus) + " GPUs: 1 to " +
                                std::to_string(kMaxDiagramGpus));
  SortExample example;
  example.gpus = gpus;
  const std::vector<std::int32_t> drawn =
      random_ints(static_cast<std::size_t>(gpus) * kExampleKeysPerGpu, kExampleSeed, 0, kExampleLargestKey);
  example.keys.assign(drawn.begin(), drawn.end());
  example.replay = replay_sample_sort(example.keys, gpus, kExampleSamples);
  return example;
}

std::string analysis_json(const Plan& plan, const CommonOptions& options) {
  const int gpus = plan.gpus > 0 ? plan.gpus : kAnalyzedGpus;
  const int drawn = plan.gpus > 0 ? plan.gpus : kDiagramGpus;
  const char* problem = plan.problem == ProblemKind::allreduce ? "allreduce"
                        : plan.problem == ProblemKind::scan    ? "scan"
                                                               : "sort";
  json document = {
      {"analysis", "multigpu"}, {"chapter", "11"}, {"problem", problem}, {"gpus", gpus}, {"gpus_given", plan.gpus > 0}};
  if (plan.gpus == 0)
    document["notes"] = {"--gpus not given: the model of " + std::to_string(kAnalyzedGpus) + " GPUs, the diagrams of " +
                         std::to_string(kDiagramGpus)};
  if (plan.problem == ProblemKind::allreduce)
    document["allreduce"] = allreduce_json(plan, gpus);
  else
    document[problem] = distributed_json(plan, static_cast<std::size_t>(options.n), gpus);
  if (drawn <= kMaxDiagramGpus) {
    document["diagram_gpus"] = drawn;
    document["ring"] = ring_json(ring_diagram(drawn));
    document["sort_exchange"] = sort_json(sort_example(drawn));
  } else {
    document["diagram_gpus"] = nullptr;
    document["ring"] = nullptr;
    document["sort_exchange"] = nullptr;
    document["notes"].push_back("--gpus " + std::to_string(plan.gpus) + ": the diagrams draw at most " +
                                std::to_string(kMaxDiagramGpus) + " GPUs (the sample sort's most)");
  }
  return document.dump(1) + "\n";
}

}  // namespace stepwise::multigpu
