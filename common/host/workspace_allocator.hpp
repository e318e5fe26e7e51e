/// @file workspace_allocator.hpp
/// WorkspaceAllocator: the allocator that hands a Thrust call the bytes of a Workspace, so that a
/// library row that calls Thrust allocates nothing while it is timed. Host code.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "host/workspace.hpp"

namespace stepwise {

/// Bump allocation over a Workspace, for `thrust::cuda::par(allocator).on(stream)` (or
/// `par_nosync`): each request takes the next aligned bytes, and a release gives nothing back
/// (the allocator lives for one call). The bytes handed out are counted in the caller's @p used,
/// so that copies of the allocator never hand out the same bytes twice.
class WorkspaceAllocator {
 public:
  using value_type = char;

  /// An allocator over @p workspace whose handed-out bytes are counted in @p used (start at 0).
  WorkspaceAllocator(Workspace& workspace, std::size_t& used) : workspace_(&workspace), used_(&used) {}

  /// The next @p bytes of the workspace, 256-byte aligned.
  /// @throws std::invalid_argument when the workspace has no room left.
  char* allocate(std::ptrdiff_t bytes) {
    const std::size_t size = aligned_bytes(static_cast<std::size_t>(bytes));
    if (*used_ + size > workspace_->bytes())
      throw std::invalid_argument("thrust asked for " + std::to_string(bytes) + " bytes past the workspace's " +
                                  std::to_string(workspace_->bytes() - *used_) + " free");
    char* pointer = reinterpret_cast<char*>(workspace_->data() + *used_);
    *used_ += size;
    return pointer;
  }
  /// Gives nothing back: the workspace is reused by the next call's allocator.
  void deallocate(char*, std::size_t) {}

 private:
  Workspace* workspace_;
  std::size_t* used_;
};

}  // namespace stepwise
