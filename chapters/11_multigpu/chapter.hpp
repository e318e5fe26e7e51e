/// @file chapter.hpp
/// Chapter 11 as run_chapter() sees it: its plan (the options, typed) and its spec.
/// Host code only: no CUDA header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/chapter.hpp"

namespace stepwise::multigpu {

/// The bytes of the all-reduce's element, float32 or int32.
inline constexpr std::size_t kElementBytes = 4;
/// --analyze's G without --gpus: the smallest team where anything travels.
inline constexpr int kAnalyzedGpus = 2;

/// The collective a run measures (`--problem`).
enum class ProblemKind { allreduce, scan, sort };

/// The keys of `--keys` (--problem sort): uniform 32-bit keys, 16 distinct keys, uniform keys
/// already sorted, or one repeated non-zero key; unset is uniform, and refused beside another problem.
enum class KeysOption { unset, uniform, few, sorted, equal };

/// The element type of `--type` (as chapter.cpp names it).
enum class TypeOption { float32, int32 };

/// Everything a run needs beyond the common options.
/// An H100's rates for --analyze's scan bound: chapter 01's cub::DeviceReduce::Sum (a read-only
/// pass, 3083.5 GB/s at 2^28 int32) and chapter 00's cudaMemcpy (3052 GB/s, bytes read and written).
inline constexpr double kH100ReadTbps = 3.08;
inline constexpr double kH100CopyTbps = 3.05;

struct Plan {
  ProblemKind problem = ProblemKind::allreduce;
  TypeOption type = TypeOption::float32;
  /// --gpus K: the first K visible GPUs; 0 (not given) is every visible GPU.
  int gpus = 0;
  /// --samples S (--problem sort): the regular samples each GPU draws for the splitters; 0 (not
  /// given) is kDefaultSamples for the sort and nothing otherwise.
  int samples = 0;
  /// --keys (--problem sort): the keys' distribution.
  KeysOption keys = KeysOption::unset;
  /// --bytes B: bytes per GPU (0: --n elements per GPU).
  std::uint64_t bytes = 0;
  /// --size-sweep: 8 B, 32 B, ... x4 ... up to 1 GiB per GPU (or --bytes).
  bool size_sweep = false;
  /// --alpha-us, --beta-gbps: the cost model --analyze predicts with.
  double alpha_us = 10.0;
  double beta_gbps = 100.0;
  /// --read-tbps, --copy-tbps (--analyze --problem scan): the rates of a read-only pass and of a
  /// copy on one GPU, with which --analyze bounds the scan's time; 0 (not given) is an H100's,
  /// kH100ReadTbps and kH100CopyTbps.
  double read_tbps = 0.0;
  double copy_tbps = 0.0;
  /// The bytes per GPU of each run, filled in by validation from --n, --bytes and --size-sweep.
  std::vector<std::uint64_t> sizes;
};

/// The chapter: info, options, table, --analyze and run.
Chapter<Plan> chapter();

/// The largest --gpus this machine can run: refuses @p plan's --gpus above @p visible devices
/// (exit 2 naming what was typed); a machine without a GPU (@p visible 0) refuses nothing here,
/// since the run then exits 77.
void require_gpus(const Plan& plan, int visible);

}  // namespace stepwise::multigpu
