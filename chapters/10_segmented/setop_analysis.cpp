#include "setop_analysis.hpp"

#include <iomanip>
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

std::string draw_balanced_path(SetOp op, const SetInputs& sets, std::uint64_t spacing) {
  const auto a_count = static_cast<Index>(sets.a.size());
  const auto b_count = static_cast<Index>(sets.b.size());
  const Index total = a_count + b_count;
  std::ostringstream out;
  out << "A:";
  for (SetKey key : sets.a) out << " " << key;
  out << "\nB:";
  for (SetKey key : sets.b) out << " " << key;
  out << "\nMerge Path's order (ties take A first):";
  for (Index i = 0, j = 0; i < a_count || j < b_count;) {
    const bool from_a = i < a_count && (j >= b_count || !(sets.b[j] < sets.a[i]));
    out << " " << (from_a ? element('A', sets.a[i++]) : element('B', sets.b[j++]));
  }
  out << "\nBalanced order (a key's copies paired A, B, A, B, ..., then the extras):";
  for (Index i = 0, j = 0; i < a_count || j < b_count;) {
    const Cut<Index> next = cut_at(sets, i + j + 1);  // one diagonal on: one or two elements more
    for (; i < next.a; ++i) out << " " << element('A', sets.a[i]);
    for (; j < next.b; ++j) out << " " << element('B', sets.b[j]);
  }
  out << "\nPieces of " << spacing << " diagonals (a cut that would split a pair takes one element more):\n";
  Cut<Index> from{0, 0};
  for (Index diagonal = static_cast<Index>(spacing);; diagonal += static_cast<Index>(spacing)) {
    const Index d = diagonal < total ? diagonal : total;
    const Cut<Index> to = cut_at(sets, d);
    const Index merge_a = merge_cut_at(sets, d);
    out << "  diagonal " << std::setw(3) << d << ": Merge Path's cut (" << merge_a << ", " << d - merge_a
        << "), balanced (" << to.a << ", " << to.b << ")" << (to.a != merge_a ? " moved" : "") << "; piece A[" << from.a
        << ", " << to.a << ") B[" << from.b << ", " << to.b << ") keeps:";
    serial_set_op<1 << 20>(op, sets.a.data(), from.a, to.a, sets.b.data(), from.b, to.b,
                           [&](SetKey key) { out << " " << key; });
    out << "\n";
    from = to;
    if (d == total) break;
  }
  return out.str();
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
      const std::uint64_t tiles = n == 0 ? 1 : (n + tile - 1) / tile;
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

}  // namespace stepwise::segmented
