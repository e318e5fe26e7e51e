/// @file parallel.hpp
/// Host-side parallel loops for the CPU halves of the chapters: generating inputs, building
/// references, checking outputs at 2^28 elements. Host code only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace stepwise {

/// Runs @p body(chunk) for every chunk in [0, @p chunk_count), on as many threads as the machine
/// has, each taking the next chunk not yet taken. A chunk's work must depend on the chunk alone
/// (its elements, its random stream), never on the thread that runs it, so that the result is
/// the same with any number of threads. The first exception a chunk throws is rethrown here.
void for_each_chunk(std::int64_t chunk_count, const std::function<void(std::int64_t)>& body);

/// Elements per chunk of the host's parallel loops over whole arrays (2^20: small enough to
/// spread 2^28 elements over every core, large enough that a chunk's start costs nothing).
inline constexpr std::uint64_t kHostChunk = std::uint64_t{1} << 20;

/// Runs @p body(first, last) for the ranges [first, last) that split [0, @p count) into pieces of
/// @p per_chunk elements (the last one shorter), in parallel (for_each_chunk: range k is chunk k).
/// Fewer than @p per_chunk elements run on the calling thread alone.
template <class Body>
void for_each_range(std::uint64_t count, std::uint64_t per_chunk, Body body) {
  for_each_chunk(static_cast<std::int64_t>((count + per_chunk - 1) / per_chunk), [&](std::int64_t chunk) {
    const std::uint64_t first = static_cast<std::uint64_t>(chunk) * per_chunk;
    body(first, std::min(count, first + per_chunk));
  });
}

}  // namespace stepwise
