// Exercise 06-4, solved: the solution is the chapter's stage 2 itself (stages/02_warp_aggregated.cu),
// whose kernel select_warp_aggregated loads and tests as stage 1 does, keeps the lanes past n in the
// warp, and takes its slot from warp_ticket (common/device/warp_aggregate.cuh): __ballot_sync of the
// keeping lanes, one atomicAdd of their __popc by the lowest of them, the base broadcast with
// __shfl_sync, and each lane's rank, the voters below it. Read both.
#include "build_4_warp_aggregated.hpp"

namespace stepwise::compaction::exercises {

template <class K>
SelectStage<K> exercise_06_4_stage() {
  return warp_aggregated<K>();
}

COMPACTION_STAGE_ROWS(exercise_06_4_stage);

}  // namespace stepwise::compaction::exercises
