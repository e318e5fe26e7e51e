#include "analysis.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "host/cli.hpp"
#include "algorithm/merge_path.hpp"

namespace stepwise::join {
namespace {

using json = nlohmann::ordered_json;  // keys in the order written: the schema reads top-down

std::vector<std::int32_t> keys_of(const std::string& letters) {
  return std::vector<std::int32_t>(letters.begin(), letters.end());
}

std::string letter(std::int32_t key) { return std::string(1, static_cast<char>(key)); }

/// The inner-join walk-through's columns: per A row, then per output row.
struct Walkthrough {
  JoinInput input;
  std::vector<std::int32_t> lower, upper, counts, scan;  // scan: one more entry, the row count
  std::vector<std::int32_t> lbs, scan_at_lbs, rank, b_row;
};

Walkthrough walkthrough() {
  Walkthrough w;
  w.input = talk_inner_input();
  const JoinColumns columns = join_columns(w.input, JoinKind::inner);
  const std::size_t a_rows = w.input.a.size();
  w.lower = columns.lower;
  w.upper = columns.upper;
  // An inner join's objects are A's rows alone: B's rows emit nothing and are not scanned.
  w.counts.assign(columns.counts.begin(), columns.counts.begin() + static_cast<long>(a_rows));
  w.scan.assign(columns.offsets.begin(), columns.offsets.begin() + static_cast<long>(a_rows) + 1);
  w.lbs = columns.objects;
  w.rank = columns.ranks;
  for (std::size_t r = 0; r < w.lbs.size(); ++r) {
    w.scan_at_lbs.push_back(w.scan[static_cast<std::size_t>(w.lbs[r])]);
    w.b_row.push_back(w.lower[static_cast<std::size_t>(w.lbs[r])] + w.rank[r]);
  }
  return w;
}

/// The A rows' offsets the expansion merges with the output rows: SCAN[0 .. |A| - 1].
std::vector<std::int32_t> expansion_offsets(const Walkthrough& w) {
  return std::vector<std::int32_t>(w.scan.begin(), w.scan.end() - 1);
}

std::string row(const std::string& label, const std::vector<std::string>& cells, const std::string& note = "") {
  std::ostringstream out;
  out << "  " << std::left << std::setw(13) << label << std::right;
  for (const std::string& cell : cells) out << std::setw(3) << cell;
  if (!note.empty()) out << "     " << note;
  out << "\n";
  return out.str();
}

std::vector<std::string> numbers(const std::vector<std::int32_t>& values) {
  std::vector<std::string> cells;
  for (std::int32_t value : values) cells.push_back(std::to_string(value));
  return cells;
}

std::vector<std::string> letters(const std::vector<std::int32_t>& keys) {
  std::vector<std::string> cells;
  for (std::int32_t key : keys) cells.push_back(letter(key));
  return cells;
}

std::vector<std::int32_t> indices(std::size_t count) {
  std::vector<std::int32_t> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<std::int32_t>(i);
  return out;
}

const char* kind_of_row(std::int32_t a, std::int32_t b) { return a < 0 ? "right" : b < 0 ? "left" : "inner"; }

json letters_json(const std::vector<std::int32_t>& keys) {
  json out = json::array();
  for (std::int32_t key : keys) out.push_back(letter(key));
  return out;
}

}  // namespace

JoinInput talk_inner_input() { return JoinInput{keys_of("AABDFFFFG"), keys_of("AAABCEEFF")}; }

JoinInput talk_outer_input() { return JoinInput{keys_of("AABEEEEFFGHHJJMM"), keys_of("AABBBCCFGGHILL")}; }

std::vector<ExpansionTile> expansion_tiles(const std::vector<std::int32_t>& offsets, int rows, int spacing) {
  if (spacing < 1) throw std::invalid_argument("a tile takes at least one step");
  const int objects = static_cast<int>(offsets.size());
  const int total = rows + objects;
  std::vector<ExpansionTile> tiles;
  for (int first = 0; first < total; first += spacing) {
    ExpansionTile tile;
    tile.first = first;
    tile.last = std::min(total, first + spacing);
    tile.rows_begin = merge_path<Bounds::upper>(CountingIterator<int>{0}, rows, offsets.data(), objects, first, Less{});
    tile.rows_end =
        merge_path<Bounds::upper>(CountingIterator<int>{0}, rows, offsets.data(), objects, tile.last, Less{});
    tile.objects_begin = first - tile.rows_begin;
    tile.objects_end = tile.last - tile.rows_end;
    tiles.push_back(tile);
  }
  return tiles;
}

std::string analysis_text() {
  const Walkthrough w = walkthrough();
  const std::size_t a_rows = w.input.a.size();
  const int rows = static_cast<int>(w.lbs.size());
  std::ostringstream out;
  out << "chapter 08 join --analyze\n\n"
      << "The talk's inner join: the input domain, one column per A row (sorted searches, then the scan)\n"
      << row("index", numbers(indices(a_rows))) << row("A", letters(w.input.a)) << row("B", letters(w.input.b))
      << row("LB", numbers(w.lower), "sorted search: first B key >= A key")
      << row("UB", numbers(w.upper), "sorted search: first B key >  A key")
      << row("COUNTS", numbers(w.counts), "UB - LB")
      << row("SCAN", numbers(std::vector<std::int32_t>(w.scan.begin(), w.scan.end() - 1)),
             "exclusive scan; " + std::to_string(w.scan.back()) + " rows in all")
      << "\nthe output domain, one column per output row (the load-balancing search, then each row's pair)\n"
      << row("output row", numbers(indices(w.lbs.size()))) << row("LBS", numbers(w.lbs), "the A row of each output row")
      << row("SCAN[LBS]", numbers(w.scan_at_lbs)) << row("RANK", numbers(w.rank), "row - SCAN[LBS]")
      << row("LB[LBS]+RANK", numbers(w.b_row), "the B row of each output row");
  const std::vector<std::int32_t> offsets = expansion_offsets(w);
  const int steps = rows + static_cast<int>(offsets.size());
  out << "\nThe load-balancing search merges the " << rows << " output rows with the " << offsets.size()
      << " offsets SCAN[0.." << offsets.size() - 1 << "]: " << steps << " steps.\n(The slide's \"" << a_rows - 1
      << " inputs + " << rows << " outputs\" = " << steps - 1 << " merges SCAN[1.." << offsets.size() - 1
      << "] only: SCAN[0] = 0, where A row 0 starts, need not be searched.)\n"
      << "Tiles of NT x VT = " << kExampleThreads << " x " << kExampleValues << " = "
      << kExampleThreads * kExampleValues << " steps, rows and A rows together:\n";
  int number = 0;
  for (const ExpansionTile& tile : expansion_tiles(offsets, rows, kExampleThreads * kExampleValues))
    out << "  tile " << number++ << ": output rows [" << tile.rows_begin << ", " << tile.rows_end << "), A rows ["
        << tile.objects_begin << ", " << tile.objects_end << ")\n";

  const JoinInput outer = talk_outer_input();
  const JoinPairs pairs = join_reference(outer, JoinKind::outer);
  std::size_t inner = 0, left = 0, right = 0;
  out << "\nThe talk's outer join: " << pairs.size() << " rows\n"
      << "   row  A index  A key  B key  B index  join\n";
  for (std::size_t r = 0; r < pairs.size(); ++r) {
    const std::int32_t a = pairs.a_index[r], b = pairs.b_index[r];
    const std::string kind = kind_of_row(a, b);
    inner += kind == "inner";
    left += kind == "left";
    right += kind == "right";
    out << "  " << std::setw(4) << r << std::setw(9) << a << std::setw(7)
        << (a < 0 ? "---" : letter(outer.a[static_cast<std::size_t>(a)])) << std::setw(7)
        << (b < 0 ? "---" : letter(outer.b[static_cast<std::size_t>(b)])) << std::setw(9) << b << "  " << kind << "\n";
  }
  out << "  " << inner << " inner rows, " << left << " left rows, " << right << " right rows\n";
  return out.str();
}

std::string analysis_json() {
  const Walkthrough w = walkthrough();
  const int rows = static_cast<int>(w.lbs.size());
  const std::vector<std::int32_t> offsets = expansion_offsets(w);
  // The merge's steps in order, from the cross points of consecutive diagonals: a step that
  // takes an output row gives it its A row, a step that takes an offset starts the next A row.
  json steps = json::array();
  for (const ExpansionTile& step : expansion_tiles(offsets, rows, 1)) {
    if (step.rows_end > step.rows_begin)
      steps.push_back({{"item", step.rows_begin}, {"object", step.objects_begin - 1}});
    else
      steps.push_back({{"starts", step.objects_begin}});
  }
  json tiles = json::array();
  int number = 0;
  for (const ExpansionTile& tile : expansion_tiles(offsets, rows, kExampleThreads * kExampleValues))
    tiles.push_back({{"tile", number++},
                     {"first", tile.first},
                     {"last", tile.last},
                     {"items_begin", tile.rows_begin},
                     {"items_end", tile.rows_end},
                     {"objects_begin", tile.objects_begin},
                     {"objects_end", tile.objects_end}});
  const JoinInput outer = talk_outer_input();
  const JoinPairs pairs = join_reference(outer, JoinKind::outer);
  json outer_rows = json::array();
  for (std::size_t r = 0; r < pairs.size(); ++r)
    outer_rows.push_back(
        {{"a", pairs.a_index[r]}, {"b", pairs.b_index[r]}, {"join", kind_of_row(pairs.a_index[r], pairs.b_index[r])}});
  const json document = {
      {"analysis", "join"},
      {"chapter", "08"},
      {"inner_join",
       {{"a", letters_json(w.input.a)},
        {"b", letters_json(w.input.b)},
        {"lower", w.lower},
        {"upper", w.upper},
        {"counts", w.counts},
        {"scan", w.scan},
        {"lbs", w.lbs},
        {"scan_at_lbs", w.scan_at_lbs},
        {"rank", w.rank},
        {"b_row", w.b_row}}},
      {"load_balance",
       {{"item_name", "output row"},
        {"object_name", "A row"},
        {"counts", w.counts},
        {"offsets", offsets},
        {"items", rows},
        {"objects", w.lbs},
        {"ranks", w.rank},
        {"nt", kExampleThreads},
        {"vt", kExampleValues},
        {"steps", steps},
        {"tiles", tiles},
        {"slide_items", rows + static_cast<int>(offsets.size()) - 1}}},
      {"outer_join", {{"a", letters_json(outer.a)}, {"b", letters_json(outer.b)}, {"rows", outer_rows}}}};
  return document.dump(1) + "\n";
}

std::string analysis(Format format) {
  if (format == Format::json) return analysis_json();
  if (format != Format::table)
    throw UsageError(std::string("--format ") + to_string(format) + ": --analyze prints table or json");
  return analysis_text();
}

}  // namespace stepwise::join
