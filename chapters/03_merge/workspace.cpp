// The workspace of chapter 03: one device buffer that every row's scratch fits in.
#include <algorithm>

#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// Room for the alignment CUB and Thrust add to their temporary storage.
constexpr std::size_t kLibrarySlack = 4096;

}  // namespace

std::size_t partition_workspace_bytes(std::size_t total) { return (total / kMinTileItems + 2) * sizeof(std::int64_t); }

template <class K>
Workspace make_merge_workspace(std::size_t a_count, std::size_t b_count, bool pairs) {
  const std::size_t library = cub_merge_temp_bytes<K>(a_count, b_count, pairs) + kLibrarySlack;
  return Workspace(std::max(partition_workspace_bytes(a_count + b_count), library));
}

template Workspace make_merge_workspace<std::int32_t>(std::size_t, std::size_t, bool);
template Workspace make_merge_workspace<std::int64_t>(std::size_t, std::size_t, bool);

}  // namespace stepwise::merge
