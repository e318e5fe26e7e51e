#include "scan_reference.hpp"

#include <cmath>

namespace stepwise::scan {

double float_chain_depth(std::size_t i) { return 64.0 + static_cast<double>(i / 256); }

std::vector<double> float_reference(const std::vector<float>& input, ScanKind kind) {
  std::vector<double> reference(input.size());
  double running = 0.0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const double next = running + static_cast<double>(input[i]);
    reference[i] = kind == ScanKind::exclusive ? running : next;
    running = next;
  }
  return reference;
}

std::vector<double> float_error_scale(const std::vector<float>& input) {
  std::vector<double> scale(input.size());
  double absolute_sum = 0.0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    absolute_sum += std::fabs(static_cast<double>(input[i]));
    scale[i] = float_chain_depth(i) * absolute_sum;
  }
  return scale;
}

}  // namespace stepwise::scan
