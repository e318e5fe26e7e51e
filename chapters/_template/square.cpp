// The table of the template chapter and its CPU reference: add a stage by adding its file under
// stages/ and its row here.
#include "square.hpp"

namespace stepwise::square {

std::vector<std::int32_t> square_on_cpu(const std::vector<std::int32_t>& input) {
  std::vector<std::int32_t> output(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) output[i] = square_wrapping(input[i]);
  return output;
}

const std::vector<SquareStage>& square_stages() {
  static const std::vector<SquareStage> table = numbered<SquareStage>({
      one_per_thread(),     // stages/01_one_per_thread.cu
      int4_grid_stride(),   // stages/02_int4_grid_stride.cu
      library_transform(),  // stages/lib_thrust_transform.cu
  });
  return table;
}

}  // namespace stepwise::square
