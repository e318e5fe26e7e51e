/// @file stage.hpp
/// A chapter's unit: the stage. A chapter is an ordered table of stages (its kernels, then
/// the library baselines); main, --list, --sweep, --analyze and the tests all walk that one
/// table. Each stage lives in one file, chapters/NN_name/stages/NN_slug.cu, which defines its
/// kernel, its launcher and its table row, and sets in that row every fact the rest of the
/// chapter needs about it (its traits): nothing outside the file names a stage by number or name.
/// No CUDA header and no option parser here: a stage file includes this and nothing heavy.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "host/types.hpp"

/// @name Explicit instantiations over a chapter's key types
/// A stage factory is a template over the chapter's key type (`SelectStage<K> tuned<K>()`): its
/// file defines it and instantiates it for each key type. The chapter's header names its key types
/// once, in a list macro that applies `X(Key, args...)` to each key, joined by `;`
/// (`#define COMPACTION_FOR_EACH_KEY(X, ...) X(std::int32_t, __VA_ARGS__); X(float, __VA_ARGS__)`),
/// and a row macro built on it (`COMPACTION_STAGE_ROWS(factory)`), so that a stage file ends with
/// one line, `COMPACTION_STAGE_ROWS(tuned);`, and no stage file names a key type.
/// @{

/// Instantiates the stage factory `Row<Key> factory<Key>()` (an X of a chapter's key list).
#define STEPWISE_STAGE_ROW(Key, Row, factory) template Row<Key> factory<Key>()

/// Instantiates the function template `Ret name<Key> params`, whose signature does not name the
/// key (an X of a chapter's key list), e.g. a library's scratch-size query:
/// `COMPACTION_FOR_EACH_KEY(STEPWISE_KEYED_FUNCTION, std::size_t, cub_temp_bytes, (std::size_t, Form, bool));`.
#define STEPWISE_KEYED_FUNCTION(Key, Ret, name, params) template Ret name<Key> params

/// @}

namespace stepwise {

/// The traits of a chapter whose stages need none beyond StageInfo.
struct NoTraits {};

/// One row of a chapter's stage table: a numbered stage of its own, or a library baseline.
/// It is the StageInfo that --list and --stage read, plus what only the chapter reads.
/// @tparam Launch the chapter's launcher type: a function pointer whose arguments are the
///   chapter's operands, then `const LaunchShape&` and `cudaStream_t`. A launcher only
///   enqueues work, unless the stage says it synchronizes.
/// @tparam Traits the chapter's per-stage facts (whether a row keeps the input order, its
///   cost model for --analyze, ...), set in the stage's own file.
///
/// A stage whose file bundles several changes declares one **variant row** per change: the same
/// row with exactly that change undone (leave-one-out), made by variant_of() in the stage's own
/// factory. numbered() gives a variant its stage's number; with_variants() puts the variants
/// right after their stage, as the harness runs them with --variants and the tests check them.
template <class Launch, class Traits = NoTraits>
struct Stage : StageInfo {
  Launch launch = nullptr;  ///< enqueues every launch of the stage; allocates nothing
  Traits traits{};          ///< what the chapter's problem, analysis and tests read about this row
  /// The stage with one change undone each (StageInfo::variant names it); empty in a variant.
  std::vector<Stage> variants;
};

/// A variant row of a stage (`7 - packed flags`: stage 7 whose flag bytes are unpacked and tested
/// one by one). It keeps the stage's name, shape, options and traits, and has no sweep and no
/// shapes by size: it runs at its stage's default shape (change that, or its options, on the returned row). Call it
/// once the stage's own fields are set.
/// @param stage the stage as it stands
/// @param change the change this row undoes, in a few words (StageInfo::variant)
/// @param lesson what this row does in place of the change (--list, the JSON report)
/// @param launch the stage's launcher with that change undone
template <class Launch, class Traits>
Stage<Launch, Traits> variant_of(const Stage<Launch, Traits>& stage, const std::string& change,
                                 const std::string& lesson, Launch launch) {
  Stage<Launch, Traits> row = stage;
  row.variants.clear();
  row.shapes_by_n.clear();
  row.variant = change;
  row.lesson = lesson;
  row.sweep.clear();
  row.launch = launch;
  return row;
}

/// A row as host-only code reads it (an analysis, a report note, a test compiled without CUDA):
/// what --list shows and the chapter's traits, without the launcher.
template <class Traits>
struct RowFacts : StageInfo {
  Traits traits{};
};

/// The rows of @p stages without their launchers.
template <class Launch, class Traits>
std::vector<RowFacts<Traits>> facts_of(const std::vector<Stage<Launch, Traits>>& stages) {
  std::vector<RowFacts<Traits>> rows;
  for (const Stage<Launch, Traits>& stage : stages) {
    RowFacts<Traits> row;
    static_cast<StageInfo&>(row) = stage;
    row.traits = stage.traits;
    rows.push_back(row);
  }
  return rows;
}

/// The numbers of the kernel rows of @p rows for which @p pick is true, in table order (for
/// describe_stage_numbers: `stages 1-3 and 8`).
/// Variant rows are left out: their number is their stage's.
template <class Row, class Pick>
std::vector<int> kernel_numbers_where(const std::vector<Row>& rows, Pick pick) {
  std::vector<int> numbers;
  for (const Row& row : rows)
    if (row.kind == RowKind::kernel && row.variant.empty() && pick(row)) numbers.push_back(row.number);
  return numbers;
}

/// Whether @p stage lists @p option among the chapter options that change it (StageInfo::options).
inline bool changed_by(const StageInfo& stage, const std::string& option) {
  for (const std::string& name : stage.options)
    if (name == option) return true;
  return false;
}

namespace detail {
/// Whether @p Row has variant rows (a Stage), or is a plain row (StageInfo, RowFacts).
template <class Row, class = void>
struct HasVariants : std::false_type {};
template <class Row>
struct HasVariants<Row, std::void_t<decltype(std::declval<const Row&>().variants)>> : std::true_type {};
}  // namespace detail

/// @p stages with the kernel rows numbered 1, 2, ... in table order (library rows: 0); each
/// variant row takes its stage's number.
template <class Row>
std::vector<Row> numbered(std::vector<Row> stages) {
  int number = 0;
  for (Row& stage : stages) {
    stage.number = stage.kind == RowKind::kernel ? ++number : 0;
    if constexpr (detail::HasVariants<Row>::value)
      for (Row& variant : stage.variants) variant.number = stage.number;
  }
  return stages;
}

/// @p stages with each stage's variant rows right after it, in the order its file declares them:
/// what --variants runs, --list shows and the tests check. A row without variants stays as it is.
template <class Row>
std::vector<Row> with_variants(const std::vector<Row>& stages) {
  if constexpr (!detail::HasVariants<Row>::value) {
    return stages;
  } else {
    std::vector<Row> rows;
    for (const Row& stage : stages) {
      rows.push_back(stage);
      rows.back().variants.clear();
      rows.insert(rows.end(), stage.variants.begin(), stage.variants.end());
    }
    return rows;
  }
}

/// The StageInfo of each row, variant rows included (with_variants()), for ChapterCli.
template <class Row>
std::vector<StageInfo> describe(const std::vector<Row>& stages) {
  const std::vector<Row> rows = with_variants(stages);
  return std::vector<StageInfo>(rows.begin(), rows.end());
}

}  // namespace stepwise
