// The table of chapter 08: the stages in teaching order, then the library composition.
#include "join.hpp"

namespace stepwise::join {

const std::vector<JoinStage>& join_stages() {
  static const std::vector<JoinStage> table = numbered<JoinStage>({
      join_naive(),           // stages/01_naive.cu
      join_sorted_search(),   // stages/02_sorted_search.cu
      join_one_launch(),      // stages/03_one_launch.cu
      join_tuned(),           // stages/04_tuned.cu
      join_library_thrust(),  // stages/lib_thrust_join.cu
  });
  return table;
}

}  // namespace stepwise::join
