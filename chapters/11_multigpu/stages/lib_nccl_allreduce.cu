// The library row: ncclAllReduce on the same buffers, one call per GPU inside a group, each on
// that GPU's stream. NCCL picks its algorithm (a ring or a tree, over NVLink, NVSwitch or PCIe)
// and its protocol by size when the communicators are created; NCCL_ALGO=Ring or NCCL_ALGO=Tree in
// the environment forces one, for the whole process (the communicators read it once, at
// ncclCommInitAll), so a row per algorithm is a run per algorithm.
#include "allreduce.cuh"
#include "nccl_check.hpp"

namespace stepwise::multigpu {
namespace {

void launch(const AllReduceOperands& ops, const LaunchShape&) {
  const DeviceTeam& team = *ops.team;
  const ncclDataType_t type = ops.type == Element::float32 ? ncclFloat32 : ncclInt32;
  STEPWISE_NCCL_CHECK(ncclGroupStart());
  for (int g = 0; g < team.size(); ++g)
    STEPWISE_NCCL_CHECK(ncclAllReduce(ops.in[static_cast<std::size_t>(g)], ops.out[static_cast<std::size_t>(g)], ops.n,
                                      type, ncclSum, ops.comms[static_cast<std::size_t>(g)], team.stream(g)));
  STEPWISE_NCCL_CHECK(ncclGroupEnd());
}

}  // namespace

AllReduceStage library_allreduce() {
  AllReduceStage stage;
  stage.name = "ncclAllReduce";
  stage.lesson = "the library on the same buffers: its own ring or tree, protocol and channels";
  stage.kind = RowKind::library;
  stage.launch = launch;
  stage.traits.traffic = Traffic::library;
  stage.traits.needs_comms = true;
  return stage;
}

}  // namespace stepwise::multigpu
