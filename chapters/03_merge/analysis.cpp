#include "analysis.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "algorithm/load_balance.hpp"
#include "algorithm/merge_path.hpp"
#include "algorithm/sorted_search.hpp"
#include "host/sizes.hpp"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// The H100 SXM's HBM3 peak: the napkin floor of every stage (chapter 00 measures what a copy
/// really reaches).
constexpr double kH100PeakGbps = 3352.0;

/// ceil(log2(count + 1)): the most steps of a binary search over count elements.
int search_steps(std::uint64_t count) {
  int steps = 0;
  for (std::uint64_t width = count; width > 0; width /= 2) ++steps;
  return steps;
}

std::string base36(int value) {
  const char* digits = "0123456789abcdefghijklmnopqrstuvwxyz";
  return value < 36 ? std::string(1, digits[value]) : "*";
}

std::string gigabytes(double bytes) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(3) << bytes / 1e9 << " GB";
  return text.str();
}

std::string milliseconds(double bytes) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(3) << bytes / (kH100PeakGbps * 1e9) * 1e3 << " ms";
  return text.str();
}

std::string grouped(std::uint64_t value) { return format_grouped(static_cast<std::int64_t>(value)); }

/// One row of a work table.
struct WorkRow {
  WorkRow(std::string number_, std::string name_, std::string shape_)
      : number(std::move(number_)), name(std::move(name_)), shape(std::move(shape_)) {}
  std::string number, name, shape;
  std::uint64_t global_searches = 0;
  int global_steps = 0;
  std::uint64_t shared_searches = 0;
  int shared_steps = 0;
  std::string note;
};

std::string work_table(const std::vector<WorkRow>& rows) {
  std::ostringstream out;
  out << "  " << std::setw(3) << "#"
      << "  " << std::left << std::setw(16) << "stage" << std::setw(9) << "shape" << std::right << std::setw(17)
      << "global searches" << std::setw(7) << "steps" << std::setw(17) << "shared searches" << std::setw(7) << "steps"
      << "  what else\n";
  for (const WorkRow& row : rows) {
    out << "  " << std::setw(3) << row.number << "  " << std::left << std::setw(16) << row.name << std::setw(9)
        << row.shape << std::right << std::setw(17) << grouped(row.global_searches) << std::setw(7)
        << (row.global_searches ? std::to_string(row.global_steps) : "-") << std::setw(17)
        << (row.shared_searches ? grouped(row.shared_searches) : "-") << std::setw(7)
        << (row.shared_searches ? std::to_string(row.shared_steps) : "-") << "  " << row.note << "\n";
  }
  out << "  (steps: the most binary-search steps one search takes; a global step reads one key in a search of a\n"
         "   sorted array, two in a Merge Path search: one of A and one of B)\n";
  return out.str();
}

/// The tiled rows' columns: a partition search per tile boundary in global memory, a search per
/// thread in shared memory over the tile's ranges (at most NV keys, the shorter at most NV/2).
WorkRow tiled_row(WorkRow row, const LaunchShape& shape, std::uint64_t total, std::uint64_t shorter) {
  const std::uint64_t tile = static_cast<std::uint64_t>(shape.threads) * static_cast<std::uint64_t>(shape.items);
  row.global_searches = (total + tile - 1) / tile + 1;
  row.global_steps = search_steps(shorter);
  row.shared_searches = (total + shape.items - 1) / shape.items;
  row.shared_steps = search_steps(std::min<std::uint64_t>(shorter, tile / 2));
  return row;
}

template <class K>
std::vector<WorkRow> merge_work(const Sizes& sizes) {
  const std::uint64_t total = sizes.a + sizes.b;
  const std::uint64_t shorter = std::min(sizes.a, sizes.b);
  std::vector<WorkRow> rows;
  for (const MergeStage<K>& stage : merge_stages<K>()) {
    if (stage.kind != RowKind::kernel) continue;
    WorkRow row{std::to_string(stage.number), stage.name, describe(stage.shape)};
    if (stage.traits.work == Work::per_element_search) {
      row.global_searches = total;
      row.global_steps = std::max(search_steps(sizes.a), search_steps(sizes.b));
      row.note = "one search per element, " +
                 grouped(sizes.a * search_steps(sizes.b) + sizes.b * search_steps(sizes.a)) +
                 " dependent key reads (mostly cache hits)";
    } else if (stage.traits.work == Work::per_thread_path) {
      row.global_searches = (total + stage.shape.items - 1) / stage.shape.items;
      row.global_steps = search_steps(shorter);
      const int stride = stage.shape.items * static_cast<int>(sizeof(K));
      row.note = "a warp's store touches " + std::to_string(std::min(32, stride)) + " sectors (lanes " +
                 std::to_string(stride) + " bytes apart), 4 when coalesced";
    } else {
      row = tiled_row(row, stage.shape, total, shorter);
      row.note = stage.traits.note;
    }
    rows.push_back(row);
  }
  return rows;
}

