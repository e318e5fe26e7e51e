/// @file chapter.hpp
/// Chapter 02 as run_chapter() sees it: its plan (the options, typed) and its spec. Host code
/// only: no CUDA header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/chapter.hpp"
#include "scan.hpp"

namespace stepwise::scan {

/// --type: the elements the chapter scans.
enum class ElementType {
  int32,   ///< added as uint32, wrapping (WrappingAdd)
  float32  ///< FloatAdd, checked against a double scan
};

/// Everything a run needs beyond the common options.
struct Plan {
  ElementType type = ElementType::int32;  ///< --type
  /// What the stages' launches read: --scan, --backoff-ns, --first-poll-ns, --speculative-load (as
  /// `speculative`), --scalar-transpose and --vector-transpose.
  ScanOptions scan;
  int nt = 128;                   ///< --nt: threads per block of --analyze's tile, or of the single pass's
  std::vector<int> vts = {8, 7};  ///< --vt: values per thread, one or more
  bool nt_given = false;          ///< --nt was given
  bool vt_given = false;          ///< --vt was given
  /// The single pass's tile from --nt and --vt (validate() sets it), nullopt when neither is given.
  std::optional<LaunchShape> tile;
};

/// The host memory a run over @p n elements of @p plan's type holds at its peak.
double host_bytes(const Plan& plan, std::uint64_t n);

/// The chapter: info, options, table, --analyze and run.
Chapter<Plan> chapter();

}  // namespace stepwise::scan
