// Exercise 11-4, solved: one GPU reads and writes each value once, n 2b / C; on G > 1 GPUs the
// parts before the last are read once for their totals (in parallel, p b / R with p = n / G), and
// then every GPU reads and writes its part (2 p b / C).
#include "04_scan_bound.hpp"

namespace stepwise::multigpu::exercises {

double predicted_scan_least_seconds(std::uint64_t n, int gpus, double value_bytes, double read_bytes_per_s,
                                    double copy_bytes_per_s) {
  const double part = static_cast<double>(n) / gpus;
  const double copy = 2.0 * part * value_bytes / copy_bytes_per_s;
  return gpus == 1 ? copy : part * value_bytes / read_bytes_per_s + copy;
}

}  // namespace stepwise::multigpu::exercises
