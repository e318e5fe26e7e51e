#include "options.hpp"

#include "matrix.hpp"

namespace stepwise::spmv {

ChapterInfo chapter_info() {
  ChapterInfo info;
  info.id = "04";
  info.name = "spmv";
  info.title =
      "CSR sparse matrix-vector multiply, from a thread per row to merge-based load balancing, against cuSPARSE";
  info.default_n = 0;  // the matrix sets the size; the report's n is its nonzero count
  info.min_n = 0;
  info.reference_lesson = "the lecture's csrmul_serial in double, from the values and x as the element type holds them";
  return info;
}

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  std::string generators;
  for (const std::string& synopsis : generator_synopses()) generators += "\n  " + synopsis;
  cli.app()
      .add_option("--matrix", options.matrix,
                  "The matrix: a Matrix Market file (.mtx, coordinate real/integer/pattern, general or "
                  "(skew-)symmetric) or a generator, seeded by --seed:" +
                      generators)
      ->capture_default_str();
  cli.app()
      .add_option("--type", options.type, "Element type of the matrix, x and y")
      ->check(CLI::IsMember({"float32", "float64"}))
      ->capture_default_str();
  CLI::Option* analyze = cli.add_flag(
      "--analyze", options.analyze,
      "Print the matrix's row-length statistics and what each stage makes of them (idle lanes, work per thread); "
      "needs no GPU");
  for (const char* name : {"--stage", "--sweep", "--format", "--output"}) analyze->excludes(cli.option(name));
  cli.app().final_callback([&cli] {
    if (cli.option("--n")->count() > 0)
      throw CLI::ValidationError("--n", "the matrix sets the size of the problem: use --matrix (see --help)");
  });
}

bool wide_values(const ChapterOptions& options) { return options.type == "float64"; }

}  // namespace stepwise::spmv
