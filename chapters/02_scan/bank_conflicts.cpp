// What --analyze prints, as a table or as JSON: the bank model of bank_conflicts.hpp applied to
// the transposes and to Blelloch's tree, and the look-back example of lookback_replay.hpp.
#include "bank_conflicts.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "lookback_replay.hpp"
#include "scan_ops.hpp"

namespace stepwise::scan {
namespace {

using nlohmann::json;

/// The small tile of the transpose diagram: 8 threads, few enough to print every item.
constexpr int kExampleThreads = 8;

std::string bits_text(int width_words) { return std::to_string(width_words * kWordBytes * 8) + "-bit"; }

std::string instruction_name(int width_words) {
  return width_words == 1 ? "LDS" : "LDS." + std::to_string(width_words * kWordBytes * 8);
}

std::string degree_text(int degree) {
  return degree == 1 ? std::string("conflict-free") : std::to_string(degree) + "-way conflicts";
}

std::string ratio_text(int wavefronts, int ideal) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << static_cast<double>(wavefronts) / ideal << "x the ideal";
  return text.str();
}

/// The summary line of one VT's thread-order side with accesses of @p width_words words.
std::string cost_line(int nt, int vt, int width_words) {
  const TransposeCost cost = transpose_cost(nt, vt, width_words);
  std::ostringstream text;
  text << degree_text(cost.degree) << ", " << cost.wavefronts << " wavefronts for " << cost.instructions << " "
       << (cost.instructions == 1 ? "read" : "reads") << " (" << ratio_text(cost.wavefronts, cost.ideal);
  if (width_words > 1) text << " " << cost.ideal;
  text << ")";
  return text.str();
}

/// The bank of every lane at every instruction, and how many words that bank serves in the
/// lane's phase (its "way"), for the drawing.
json access_json(int nt, int vt, int width_words) {
  const TransposeCost cost = transpose_cost(nt, vt, width_words);
  json banks = json::array();
  json ways = json::array();
  for (int instruction = 0; instruction < cost.instructions; ++instruction) {
    int first[tile::kWarpSize] = {};
    for (int lane = 0; lane < tile::kWarpSize; ++lane)
      first[lane] = thread_order_word(vt, width_words, 0, lane, instruction);
    json bank_row = json::array();
    json way_row = json::array();
    for (int lane = 0; lane < tile::kWarpSize; ++lane) {
      int way = 0;
      for (int k = 0; k < width_words; ++k)
        way = std::max(way, bank_load(first, width_words, kAllLanes, lane, first[lane] + k));
      bank_row.push_back(tile::bank_of(first[lane]));
      way_row.push_back(way);
    }
    banks.push_back(bank_row);
    ways.push_back(way_row);
  }
  return {{"bits", width_words * kWordBytes * 8},
          {"instruction", instruction_name(width_words)},
          {"width_words", width_words},
          {"lanes_per_phase", lanes_per_phase(width_words)},
          {"instructions", cost.instructions},
          {"degree", cost.degree},
          {"wavefronts", cost.wavefronts},
          {"ideal", cost.ideal},
          {"conflicts_per_tile", transpose_conflicts_per_tile(nt, vt, width_words)},
          {"banks", banks},
          {"ways", ways}};
}

json tree_json() {
  constexpr int nt = tree::kThreads;
  json levels = json::array();
  int wavefronts = 0;
  int padded_wavefronts = 0;
  int ideal = 0;
  for (int k = 0; k < 2 * tree_levels(nt); ++k) {
    const TreeLevel plain = tree_level_in_order(nt, k, false);
    const TreeLevel padded = tree_level_in_order(nt, k, true);
    wavefronts += plain.wavefronts;
    padded_wavefronts += padded.wavefronts;
    ideal += plain.ideal;
    levels.push_back({{"sweep", plain.down ? "down" : "up"},
                      {"stride", plain.stride},
                      {"active", plain.active},
                      {"degree", plain.degree},
                      {"padded_degree", padded.degree},
                      {"wavefronts", plain.wavefronts},
                      {"padded_wavefronts", padded.wavefronts},
                      {"ideal", plain.ideal}});
  }
  const TreeConflicts scalar = tree_conflicts_per_block(nt, false, false);
  const TreeConflicts paired = tree_conflicts_per_block(nt, false, true);
  const TreeConflicts padded = tree_conflicts_per_block(nt, true, false);
  return {{"threads", nt},
          {"items", 2 * nt},
          {"conflicts_per_block",
           {{"unpadded", {{"ld", scalar.loads}, {"st", scalar.stores}}},
            {"unpadded_stride1_pairs_64bit", {{"ld", paired.loads}, {"st", paired.stores}}},
            {"padded", {{"ld", padded.loads}, {"st", padded.stores}}}}},
          {"padded_words", tree::tree_words(2 * nt, true)},
          {"barriers", 2 * tree_levels(nt) + 1},
          {"levels", levels},
          {"wavefronts", wavefronts},
          {"padded_wavefronts", padded_wavefronts},
          {"ideal", ideal}};
}

json lookback_json() {
  const LookbackReplay replay = lookback_example();
  json windows = json::array();
  for (const LookbackWindow& window : replay.windows) {
    json tiles = json::array();
    for (int lane = 0; lane < 32; ++lane) tiles.push_back(window.window_end - 1 - lane);
    json polls = json::array();
    for (const auto& states : window.polls) {
      json row = json::array();
      for (TileState state : states) row.push_back(std::string(1, state_letter(state)));
      polls.push_back(row);
    }
    windows.push_back({{"window_end", window.window_end},
                       {"tiles", tiles},
                       {"polls", polls},
                       {"values", window.values},
                       {"nearest_inclusive", window.nearest_inclusive >= 0 ? json(window.nearest_inclusive) : json()},
                       {"folded_lanes", window.folded_lanes},
                       {"window_value", window.window_value},
                       {"prefix", window.prefix}});
  }
  constexpr std::int32_t kAggregate = 1;  // lookback_example(): every tile's aggregate is 1
  return {{"tile", replay.tile},
          {"aggregate", kAggregate},
          {"operator", "int32 +"},
          {"windows", windows},
          {"exclusive_prefix", replay.exclusive_prefix},
          {"inclusive_prefix", WrappingAdd{}(replay.exclusive_prefix, kAggregate)},
          {"states",
           {{"X", "invalid: nothing published yet"},
            {"A", "aggregate: the tile's own reduction"},
            {"P", "inclusive prefix: everything up to and including the tile"}}}};
}

}  // namespace

