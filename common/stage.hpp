/// @file stage.hpp
/// A chapter's unit: the stage. A chapter is an ordered table of stages (its kernels, then
/// the library baselines); main, --list, --sweep and the tests all walk that one table.
/// Each stage lives in one file, chapters/NN_name/stages/NN_slug.cu, which defines its
/// kernel, its launcher and its table row. No CUDA header and no option parser here: a
/// stage file includes this and nothing heavy.
#pragma once

#include <string>
#include <vector>

#include "types.hpp"

namespace stepwise {

/// One row of a chapter's stage table: a numbered stage of its own, or a library baseline.
/// @tparam Launch the chapter's launcher type: a function pointer whose arguments are the
///   chapter's buffers (in, out, n, ...), then `const LaunchShape&` and `cudaStream_t`. A
///   launcher only enqueues work, unless the stage says it synchronizes.
template <class Launch>
struct Stage {
  int number = 0;  ///< 1, 2, ... for kernels (numbered() sets them); 0 for library rows
  std::string name;
  std::string lesson;  ///< one line: what changed from the previous stage and why it is faster
  RowKind kind = RowKind::kernel;
  LaunchShape shape;               ///< the shape the stage runs with: the one --sweep found best
  std::vector<LaunchShape> sweep;  ///< the shapes --sweep tries; empty: nothing to tune
  Launch launch = nullptr;         ///< enqueues every launch of the stage; allocates nothing
  /// The launcher reads a value back to the host mid-run (StageInfo::synchronizes).
  bool synchronizes = false;

  /// What --list and --stage need to know.
  StageInfo info() const { return {number, name, lesson, kind, shape, sweep, synchronizes}; }
};

/// @p stages with the kernel rows numbered 1, 2, ... in table order (library rows: 0).
template <class Launch>
std::vector<Stage<Launch>> numbered(std::vector<Stage<Launch>> stages) {
  int number = 0;
  for (Stage<Launch>& stage : stages) stage.number = stage.kind == RowKind::kernel ? ++number : 0;
  return stages;
}

/// The StageInfo of each stage, for ChapterCli.
template <class Launch>
std::vector<StageInfo> describe(const std::vector<Stage<Launch>>& stages) {
  std::vector<StageInfo> infos;
  for (const auto& stage : stages) infos.push_back(stage.info());
  return infos;
}

}  // namespace stepwise
