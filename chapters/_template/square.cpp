// The table of the template chapter: add a stage by adding its file under stages/ and its row here.
#include "square.hpp"

namespace stepwise::square {

const std::vector<SquareStage>& square_stages() {
  static const std::vector<SquareStage> table = numbered<SquareStage>({
      one_per_thread(),     // stages/01_one_per_thread.cu
      library_transform(),  // stages/lib_thrust_transform.cu
  });
  return table;
}

}  // namespace stepwise::square
