/// @file options.hpp
/// The chapter's command line: which matrix, which element type, which values (the matrix's own,
/// or small integers checked exactly), or --analyze. Host code only.
///
/// The matrix sets the size of the problem: a generator spec (`--matrix uniform:4194304:16`) or a
/// Matrix Market file (`--matrix web-Google.mtx`) says how large it is, and the report's n is the
/// matrix's nonzero count. The common `--n` asks for the default matrix's kind at about that many
/// nonzeros (scaled_default_matrix), for size sweeps; it excludes --matrix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "host/cli.hpp"
#include "host/types.hpp"
#include "matrix.hpp"

namespace stepwise::spmv {

/// What --help, --list and the report's header say about the chapter. Its default n is the
/// default matrix's nonzero count, which `--n` reproduces.
ChapterInfo chapter_info();

/// The matrix the chapter multiplies by default: the 27-point stencil on a 128 x 128 x 256 grid
/// (4Mi rows, 111,777,784 nonzeros).
inline constexpr const char* kDefaultMatrix = "stencil27:128x128x256";

/// The matrix of a run, as the hooks of the spec build it one step after another: opened by
/// validate_plan (a bad spec, a missing file or a bad header is refused while parsing, nothing is
/// built yet), a file's entries read before the GPU is opened (read_file_before_gpu), a
/// generator's matrix built once the GPU is open. Shared by the copies of a plan.
struct MatrixInput {
  std::optional<MatrixSource> source;  ///< the matrix of --matrix, or of --n (scaled_default_matrix)
  /// What the user typed for the matrix (`--matrix FILE`, `--n 2^20`), or `the default matrix,
  /// --matrix stencil27:128x128x256`: what a refusal of the matrix names.
  std::string source_text;
  std::optional<CsrMatrix> matrix;  ///< the matrix, once built (load)
  /// --values integer: the bound M of the integers that replaced the matrix's values (and that
  /// x is drawn from), once load_integer has replaced them; 0 before, and for real values.
  std::int64_t integer_bound = 0;

  /// The matrix, built from the source the first time (a bad file is bad input: UsageError).
  const CsrMatrix& load(std::uint64_t seed);
  /// The matrix of --values integer: load()'s, its values replaced by integers the first time
  /// (make_integer_valued, for elements of @p value_bytes), M kept in integer_bound.
  /// @throws UsageError naming the matrix when no M keeps its sums exact (a row above 2^24
  ///   nonzeros in float32).
  const CsrMatrix& load_integer(std::uint64_t seed, std::size_t value_bytes);
};

/// Everything a run needs beyond the common options: the options write into it while parsing.
struct Plan {
  std::string matrix = kDefaultMatrix;  ///< --matrix
  bool matrix_given = false;            ///< --matrix was on the command line
  bool wide_values = false;             ///< --type float64
  ValueKind values = ValueKind::real;   ///< --values
  std::shared_ptr<MatrixInput> input = std::make_shared<MatrixInput>();
};

/// Adds --matrix, --type and --values to @p cli, writing into @p plan, gives the common `--n` its
/// meaning here (it excludes --matrix) and records it as typed. --analyze reads --n and --seed (the
/// random generators'); --type and --values are refused beside it.
void add_options(ChapterCli& cli, Plan& plan);

/// Opens the matrix of --matrix or --n (after the common checks, so --check-options opens it too).
/// @throws UsageError naming what was typed, for a bad spec, a missing file or a bad header.
void validate_plan(Plan& plan, const CommonOptions& options);

/// Bytes per value of the matrix, x and y: 4 or 8 (--type float64).
inline std::size_t value_bytes(const Plan& plan) { return plan.wide_values ? sizeof(double) : sizeof(float); }

/// --values integer before the GPU opens: refuses (UsageError naming the matrix) a matrix whose
/// longest row no integer bound keeps exact (integer_value_bound), from the spec's longest row
/// (MatrixSize::longest_row) when that is short enough, else from the matrix itself, built now.
void require_exact_integer_sums(const Plan& plan, const CommonOptions& options);

}  // namespace stepwise::spmv