void require_analyzable(int nt, const std::vector<int>& vts) {
  if (nt < tile::kWarpSize || nt > 1024 || nt % tile::kWarpSize != 0)
    throw std::invalid_argument("--nt " + std::to_string(nt) + ": must be a multiple of 32 in [32, 1024]");
  if (vts.empty()) throw std::invalid_argument("--vt: give at least one value");
  for (int vt : vts)
    if (vt < 1 || vt > 32) throw std::invalid_argument("--vt " + std::to_string(vt) + ": must be in [1, 32]");
}

std::string bank_conflict_table(int nt, const std::vector<int>& vts) {
  require_analyzable(nt, vts);
  std::ostringstream text;
  text << "Transpose of an NT x VT tile through shared memory, NT = " << nt << " (" << tile::kBanks
       << " banks of 4 bytes)\n"
       << "strided store: thread t writes word i*NT + t; thread-order load: thread t reads word t*VT + i at step i\n\n";

  text << "bank read by each lane of warp 0 at step 0, 32-bit accesses (the same lanes collide at every step)\n";
  text << "lane";
  for (int vt : vts) text << " | VT=" << std::setw(2) << std::left << vt << std::right;
  text << "\n";
  for (int lane = 0; lane < tile::kWarpSize; ++lane) {
    text << std::setw(4) << lane;
    for (int vt : vts) text << " | " << std::setw(5) << tile::bank_of(tile::thread_order_slot(lane, 0, vt));
    text << "\n";
  }

  const int steps = *std::max_element(vts.begin(), vts.end());
  text << "\nconflict degree of each step, 32-bit accesses (worst warp; 1 = every bank once per warp per step)\n";
  text << "step";
  for (int vt : vts) text << " | VT=" << std::setw(2) << std::left << vt << std::right;
  text << "\n";
  for (int step = 0; step < steps; ++step) {
    text << std::setw(4) << step;
    for (int vt : vts) {
      if (step >= vt) {
        text << " |      ";
        continue;
      }
      int worst = 0;
      for (int warp = 0; warp < nt / tile::kWarpSize; ++warp)
        worst = std::max(worst, thread_order_step_degree(vt, warp, step));
      text << " | " << std::setw(4) << worst << "x";
    }
    text << "\n";
  }

  text << "\nsummary per warp and transpose (thread-order side; the strided side is "
       << strided_conflict_degree(nt, vts.front()) << "-way)\n";
  text << "32-bit accesses, one word per lane and instruction (LDS/STS: Baxter's model):\n";
  for (int vt : vts) text << "  VT = " << std::setw(2) << vt << ": " << cost_line(nt, vt, 1) << "\n";
  text << "the widest access a thread's VT consecutive words allow (the compiler may use it; the SASS shows whether"
          " it does):\n";
  for (int vt : vts) {
    const int width = aligned_access_words(vt);
    text << "  VT = " << std::setw(2) << vt << ": ";
    if (width == 1) {
      text << "32-bit only (" << vt * kWordBytes << " bytes per thread: no wider aligned access)\n";
      continue;
    }
    text << bits_text(width) << " (" << instruction_name(width) << ", " << lanes_per_phase(width)
         << " lanes per phase): " << cost_line(nt, vt, width) << "\n";
  }

  text << "\nbank conflicts Nsight Compute counts per tile of " << nt
       << " x VT and per transpose (ld when loading, st when storing)\n";
  for (int vt : vts) {
    text << "  VT = " << std::setw(2) << vt << ": " << transpose_conflicts_per_tile(nt, vt, 1)
         << " with 32-bit accesses";
    const int width = aligned_access_words(vt);
    if (width > 1) text << ", " << transpose_conflicts_per_tile(nt, vt, width) << " with " << bits_text(width);
    text << "\n";
  }

  constexpr int tree_threads = tree::kThreads;
  text << "\nBlelloch's tree (stages 2 and 3): " << tree_threads << " threads, " << 2 * tree_threads
       << " items, one barrier per level\n"
       << "shared-memory accesses of each level, unpadded (node i at word i) and padded (at word i + i/32: "
       << tree::tree_words(2 * tree_threads, true) << " words)\n";
  text << "sweep | stride | threads |  degree | padded | wavefronts | padded\n";
  int total = 0;
  int padded_total = 0;
  int ideal = 0;
  for (int k = 0; k < 2 * tree_levels(tree_threads); ++k) {
    const TreeLevel plain = tree_level_in_order(tree_threads, k, false);
    const TreeLevel padded = tree_level_in_order(tree_threads, k, true);
    total += plain.wavefronts;
    padded_total += padded.wavefronts;
    ideal += plain.ideal;
    text << std::setw(5) << (plain.down ? "down" : "up") << " | " << std::setw(6) << plain.stride << " | "
         << std::setw(7) << plain.active << " | " << std::setw(6) << plain.degree << "x | " << std::setw(5)
         << padded.degree << "x | " << std::setw(10) << plain.wavefronts << " | " << std::setw(6) << padded.wavefronts
         << "\n";
  }
  text << "per block: " << total << " wavefronts unpadded, " << padded_total << " padded (conflict-free: " << ideal
       << "); " << 2 * tree_levels(tree_threads) + 1 << " barriers either way\n";
  const TreeConflicts scalar = tree_conflicts_per_block(tree_threads, false, false);
  const TreeConflicts paired = tree_conflicts_per_block(tree_threads, false, true);
  const TreeConflicts padded = tree_conflicts_per_block(tree_threads, true, false);
  text << "bank conflicts Nsight Compute counts per block (ld / st): unpadded " << scalar.loads << " / "
       << scalar.stores << " with 32-bit accesses, " << paired.loads << " / " << paired.stores
       << " with the stride-1 pairs as 64-bit accesses; padded " << padded.loads << " / " << padded.stores << "\n";
  return text.str();
}

