// The library row that knows nothing of offsets: cub::DeviceReduce::ReduceByKey, with the
// segment id of every item as its key (keys = 0 0 0 1 1 3 3 3 ... for offsets 0 3 5 5 8 ...).
//
// Building those keys is a load-balancing search over the offsets (chapter 03's CSR to COO):
// n more 4-byte keys to write once and to read on every call: for float32 values, as many bytes
// again as the values themselves. The chapter builds them on the host with the input, outside the
// timing, so the row times only what a caller holding keys pays. ReduceByKey returns one sum
// per run of equal keys, and an empty segment has no items, hence no run: the row then clears
// out and scatters each run's sum to its segment (two more steps, in the timing), which a
// caller with CSR offsets never needs.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <type_traits>

#include "host/check.hpp"
#include "host/launch.hpp"
#include "segreduce.hpp"

namespace stepwise::segmented {
namespace {

template <class T>
using Wide = std::conditional_t<std::is_integral_v<T>, std::uint32_t, T>;

/// out[unique[r]] = sums[r] for every run r < *runs.
template <class T>
__global__ void scatter_runs(const std::uint32_t* __restrict__ unique, const Wide<T>* __restrict__ sums,
                             const std::int64_t* __restrict__ runs, T* __restrict__ out, std::uint64_t capacity) {
  const std::uint64_t r = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < capacity && static_cast<std::int64_t>(r) < *runs) out[unique[r]] = static_cast<T>(sums[r]);
}

/// The workspace's pieces: CUB's storage, then the unique keys, the sums and the run count.
template <class T>
struct RunScratch {
  unsigned char* temp;
  std::size_t temp_bytes;
  std::uint32_t* unique;
  Wide<T>* sums;
  std::int64_t* runs;
};

template <class T>
RunScratch<T> carve(Workspace& workspace, const SegReduceArgs<T>& args) {
  RunScratch<T> s;
  s.temp_bytes = cub_reduce_by_key_temp_bytes<T>(args.n);
  std::size_t at = aligned_bytes(s.temp_bytes);
  s.temp = workspace.carve<unsigned char>(0, s.temp_bytes);
  s.unique = workspace.carve<std::uint32_t>(at, args.segments);
  at += aligned_bytes(args.segments * sizeof(std::uint32_t));
  s.sums = workspace.carve<Wide<T>>(at, args.segments);
  at += aligned_bytes(args.segments * sizeof(Wide<T>));
  s.runs = workspace.carve<std::int64_t>(at, 1);
  return s;
}

template <class T>
void launch(const SegReduceArgs<T>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  RunScratch<T> s = carve(workspace, args);
  STEPWISE_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
      s.temp, s.temp_bytes, args.segment_ids, s.unique, reinterpret_cast<const Wide<T>*>(args.values), s.sums, s.runs,
      ::cuda::std::plus<Wide<T>>{}, static_cast<std::int64_t>(args.n), stream));
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.out, 0, args.segments * sizeof(T), stream));
  constexpr int kThreads = 256;
  scatter_runs<T><<<grid_of(ceil_div(args.segments, kThreads)), kThreads, 0, stream>>>(s.unique, s.sums, s.runs,
                                                                                       args.out, args.segments);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class T>
std::size_t cub_reduce_by_key_temp_bytes(std::uint64_t n) {
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
      nullptr, bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
      static_cast<const Wide<T>*>(nullptr), static_cast<Wide<T>*>(nullptr), static_cast<std::int64_t*>(nullptr),
      ::cuda::std::plus<Wide<T>>{}, static_cast<std::int64_t>(n)));
  return bytes;
}

template <class T>
SegReduceStage<T> library_cub_reduce_by_key() {
  SegReduceStage<T> stage;
  stage.name = "cub::ReduceByKey";
  stage.lesson = "cub::DeviceReduce::ReduceByKey with segment ids as keys (built outside the timing)";
  stage.kind = RowKind::library;
  stage.launch = launch<T>;
  stage.traits.needs_segment_ids = true;
  return stage;
}

SEGREDUCE_STAGE_ROWS(library_cub_reduce_by_key);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, cub_reduce_by_key_temp_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
