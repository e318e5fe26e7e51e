#include "host/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace stepwise {

void for_each_chunk(std::int64_t chunk_count, const std::function<void(std::int64_t)>& body) {
  const std::int64_t workers = std::min<std::int64_t>(chunk_count, std::max(1u, std::thread::hardware_concurrency()));
  if (workers <= 1) {
    for (std::int64_t chunk = 0; chunk < chunk_count; ++chunk) body(chunk);
    return;
  }
  std::atomic<std::int64_t> next_chunk{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    try {
      for (std::int64_t chunk = next_chunk++; chunk < chunk_count; chunk = next_chunk++) body(chunk);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next_chunk = chunk_count;  // the other threads stop after their current chunk
    }
  };
  std::vector<std::thread> threads;
  for (std::int64_t worker = 1; worker < workers; ++worker) threads.emplace_back(work);
  work();
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace stepwise
