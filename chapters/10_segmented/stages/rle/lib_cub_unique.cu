// The library row without lengths: cub::DeviceSelect::Unique keeps the first key of every run,
// the compaction half of run-length encoding (its run count is the same; the problem checks its
// keys and count, not the lengths it does not write). The gap between this row and Encode is
// what the lengths cost.
#include <cub/device/device_select.cuh>

#include "host/check.hpp"
#include "rle.hpp"

namespace stepwise::segmented {
namespace {

template <class T>
void launch(const RleArgs<T>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  std::size_t bytes = cub_unique_temp_bytes<T>(args.n);
  STEPWISE_CUDA_CHECK(cub::DeviceSelect::Unique(workspace.carve<unsigned char>(0, bytes), bytes, args.keys, args.unique,
                                                args.runs, static_cast<std::int64_t>(args.n), stream));
}

}  // namespace

template <class T>
std::size_t cub_unique_temp_bytes(std::uint64_t n) {
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, bytes, static_cast<const T*>(nullptr),
                                                static_cast<T*>(nullptr), static_cast<std::int64_t*>(nullptr),
                                                static_cast<std::int64_t>(n)));
  return bytes;
}

template <class T>
RleStage<T> library_cub_unique() {
  RleStage<T> stage;
  stage.name = "cub::Unique";
  stage.lesson = "cub::DeviceSelect::Unique: the run keys and count, no lengths";
  stage.kind = RowKind::library;
  stage.launch = launch<T>;
  stage.traits.writes_counts = false;
  stage.matches_library = false;  // no lengths: the size sweep compares the stages with Encode, not with this row
  return stage;
}

RLE_STAGE_ROWS(library_cub_unique);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, cub_unique_temp_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
