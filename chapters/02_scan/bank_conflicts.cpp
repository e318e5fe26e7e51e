// The --analyze table: the bank conflicts of the transposes, from common/tile_layout.hpp's index maps.
#include "bank_conflicts.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace stepwise::scan {

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

  text << "bank read by each lane of warp 0 at step 0 (the same lanes collide at every step)\n";
  text << "lane";
  for (int vt : vts) text << " | VT=" << std::setw(2) << std::left << vt << std::right;
  text << "\n";
  for (int lane = 0; lane < tile::kWarpSize; ++lane) {
    text << std::setw(4) << lane;
    for (int vt : vts) text << " | " << std::setw(5) << tile::bank_of(tile::thread_order_slot(lane, 0, vt));
    text << "\n";
  }

  const int steps = *std::max_element(vts.begin(), vts.end());
  text << "\nconflict degree of each step (worst warp; 1 = every bank once per warp per step)\n";
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
  for (int vt : vts) {
    const int degree = transpose_conflict_degree(nt, vt);
    const int wavefronts = transpose_wavefronts_per_warp(nt, vt);
    text << "  VT = " << std::setw(2) << vt << ": ";
    if (degree == 1)
      text << "conflict-free";
    else
      text << degree << "-way conflicts";
    text << ", " << wavefronts << " wavefronts for " << vt << " reads (" << std::fixed << std::setprecision(1)
         << static_cast<double>(wavefronts) / vt << "x the ideal)\n";
    text.unsetf(std::ios::fixed);
  }
  return text.str();
}

}  // namespace stepwise::scan