std::string analysis_json(int nt, const std::vector<int>& vts) {
  require_analyzable(nt, vts);
  json transposes = json::array();
  for (int vt : vts) {
    json accesses = json::array();
    accesses.push_back(access_json(nt, vt, 1));
    const int width = aligned_access_words(vt);
    if (width > 1) accesses.push_back(access_json(nt, vt, width));
    transposes.push_back({{"vt", vt}, {"aligned_bits", width * kWordBytes * 8}, {"accesses", accesses}});
  }
  const int example_vt = vts.front();
  json strided = json::array();
  json thread_order = json::array();
  for (int t = 0; t < kExampleThreads; ++t) {
    json before = json::array();
    json after = json::array();
    for (int i = 0; i < example_vt; ++i) {
      before.push_back(tile::strided_slot(i, t, kExampleThreads));
      after.push_back(tile::thread_order_slot(t, i, example_vt));
    }
    strided.push_back(before);
    thread_order.push_back(after);
  }
  const json document = {
      {"analysis", "scan-transpose"},
      {"chapter", "02"},
      {"banks", tile::kBanks},
      {"warp_size", tile::kWarpSize},
      {"word_bytes", kWordBytes},
      {"nt", nt},
      {"vts", vts},
      {"transposes", transposes},
      {"example_tile",
       {{"nt", kExampleThreads}, {"vt", example_vt}, {"strided", strided}, {"thread_order", thread_order}}},
      {"tree", tree_json()},
      {"lookback", lookback_json()}};
  return document.dump(1) + "\n";
}

}  // namespace stepwise::scan
