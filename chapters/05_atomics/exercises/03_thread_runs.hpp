/// @file 03_thread_runs.hpp
/// Exercise 05-3 (README.md): the atomics n keys cost under stages 2-5 and under stage 7.
#pragma once

#include <cstdint>
#include <vector>

#include "ops.hpp"

namespace stepwise::atomics::exercises {

/// The atomics of a set of keys under two of the chapter's schemes.
struct KeyAtomics {
  /// Stages 2 to 5: each warp tile of 32 consecutive keys (the last one partial) sends one
  /// atomic per distinct key among its keys.
  std::uint64_t per_group = 0;
  /// Stage 7: each thread walks kKeysPerThread consecutive keys and sends one atomic per run of
  /// equal keys that ends inside them (the thread that n cuts short: its last run too); each warp
  /// of 32 such threads then sends one atomic per distinct key among its threads' last runs.
  std::uint64_t thread_runs = 0;
};

/// Your function: the atomics of @p keys (any count, 0 included) under stages 2-5 and stage 7.
KeyAtomics key_atomics(const std::vector<Key>& keys);

}  // namespace stepwise::atomics::exercises
