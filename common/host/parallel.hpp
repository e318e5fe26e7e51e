/// @file parallel.hpp
/// Host-side parallel loops for the CPU halves of the chapters: generating inputs, building
/// references, checking outputs at 2^28 elements. Host code only.
#pragma once

#include <cstdint>
#include <functional>

namespace stepwise {

/// Runs @p body(chunk) for every chunk in [0, @p chunk_count), on as many threads as the machine
/// has, each taking the next chunk not yet taken. A chunk's work must depend on the chunk alone
/// (its elements, its random stream), never on the thread that runs it, so that the result is
/// the same with any number of threads. The first exception a chunk throws is rethrown here.
void for_each_chunk(std::int64_t chunk_count, const std::function<void(std::int64_t)>& body);

}  // namespace stepwise