template <class K>
std::vector<WorkRow> search_work(const Sizes& sizes) {
  std::vector<WorkRow> rows;
  for (const SearchStage<K>& stage : search_stages<K>()) {
    if (stage.kind != RowKind::kernel) continue;
    WorkRow row{std::to_string(stage.number), stage.name, describe(stage.shape)};
    if (stage.traits.work == Work::per_element_search) {
      row.global_searches = sizes.a;
      row.global_steps = search_steps(sizes.b);
      row.note = "reads only the haystack lines its searches touch, " + grouped(sizes.a * search_steps(sizes.b)) +
                 " dependent key reads";
    } else {
      row = tiled_row(row, stage.shape, sizes.a + sizes.b, std::min(sizes.a, sizes.b));
      row.note = stage.traits.note;
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<WorkRow> lbs_work(const Sizes& sizes) {
  std::vector<WorkRow> rows;
  for (const LbsStage& stage : lbs_stages()) {
    if (stage.kind != RowKind::kernel) continue;
    WorkRow row{std::to_string(stage.number), stage.name, describe(stage.shape)};
    if (stage.traits.work == Work::per_element_search) {
      row.global_searches = sizes.b;
      row.global_steps = search_steps(sizes.a);
      row.note = "one search per item, then offsets[object] for its rank";
    } else {
      row = tiled_row(row, stage.shape, sizes.a + sizes.b, std::min(sizes.a, sizes.b));
      row.note = stage.traits.note;
    }
    rows.push_back(row);
  }
  return rows;
}

/// One piece of a merge cut every `spacing` outputs: diagonals [first, last), A[a_begin, a_end)
/// and B[first - a_begin, last - a_end), from merge_path at both diagonals.
struct Cut {
  int number = 0;
  int first = 0, last = 0;
  int a_begin = 0, a_end = 0;
  int b_begin() const { return first - a_begin; }
  int b_end() const { return last - a_end; }
};

/// The merge of @p a and @p b cut every @p spacing outputs (ties as @p bounds says).
template <Bounds bounds = Bounds::lower, class AIt, class BIt>
std::vector<Cut> cuts_of(AIt a, int a_count, BIt b, int b_count, int spacing) {
  std::vector<Cut> cuts;
  const int total = a_count + b_count;
  for (int number = 0; number * spacing < total; ++number) {
    Cut cut;
    cut.number = number;
    cut.first = number * spacing;
    cut.last = std::min(total, cut.first + spacing);
    cut.a_begin = merge_path<bounds>(a, a_count, b, b_count, cut.first, Less{});
    cut.a_end = merge_path<bounds>(a, a_count, b, b_count, cut.last, Less{});
    cuts.push_back(cut);
  }
  return cuts;
}

/// The load-balancing search's merge of the items 0 .. @p items - 1 (never stored) with
/// @p offsets, cut every @p spacing steps: A is the items, B the offsets (the objects' starts).
std::vector<Cut> load_balance_cuts(const std::vector<int>& offsets, int items, int spacing) {
  return cuts_of<Bounds::upper>(CountingIterator<int>{0}, items, offsets.data(), static_cast<int>(offsets.size()),
                                spacing);
}

/// The tile of the load-balancing example: NT x VT = 4 x 5, 20 steps a tile.
constexpr int kLbsThreads = 4, kLbsValues = 5;

std::string floor_line(double read, double written) {
  return "  DRAM floor: " + gigabytes(read + written) + " (read " + gigabytes(read) + ", write " + gigabytes(written) +
         "): " + milliseconds(read + written) + " at the H100's 3352 GB/s HBM3 peak\n";
}

/// The small merge --analyze draws: 10 and 8 keys, tiles of kExampleThreads x kExampleValues.
const std::vector<int> kExampleA = {1, 2, 2, 4, 5, 5, 7, 8, 9, 9};
const std::vector<int> kExampleB = {2, 3, 5, 5, 6, 9, 10, 11};
constexpr int kExampleThreads = 2, kExampleValues = 3;

/// The talk's join example as a sorted search: needles A and haystack B, keys as letters.
const std::vector<int> kTalkNeedles = {'A', 'A', 'B', 'D', 'F', 'F', 'F', 'F', 'G'};
const std::vector<int> kTalkHaystack = {'A', 'A', 'A', 'B', 'C', 'E', 'E', 'F', 'F'};

std::string merge_section(const Plan& plan) {
  const std::vector<int>& a = kExampleA;
  const std::vector<int>& b = kExampleB;
  std::ostringstream out;
  out << "Merge Path of a small example: |A| = " << a.size() << ", |B| = " << b.size()
      << ", tiles of NT x VT = " << kExampleThreads << " x " << kExampleValues << " = "
      << kExampleThreads * kExampleValues << " outputs (ties take A first)\n\n"
      << merge_path_picture(a, b, kExampleThreads, kExampleValues) << "\n"
      << naive_ranks(a, b) << "\n";
  const std::size_t key_bytes = plan.wide_keys ? 8 : 4;
  const double element = static_cast<double>(key_bytes + (plan.pairs ? 4 : 0));
  const double total = static_cast<double>(plan.sizes.a + plan.sizes.b);
  out << "The work of each stage at |A| = " << format_count(plan.sizes.a) << ", |B| = " << format_count(plan.sizes.b)
      << (plan.wide_keys ? " int64" : " int32") << (plan.pairs ? " keys + int32 values" : " keys") << ":\n"
      << floor_line(element * total, element * total)
      << (plan.wide_keys ? work_table(merge_work<std::int64_t>(plan.sizes))
                         : work_table(merge_work<std::int32_t>(plan.sizes)));
  return out.str();
}

std::string letters(const std::vector<int>& keys) {
  std::string text;
  for (int key : keys) text += std::string(text.empty() ? "" : " ") + static_cast<char>(key);
  return text;
}

std::string numbers(const std::vector<int>& values, int width = 2) {
  std::ostringstream text;
  for (std::size_t i = 0; i < values.size(); ++i) text << (i ? " " : "") << std::setw(width) << values[i];
  return text.str();
}

std::string search_section(const Plan& plan) {
  const std::vector<int>& needles = kTalkNeedles;
  const std::vector<int>& haystack = kTalkHaystack;
  std::vector<int> lower(needles.size()), upper(needles.size());
  sorted_search<Bounds::lower>(needles.data(), needles.size(), haystack.data(), haystack.size(), lower.data(), Less{});
  sorted_search<Bounds::upper>(needles.data(), needles.size(), haystack.data(), haystack.size(), upper.data(), Less{});
  std::ostringstream out;
  out << "Sorted search, the talk's example (a merge that records the haystack cursor at every needle):\n"
      << "  needles A:   " << letters(needles) << "\n"
      << "  haystack B:  " << letters(haystack) << "\n"
      << "  lower bound: " << numbers(lower, 1) << "   (ties: the needle goes first)\n"
      << "  upper bound: " << numbers(upper, 1) << "   (ties: the haystack key goes first)\n\n";
  const std::size_t key_bytes = plan.wide_keys ? 8 : 4;
  const double read = static_cast<double>(key_bytes * (plan.sizes.a + plan.sizes.b));
  out << "The work of each stage for " << format_count(plan.sizes.a) << " needles in " << format_count(plan.sizes.b)
      << (plan.wide_keys ? " int64" : " int32") << " keys:\n"
      << floor_line(read, 4.0 * static_cast<double>(plan.sizes.a))
      << (plan.wide_keys ? work_table(search_work<std::int64_t>(plan.sizes))
                         : work_table(search_work<std::int32_t>(plan.sizes)));
  return out.str();
}

/// The talk's load-balancing example, searched on the CPU: its counts, their exclusive scan,
/// and each item's object and rank in it.
struct TalkLbs {
  std::vector<int> counts, offsets, objects, ranks;
  int items = 0;
};

TalkLbs talk_lbs() {
  TalkLbs talk;
  talk.counts = talk_lbs_counts();
  talk.offsets.resize(talk.counts.size());
  for (std::size_t k = 0; k < talk.counts.size(); ++k) {
    talk.offsets[k] = talk.items;
    talk.items += talk.counts[k];
  }
  talk.objects.resize(static_cast<std::size_t>(talk.items));
  talk.ranks.resize(static_cast<std::size_t>(talk.items));
  load_balance_search(talk.offsets.data(), talk.offsets.size(), static_cast<std::size_t>(talk.items),
                      talk.objects.data(), talk.ranks.data());
  return talk;
}

std::string lbs_section(const Plan& plan) {
  const TalkLbs talk = talk_lbs();
  const std::vector<int>& counts = talk.counts;
  const std::vector<int>& offsets = talk.offsets;
  const int items = talk.items;
  const std::vector<int>& objects = talk.objects;
  const std::vector<int>& ranks = talk.ranks;
  std::ostringstream out;
  out << "Load-balancing search, the talk's example: " << counts.size() << " objects generate " << items
      << " items; each item gets its object (and its rank in it)\n";
  const auto rows = [&](const char* title, const std::vector<int>& values) {
    out << "  " << title << "\n";
    for (std::size_t row = 0; row < values.size(); row += 10) {
      const std::size_t end = std::min(values.size(), row + 10);
      out << "    " << std::setw(2) << row << ": "
          << numbers(std::vector<int>(values.begin() + static_cast<long>(row), values.begin() + static_cast<long>(end)))
          << "\n";
    }
  };
  rows("counts:", counts);
  rows("offsets (exclusive scan of counts):", offsets);
  rows("object of each item:", objects);
  rows("rank of each item:", ranks);
  // The tiles of a small NT x VT, as the partition kernel cuts them.
  out << "  tiles of NT x VT = " << kLbsThreads << " x " << kLbsValues << " = " << kLbsThreads * kLbsValues
      << " steps (items and objects together: every tile does the same work however the counts fall):\n";
  for (const Cut& tile : load_balance_cuts(offsets, items, kLbsThreads * kLbsValues))
    out << "    tile " << tile.number << ": items [" << tile.a_begin << ", " << tile.a_end << "), objects ["
        << tile.b_begin() << ", " << tile.b_end() << ")\n";
  out << "\nThe work of each stage for " << format_count(plan.sizes.a) << " objects and " << format_count(plan.sizes.b)
      << " items:\n"
      << floor_line(4.0 * static_cast<double>(plan.sizes.a), 8.0 * static_cast<double>(plan.sizes.b))
      << work_table(lbs_work(plan.sizes));
  return out.str();
}

}  // namespace

std::vector<PathStep> merge_steps(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<PathStep> steps;
  const int total = static_cast<int>(a.size() + b.size());
  // serial_merge runs a fixed number of steps: take them one at a time from the running cursors.
  int a_index = 0, b_index = 0;
  for (int i = 0; i < total; ++i)
    serial_merge<1>(a.data(), a_index, static_cast<int>(a.size()), b.data(), b_index, static_cast<int>(b.size()),
                    Less{}, [&](int, bool from_a, int at_a, int at_b, int) {
                      steps.push_back({from_a, from_a ? at_a : at_b});
                      (from_a ? a_index : b_index)++;
                    });
  return steps;
}

namespace {

/// @p text without the spaces at the ends of its lines.
std::string trim_lines(const std::string& text) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string merge_path_picture(const std::vector<int>& a, const std::vector<int>& b, int nt, int vt) {
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size()), total = na + nb;
  const std::vector<PathStep> steps = merge_steps(a, b);
  // on_path[j][i]: the path visits lattice point (i, j); right[j][i] / down[j][i]: it leaves it
  // to the right (takes A[i]) or down (takes B[j]).
  std::vector<std::vector<bool>> on_path(nb + 1, std::vector<bool>(na + 1)), right = on_path, down = on_path;
  int i = 0, j = 0;
  on_path[0][0] = true;
  for (const PathStep& step : steps) {
    (step.from_a ? right : down)[j][i] = true;
    (step.from_a ? i : j)++;
    on_path[j][i] = true;
  }
  std::ostringstream out;
  out << "  A runs across, B down; the path steps right when the merge takes A[i], down when it takes B[j].\n"
      << "  Thread t's diagonal i + j = " << vt
      << "t is dotted; where the path crosses it, t is written (# is the end).\n\n";
  out << "   A: ";
  for (int x = 0; x < na; ++x) out << std::setw(4) << a[x];
  out << "\n";
  for (int y = 0; y <= nb; ++y) {
    out << "      ";
    for (int x = 0; x <= na; ++x) {
      const bool diagonal = (x + y) % vt == 0;
      std::string point = " ";
      if (x + y == total && on_path[y][x])
        point = "#";
      else if (on_path[y][x])
        point = diagonal ? base36((x + y) / vt) : "o";
      else if (diagonal)
        point = ".";
      out << point << (x < na ? (right[y][x] ? "---" : "   ") : "");
    }
    out << "\n";
    if (y == nb) break;
    out << (y == 0 ? " B:" : "   ") << std::setw(3) << b[y];
    for (int x = 0; x <= na; ++x) out << (down[y][x] ? "|" : " ") << (x < na ? "   " : "");
    out << "\n";
  }
  out << "\n  level 1, the partition kernel: one Merge Path search per tile boundary, in global memory\n";
  for (const Cut& tile : cuts_of(a.data(), na, b.data(), nb, nt * vt))
    out << "    tile " << tile.number << ": diagonals " << tile.first << " .. " << tile.last << ", A[" << tile.a_begin
        << ", " << tile.a_end << "), B[" << tile.b_begin() << ", " << tile.b_end() << ")\n";
  out << "  level 2, each thread of a tile: a Merge Path search of its diagonal (in shared memory), then VT = " << vt
      << " serial steps\n"
      << "    thread  tile  diagonal  cross point  A range    B range    outputs (from)\n";
  for (const Cut& thread : cuts_of(a.data(), na, b.data(), nb, vt)) {
    std::ostringstream range_a, range_b, point, outputs;
    range_a << "[" << thread.a_begin << ", " << thread.a_end << ")";
    range_b << "[" << thread.b_begin() << ", " << thread.b_end() << ")";
    point << "(" << thread.a_begin << ", " << thread.b_begin() << ")";
    for (int s = thread.first; s < thread.last; ++s) {
      const PathStep& step = steps[static_cast<std::size_t>(s)];
      outputs << (step.from_a ? a[step.index] : b[step.index]) << "(" << (step.from_a ? "A" : "B") << step.index
              << ") ";
    }
    out << "    " << std::setw(6) << thread.number << std::setw(6) << thread.number / nt << std::setw(10)
        << thread.first << "  " << std::left << std::setw(13) << point.str() << std::setw(11) << range_a.str()
        << std::setw(11) << range_b.str() << outputs.str() << std::right << "\n";
  }
  return trim_lines(out.str());
}

std::string naive_ranks(const std::vector<int>& a, const std::vector<int>& b) {
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  std::ostringstream out;
  // The merge table's stage that searches per element (its number and name from the table).
  for (const MergeStage<std::int32_t>& stage : merge_stages<std::int32_t>())
    if (stage.traits.work == Work::per_element_search) out << "  stage " << stage.number << " (" << stage.name << ")";
  out << " on the same arrays: A[i] goes to i + lower_bound(B, A[i]), B[j] to j + upper_bound(A, "
         "B[j]),\n  one binary search each ("
      << search_steps(static_cast<std::uint64_t>(nb)) << " and " << search_steps(static_cast<std::uint64_t>(na))
      << " steps at most): O(n log n) reads for an O(n) merge\n";
  out << "    A[i]:     ";
  for (int i = 0; i < na; ++i) out << std::setw(4) << a[i];
  out << "\n    goes to:  ";
  for (int i = 0; i < na; ++i) out << std::setw(4) << i + search_bound<Bounds::lower>(b.data(), nb, a[i], Less{});
  out << "\n    B[j]:     ";
  for (int j = 0; j < nb; ++j) out << std::setw(4) << b[j];
  out << "\n    goes to:  ";
  for (int j = 0; j < nb; ++j) out << std::setw(4) << j + search_bound<Bounds::upper>(a.data(), na, b[j], Less{});
  out << "\n";
  return out.str();
}

const std::vector<int>& talk_lbs_counts() {
  static const std::vector<int> counts = {
      1, 2, 4, 0, 4, 4, 3, 3, 2, 4,  // objects 0-9
      0, 0, 1, 2, 1, 1, 0, 2, 2, 1,  // 10-19
      1, 4, 2, 3, 2, 2, 1, 1, 3, 0,  // 20-29
      2, 1, 1, 3, 4, 2, 2, 4, 0, 4,  // 30-39
  };
  return counts;
}

const std::vector<int>& talk_lbs_objects() {
  static const std::vector<int> objects = {
      0,  1,  1,  2,  2,  2,  2,  4,  4,  4,   // items 0-9
      4,  5,  5,  5,  5,  6,  6,  6,  7,  7,   // 10-19
      7,  8,  8,  9,  9,  9,  9,  12, 13, 13,  // 20-29
      14, 15, 17, 17, 18, 18, 19, 20, 21, 21,  // 30-39
      21, 21, 22, 22, 23, 23, 23, 24, 24, 25,  // 40-49
      25, 26, 27, 28, 28, 28, 30, 30, 31, 32,  // 50-59
      33, 33, 33, 34, 34, 34, 34, 35, 35, 36,  // 60-69
      36, 37, 37, 37, 37, 39, 39, 39, 39,      // 70-78
  };
  return objects;
}

std::string analyze(const Plan& plan) {
  std::string text = "chapter 03 merge --analyze --problem " + std::string(to_string(plan.problem)) + "\n\n";
  switch (plan.problem) {
    case ProblemKind::search:
      return text + search_section(plan);
    case ProblemKind::lbs:
      return text + lbs_section(plan);
    case ProblemKind::merge:
      break;
  }
  return text + merge_section(plan);
}

namespace {

using json = nlohmann::ordered_json;  // keys in the order written: the schema reads top-down

json cut_json(const Cut& cut, const char* a_name, const char* b_name) {
  return {{"first", cut.first},
          {"last", cut.last},
          {std::string(a_name) + "_begin", cut.a_begin},
          {std::string(a_name) + "_end", cut.a_end},
          {std::string(b_name) + "_begin", cut.b_begin()},
          {std::string(b_name) + "_end", cut.b_end()}};
}

/// The small merge: its path step by step, its tiles and its threads (merge_path's cross points).
json merge_path_json() {
  const std::vector<int>& a = kExampleA;
  const std::vector<int>& b = kExampleB;
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  json path = json::array();
  for (const PathStep& step : merge_steps(a, b))
    path.push_back(
        {{"from", step.from_a ? "A" : "B"}, {"index", step.index}, {"key", (step.from_a ? a : b)[step.index]}});
  json tiles = json::array();
  for (const Cut& tile : cuts_of(a.data(), na, b.data(), nb, kExampleThreads * kExampleValues)) {
    json entry = {{"tile", tile.number}};
    entry.update(cut_json(tile, "a", "b"));
    tiles.push_back(entry);
  }
  json threads = json::array();
  for (const Cut& thread : cuts_of(a.data(), na, b.data(), nb, kExampleValues)) {
    json entry = {{"thread", thread.number}, {"tile", thread.number / kExampleThreads}};
    entry.update(cut_json(thread, "a", "b"));
    threads.push_back(entry);
  }
  json a_to = json::array(), b_to = json::array();
  for (int i = 0; i < na; ++i) a_to.push_back(i + search_bound<Bounds::lower>(b.data(), nb, a[i], Less{}));
  for (int j = 0; j < nb; ++j) b_to.push_back(j + search_bound<Bounds::upper>(a.data(), na, b[j], Less{}));
  return {{"a", a},
          {"b", b},
          {"nt", kExampleThreads},
          {"vt", kExampleValues},
          {"ties", "A first"},
          {"path", path},
          {"tiles", tiles},
          {"threads", threads},
          {"naive", {{"a_goes_to", a_to}, {"b_goes_to", b_to}}}};
}

json letters_json(const std::vector<int>& keys) {
  json out = json::array();
  for (int key : keys) out.push_back(std::string(1, static_cast<char>(key)));
  return out;
}

json sorted_search_json() {
  const std::vector<int>& needles = kTalkNeedles;
  const std::vector<int>& haystack = kTalkHaystack;
  std::vector<int> lower(needles.size()), upper(needles.size());
  sorted_search<Bounds::lower>(needles.data(), needles.size(), haystack.data(), haystack.size(), lower.data(), Less{});
  sorted_search<Bounds::upper>(needles.data(), needles.size(), haystack.data(), haystack.size(), upper.data(), Less{});
  return {{"needles", letters_json(needles)}, {"haystack", letters_json(haystack)}, {"lower", lower}, {"upper", upper}};
}

/// The talk's load-balancing example in the schema tools/plot's load_balance module draws.
json load_balance_json() {
  const TalkLbs talk = talk_lbs();
  const std::vector<int>& counts = talk.counts;
  const std::vector<int>& offsets = talk.offsets;
  const int items = talk.items;
  const std::vector<int>& objects = talk.objects;
  const std::vector<int>& ranks = talk.ranks;
  // The merge's steps in order, from the cross points of consecutive diagonals: a step that
  // takes an item gives it its object, a step that takes an offset starts the next object.
  json steps = json::array();
  for (const Cut& step : load_balance_cuts(offsets, items, 1)) {
    if (step.a_end > step.a_begin)
      steps.push_back({{"item", step.a_begin}, {"object", step.b_begin() - 1}});
    else
      steps.push_back({{"starts", step.b_begin()}});
  }
  json tiles = json::array();
  for (const Cut& tile : load_balance_cuts(offsets, items, kLbsThreads * kLbsValues)) {
    json entry = {{"tile", tile.number}};
    entry.update(cut_json(tile, "items", "objects"));
    tiles.push_back(entry);
  }
  return {{"item_name", "item"}, {"object_name", "object"}, {"counts", counts}, {"offsets", offsets},
          {"items", items},      {"objects", objects},      {"ranks", ranks},   {"nt", kLbsThreads},
          {"vt", kLbsValues},    {"steps", steps},          {"tiles", tiles}};
}

json work_json(const Plan& plan) {
  std::vector<WorkRow> rows;
  double read = 0, written = 0;
  const double a = static_cast<double>(plan.sizes.a), b = static_cast<double>(plan.sizes.b);
  const double key = plan.wide_keys ? 8.0 : 4.0;
  switch (plan.problem) {
    case ProblemKind::search:
      rows = plan.wide_keys ? search_work<std::int64_t>(plan.sizes) : search_work<std::int32_t>(plan.sizes);
      read = key * (a + b);
      written = 4.0 * a;
      break;
    case ProblemKind::lbs:
      rows = lbs_work(plan.sizes);
      read = 4.0 * a;
      written = 8.0 * b;
      break;
    case ProblemKind::merge:
      rows = plan.wide_keys ? merge_work<std::int64_t>(plan.sizes) : merge_work<std::int32_t>(plan.sizes);
      read = written = (key + (plan.pairs ? 4.0 : 0.0)) * (a + b);
      break;
  }
  json stages = json::array();
  for (const WorkRow& row : rows)
    stages.push_back({{"stage", row.number},
                      {"name", row.name},
                      {"shape", row.shape},
                      {"global_searches", row.global_searches},
                      {"global_steps", row.global_searches ? row.global_steps : 0},
                      {"shared_searches", row.shared_searches},
                      {"shared_steps", row.shared_searches ? row.shared_steps : 0},
                      {"note", row.note}});
  return {{"problem", to_string(plan.problem)},
          {"a", plan.sizes.a},
          {"b", plan.sizes.b},
          {"key", plan.wide_keys ? "int64" : "int32"},
          {"pairs", plan.pairs},
          {"bytes_read", read},
          {"bytes_written", written},
          {"peak_gbps", kH100PeakGbps},
          {"floor_ms", (read + written) / (kH100PeakGbps * 1e9) * 1e3},
          {"stages", stages}};
}

}  // namespace

std::string analysis_json(const Plan& plan) {
  const json document = {{"analysis", "merge"},
                         {"chapter", "03"},
                         {"merge_path", merge_path_json()},
                         {"sorted_search", sorted_search_json()},
                         {"load_balance", load_balance_json()},
                         {"work", work_json(plan)}};
  return document.dump(1) + "\n";
}

std::string analysis(Format format, const Plan& plan) {
  if (format == Format::json) return analysis_json(plan);
  if (format != Format::table)
    throw UsageError(std::string("--format ") + to_string(format) + ": --analyze prints table or json");
  return analyze(plan);
}

}  // namespace stepwise::merge
