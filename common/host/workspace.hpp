/// @file workspace.hpp
/// The device scratch a chapter's rows share: one byte buffer, allocated before timing, that a
/// row carves into typed pieces (counts per block, look-back statuses, tile boundaries, a
/// library's temporary storage). A row clears what it uses; nothing is allocated while timing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "host/device_buffer.hpp"

namespace stepwise {

/// Rounds @p bytes up to 256, the alignment every piece of a Workspace starts at.
constexpr std::size_t aligned_bytes(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

/// A byte buffer of device memory that rows carve without allocating.
class Workspace {
 public:
  /// @p bytes of device memory (none for 0).
  explicit Workspace(std::size_t bytes = 0) : buffer_(bytes) {}

  unsigned char* data() { return buffer_.data(); }
  std::size_t bytes() const { return buffer_.size(); }

  /// @throws std::invalid_argument when the workspace has fewer than @p bytes.
  void require(std::size_t bytes) const;

  /// @p count elements of T at byte @p offset (a multiple of alignof(T)), checked to fit.
  /// @throws std::invalid_argument when they do not, or when @p offset is misaligned.
  template <class T>
  T* carve(std::size_t offset, std::size_t count) {
    require_carve(offset, count, sizeof(T), alignof(T));
    return reinterpret_cast<T*>(buffer_.data() + offset);
  }

 private:
  void require_carve(std::size_t offset, std::size_t count, std::size_t size, std::size_t alignment) const;

  DeviceBuffer<unsigned char> buffer_;
};

}  // namespace stepwise
