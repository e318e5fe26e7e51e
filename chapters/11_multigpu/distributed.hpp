/// @file distributed.hpp
/// The scan and sort problems of chapter 11 (`--problem scan`, `--problem sort`): n values in all,
/// spread over the GPUs in contiguous parts, each row checked against the CPU, timed as the
/// slowest GPU's time, and reported beside the same work on GPU 0 alone. Host code only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "chapter.hpp"
#include "host/harness.hpp"
#include "host/types.hpp"
#include "sample_sort.hpp"

namespace stepwise::multigpu {

/// The largest n the scan and sort problems take (values in all, on every GPU together): the
/// sort's samples pack a key's global position in 32 bits (kMaxSortKeys). Whether the GPUs and
/// the host hold that many is checked apart, before any allocation.
inline constexpr std::uint64_t kMaxDistributedN = kMaxSortKeys;

/// The samples per GPU of the sort when --samples is not given.
inline constexpr int kDefaultSamples = 64;

/// The checks of --problem scan and sort, from validate: --n in [1, kMaxDistributedN], no
/// --bytes, --size-sweep, --sweep or csv, --samples with the sort only; sets plan.samples to its
/// default for the sort.
/// @throws UsageError naming what was typed.
void validate_distributed(Plan& plan, const CommonOptions& options);

/// The table of --problem scan or sort, as --list and --stage see it.
std::vector<StageInfo> distributed_stage_infos(ProblemKind problem);

/// Runs the scan problem of @p n values on @p gpus GPUs.
int run_scan(Session& session, const Plan& plan, std::size_t n, int gpus);

/// Runs the sort problem of @p n uint32 keys on @p gpus GPUs.
int run_sort(Session& session, const Plan& plan, std::size_t n, int gpus);

/// --analyze for scan and sort: the bytes each GPU sends and receives in each phase for @p n and
/// @p gpus, and the device memory traffic of each row.
std::string analyze_distributed(const Plan& plan, std::size_t n, int gpus);

/// The host memory a scan or sort run of @p n holds (inputs, references, downloads), in bytes.
double distributed_host_bytes(ProblemKind problem, std::size_t n);

}  // namespace stepwise::multigpu
