#include "host/workspace.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace stepwise {

void Workspace::require(std::size_t bytes) const {
  if (bytes > buffer_.size())
    throw std::invalid_argument("the workspace has " + std::to_string(buffer_.size()) + " bytes; this row needs " +
                                std::to_string(bytes));
}

void Workspace::require_carve(std::size_t offset, std::size_t count, std::size_t size, std::size_t alignment) const {
  if (offset % alignment != 0)
    throw std::invalid_argument("workspace offset " + std::to_string(offset) + " is not a multiple of " +
                                std::to_string(alignment));
  if (count > (buffer_.size() - std::min(offset, buffer_.size())) / size)
    throw std::invalid_argument("the workspace has " + std::to_string(buffer_.size()) + " bytes; this row needs " +
                                std::to_string(offset) + " + " + std::to_string(count) + " x " + std::to_string(size));
}

}  // namespace stepwise
