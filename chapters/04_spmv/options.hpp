/// @file options.hpp
/// The chapter's command line: which matrix, which element type, or --analyze. Host code only.
///
/// The matrix sets the size of the problem, so the common `--n` is refused: a generator spec
/// (`--matrix uniform:4194304:16`) or a Matrix Market file (`--matrix web-Google.mtx`) says how
/// large it is, and the report's n is the matrix's nonzero count.
#pragma once

#include <string>

#include "cli.hpp"
#include "types.hpp"

namespace stepwise::spmv {

/// What --help, --list and the report's header say about the chapter.
ChapterInfo chapter_info();

/// The matrix the chapter multiplies by default: the 27-point stencil on a 128 x 128 x 256 grid
/// (4Mi rows, 111 million nonzeros).
inline constexpr const char* kDefaultMatrix = "stencil27:128x128x256";

/// The chapter's own options, registered on a ChapterCli by add_chapter_options.
struct ChapterOptions {
  std::string matrix = kDefaultMatrix;
  std::string type = "float32";
  bool analyze = false;
};

/// Adds --matrix, --type and --analyze to @p cli, writing into @p options, and a final check
/// that refuses --n (the matrix sets the size) and the common options --analyze does not use
/// (@p cli and @p options must outlive the parse).
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// True for --type float64.
bool wide_values(const ChapterOptions& options);

}  // namespace stepwise::spmv
