/// @file options.hpp
/// The chapter's command line: which matrix, which element type, or --analyze. Host code only.
///
/// The matrix sets the size of the problem: a generator spec (`--matrix uniform:4194304:16`) or a
/// Matrix Market file (`--matrix web-Google.mtx`) says how large it is, and the report's n is the
/// matrix's nonzero count. The common `--n` asks for the default matrix's kind at about that many
/// nonzeros (scaled_default_matrix), for size sweeps; it excludes --matrix.
#pragma once

#include <optional>
#include <string>

#include "host/cli.hpp"
#include "matrix.hpp"
#include "host/types.hpp"

namespace stepwise::spmv {

/// What --help, --list and the report's header say about the chapter. Its default n is the
/// default matrix's nonzero count, which `--n` reproduces.
ChapterInfo chapter_info();

/// The matrix the chapter multiplies by default: the 27-point stencil on a 128 x 128 x 256 grid
/// (4Mi rows, 111,777,784 nonzeros).
inline constexpr const char* kDefaultMatrix = "stencil27:128x128x256";

/// The chapter's own options, registered on a ChapterCli by add_chapter_options, and the matrix
/// they name, opened while parsing.
struct ChapterOptions {
  std::string matrix = kDefaultMatrix;
  std::string type = "float32";
  bool analyze = false;
  /// The matrix of --matrix, or of --n (scaled_default_matrix): opened by the parser's final
  /// callback, so that a bad spec, a missing file or a bad header is refused while parsing
  /// (--check-options included) and nothing is built yet.
  std::optional<MatrixSource> source;
  /// What the user typed for the matrix (`--matrix FILE`, `--n 2^20`), or `the default matrix,
  /// --matrix stencil27:128x128x256`: what a refusal of the matrix names.
  std::string source_text;
};

/// Adds --matrix, --type and --analyze to @p cli, writing into @p options, gives the common
/// `--n` its meaning here (and makes it exclude --matrix), and opens the matrix in the parser's
/// final callback (@p cli and @p options must outlive the parse). --analyze reads --n and --seed
/// (the random generators'); every other option beside it is refused.
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// True for --type float64.
bool wide_values(const ChapterOptions& options);

}  // namespace stepwise::spmv
