/// @file surface_report.hpp
/// What `--surface` measures and prints: every selected stage, at 1, 2, 4, ..., 32 distinct
/// keys per warp, for each operation, as speedups over the table's first kernel row (the naive
/// one) in the same cell. Host code only: the renderer is tested on the CPU, and tools/plot's
/// `surface` figure reads the JSON form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/types.hpp"

namespace stepwise::atomics {

/// One stage in one cell of the surface.
struct SurfacePoint {
  std::string op;                   ///< int-add, float-add, double-cas
  int keys_per_warp = 0;            ///< 1, 2, 4, ..., 32
  int number = 0;                   ///< the stage's number (0: a library row)
  std::string stage;                ///< its name
  std::optional<TimingStats> time;  ///< empty when its check failed
  std::string check_detail;         ///< why it failed
};

/// A whole surface run, with what its header says.
struct Surface {
  std::string device;
  std::string sm;
  std::string date;
  std::uint64_t n = 0;
  int bins = 0;
  std::uint64_t seed = 0;
  std::string flush;
  std::string command;
  std::vector<std::string> notes;
  std::vector<SurfacePoint> points;
};

/// The speedup of @p point over the baseline of the same operation and keys per warp (median over
/// median): the first kernel row measured there, as the surface runs the table's first kernel
/// row in every cell. Empty when either has no time.
std::optional<double> speedup_over_naive(const Surface& surface, const SurfacePoint& point);

/// The surface as a text table (Format::table), markdown or JSON (`"kind": "surface"`, read by
/// `tools/plot surface`): one matrix per operation, keys per warp down, stages across, each
/// cell the speedup over the first kernel row, the naive time in the first column.
/// @throws std::invalid_argument for Format::csv.
std::string render_surface(const Surface& surface, Format format);

}  // namespace stepwise::atomics
