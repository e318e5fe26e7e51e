#include "setop_analysis.hpp"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "host/sizes.hpp"

namespace stepwise::segmented {
namespace {

using Index = std::int64_t;

Cut<Index> cut_at(const SetInputs& sets, Index diagonal) {
  return balanced_cut(sets.a.data(), static_cast<Index>(sets.a.size()), sets.b.data(),
                      static_cast<Index>(sets.b.size()), diagonal);
}

Index merge_cut_at(const SetInputs& sets, Index diagonal) {
  return merge_path<Bounds::lower>(sets.a.data(), static_cast<Index>(sets.a.size()), sets.b.data(),
                                   static_cast<Index>(sets.b.size()), diagonal, Less{});
}

/// How many tiles of @p row's shape cut @p n elements (one for an empty input).
std::uint64_t tiles_of(const SetOpRow& row, std::uint64_t n) {
  const auto tile = static_cast<std::uint64_t>(row.shape.threads) * static_cast<std::uint64_t>(row.shape.items);
  return n == 0 ? 1 : (n + tile - 1) / tile;
}

/// `A3` or `B5`: where an element comes from and its key.
std::string element(char side, SetKey key) { return std::string(1, side) + std::to_string(key); }

}  // namespace

std::uint64_t moved_cuts(const SetInputs& sets, std::uint64_t spacing) {
  const auto total = static_cast<Index>(sets.a.size() + sets.b.size());
  std::uint64_t moved = 0;
  for (Index diagonal = 0;; diagonal += static_cast<Index>(spacing)) {
    const Index d = diagonal < total ? diagonal : total;
    if (cut_at(sets, d).a != merge_cut_at(sets, d)) ++moved;
    if (d == total) break;
  }
  return moved;
}

BalancedPath balanced_path(SetOp op, const SetInputs& sets, std::uint64_t spacing) {
  const auto a_count = static_cast<Index>(sets.a.size());
  const auto b_count = static_cast<Index>(sets.b.size());
  const Index total = a_count + b_count;
  BalancedPath path;
  for (Index i = 0, j = 0; i < a_count || j < b_count;) {
    const bool from_a = i < a_count && (j >= b_count || !(sets.b[j] < sets.a[i]));
    path.merge_order.push_back(from_a ? SetElement{'A', i++} : SetElement{'B', j++});
  }
  for (Index i = 0, j = 0; i < a_count || j < b_count;) {
    const Cut<Index> next = cut_at(sets, i + j + 1);  // one diagonal on: one or two elements more
    for (; i < next.a; ++i) path.balanced_order.push_back({'A', i});
    for (; j < next.b; ++j) path.balanced_order.push_back({'B', j});
  }
  Cut<Index> from{0, 0};
  for (Index diagonal = static_cast<Index>(spacing);; diagonal += static_cast<Index>(spacing)) {
    const Index d = diagonal < total ? diagonal : total;
    const Cut<Index> to = cut_at(sets, d);
    BalancedPiece piece;
    piece.diagonal = d;
    piece.merge_a = merge_cut_at(sets, d);
    piece.merge_b = d - piece.merge_a;
    piece.a_begin = from.a;
    piece.a_end = to.a;
    piece.b_begin = from.b;
    piece.b_end = to.b;
    serial_set_op<1 << 20>(op, sets.a.data(), from.a, to.a, sets.b.data(), from.b, to.b,
                           [&](SetKey key) { piece.kept.push_back(key); });
    path.pieces.push_back(std::move(piece));
    from = to;
    if (d == total) break;
  }
  return path;
}

std::string draw_balanced_path(SetOp op, const SetInputs& sets, std::uint64_t spacing) {
  const BalancedPath path = balanced_path(op, sets, spacing);
  const auto key_of = [&](const SetElement& e) { return e.side == 'A' ? sets.a[e.index] : sets.b[e.index]; };
  std::ostringstream out;
  out << "A:";
  for (SetKey key : sets.a) out << " " << key;
  out << "\nB:";
  for (SetKey key : sets.b) out << " " << key;
  out << "\nMerge Path's order (ties take A first):";
  for (const SetElement& e : path.merge_order) out << " " << element(e.side, key_of(e));
  out << "\nBalanced order (a key's copies paired A, B, A, B, ..., then the extras):";
  for (const SetElement& e : path.balanced_order) out << " " << element(e.side, key_of(e));
  out << "\nPieces of " << spacing << " diagonals (a cut that would split a pair takes one element more):\n";
  for (const BalancedPiece& piece : path.pieces) {
    out << "  diagonal " << std::setw(3) << piece.diagonal << ": Merge Path's cut (" << piece.merge_a << ", "
        << piece.merge_b << "), balanced (" << piece.a_end << ", " << piece.b_end << ")"
        << (piece.moved() ? " moved" : "") << "; piece A[" << piece.a_begin << ", " << piece.a_end << ") B["
        << piece.b_begin << ", " << piece.b_end << ") keeps:";
    for (SetKey key : piece.kept) out << " " << key;
    out << "\n";
  }
  return out.str();
}

const SetInputs& setop_example_sets() {
  static const SetInputs sets{{1, 2, 2, 3, 5, 5, 5, 7, 8, 8, 10, 12}, {2, 2, 3, 3, 5, 5, 6, 8, 8, 8, 9, 12}};
  return sets;
}

std::string analyze_set_op(SetOp op, const SetInputs& sets, const std::vector<SetOpRow>& rows) {
  const std::uint64_t a_count = sets.a.size();
  const std::uint64_t b_count = sets.b.size();
  const std::uint64_t n = a_count + b_count;
  const std::uint64_t kept = set_op_on_cpu(op, sets.a, sets.b).size();
  std::ostringstream out;
  out << "set_" << to_string(op) << " of |A| = " << format_grouped(static_cast<std::int64_t>(a_count))
      << " and |B| = " << format_grouped(static_cast<std::int64_t>(b_count))
      << " sorted int32 keys: " << format_grouped(static_cast<std::int64_t>(kept)) << " out (bound "
      << format_grouped(static_cast<std::int64_t>(set_op_bound(op, a_count, b_count))) << ")\n";
  out << "  #  stage                 how it decides                                       searches in global memory\n";
  for (const SetOpRow& row : rows) {
    if (row.traits.work == SetWork::library) continue;
    out << std::setw(3) << row.number << "  " << std::left << std::setw(22) << row.name;
    if (row.traits.work == SetWork::per_element) {
      const std::uint64_t searches = 3 * n + kept;
      out << std::setw(53) << "3 binary searches per element, 1 per kept one" << std::right
          << format_grouped(static_cast<std::int64_t>(searches)) << "\n";
    } else {
      const auto tile = static_cast<std::uint64_t>(row.shape.threads) * static_cast<std::uint64_t>(row.shape.items);
      const std::uint64_t tiles = tiles_of(row, n);
      std::ostringstream how;
      how << format_grouped(static_cast<std::int64_t>(tiles)) << " tiles of " << tile << ", "
          << format_grouped(static_cast<std::int64_t>(moved_cuts(sets, tile))) << " cuts balanced"
          << (row.traits.work == SetWork::tiled ? ", 2 passes" : ", 1 pass");
      out << std::setw(53) << how.str() << std::right << format_grouped(static_cast<std::int64_t>(tiles + 1))
          << " balanced cuts\n";
    }
  }
  if (n <= kDrawnElements) {
    out << "\n" << draw_balanced_path(op, sets, 4);
  } else {
    out << "(inputs of at most " << kDrawnElements << " elements are drawn: try --n 24 --sets duplicates)\n";
  }
  return out.str();
}

namespace {

using json = nlohmann::ordered_json;  // keys in the order written: the schema reads top-down

const char* work_name(SetWork work) {
  switch (work) {
    case SetWork::per_element:
      return "per_element";
    case SetWork::tiled:
      return "tiled";
    case SetWork::one_pass:
      return "one_pass";
    case SetWork::library:
      break;
  }
  return "library";
}

json order_json(const std::vector<SetElement>& order, const SetInputs& sets) {
  json out = json::array();
  for (const SetElement& e : order)
    out.push_back({{"from", std::string(1, e.side)},
                   {"index", e.index},
                   {"key", e.side == 'A' ? sets.a[static_cast<std::size_t>(e.index)]
                                         : sets.b[static_cast<std::size_t>(e.index)]}});
  return out;
}

json path_json(SetOp op, const SetInputs& sets, std::uint64_t spacing) {
  const BalancedPath path = balanced_path(op, sets, spacing);
  json pieces = json::array();
  for (const BalancedPiece& piece : path.pieces)
    pieces.push_back({{"diagonal", piece.diagonal},
                      {"merge_cut", {piece.merge_a, piece.merge_b}},
                      {"cut", {piece.a_end, piece.b_end}},
                      {"moved", piece.moved()},
                      {"a_begin", piece.a_begin},
                      {"a_end", piece.a_end},
                      {"b_begin", piece.b_begin},
                      {"b_end", piece.b_end},
                      {"kept", piece.kept}});
  return {{"op", to_string(op)},
          {"a", sets.a},
          {"b", sets.b},
          {"spacing", spacing},
          {"merge_order", order_json(path.merge_order, sets)},
          {"balanced_order", order_json(path.balanced_order, sets)},
          {"pieces", pieces},
          {"output", set_op_on_cpu(op, sets.a, sets.b)}};
}

}  // namespace

std::string analyze_set_op_json(SetOp op, SetInput input, std::uint64_t seed, const SetInputs& sets,
                                const std::vector<SetOpRow>& rows) {
  const std::uint64_t a_count = sets.a.size();
  const std::uint64_t b_count = sets.b.size();
  const std::uint64_t n = a_count + b_count;
  const std::uint64_t kept = set_op_on_cpu(op, sets.a, sets.b).size();
  json row_list = json::array();
  for (const SetOpRow& row : rows) {
    if (row.traits.work == SetWork::library) continue;
    json one = {{"stage", row.number}, {"name", row.name}, {"work", work_name(row.traits.work)}};
    if (row.traits.work == SetWork::per_element) {
      one["searches"] = 3 * n + kept;
    } else {
      const auto tile = static_cast<std::uint64_t>(row.shape.threads) * static_cast<std::uint64_t>(row.shape.items);
      one["tile"] = tile;
      one["tiles"] = tiles_of(row, n);
      one["moved_cuts"] = moved_cuts(sets, tile);
      one["passes"] = row.traits.work == SetWork::tiled ? 2 : 1;
      one["balanced_cuts"] = tiles_of(row, n) + 1;
    }
    row_list.push_back(one);
  }
  const json document = {{"analysis", "segmented"},
                         {"chapter", "10"},
                         {"problem", "setop"},
                         {"op", to_string(op)},
                         {"sets", to_string(input)},
                         {"n", n},
                         {"seed", seed},
                         {"a_count", a_count},
                         {"b_count", b_count},
                         {"kept", kept},
                         {"bound", set_op_bound(op, a_count, b_count)},
                         {"rows", row_list},
                         {"setop_path", path_json(op, setop_example_sets(), kSetopExampleSpacing)}};
  return document.dump(1) + "\n";
}

}  // namespace stepwise::segmented
