#include "options.hpp"

#include <stdexcept>

#include "host/count_option.hpp"
#include "host/sizes.hpp"

namespace stepwise::spmv {

ChapterInfo chapter_info() {
  ChapterInfo info;
  info.id = "04";
  info.name = "spmv";
  info.title =
      "CSR sparse matrix-vector multiply, from a thread per row to merge-based load balancing, against cuSPARSE";
  info.default_n = 111777784;  // the default matrix's nonzeros: the report's n is the matrix's
  info.min_n = 1;
  info.reference_lesson = "the lecture's csrmul_serial in double, from the values and x as the element type holds them";
  return info;
}

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  std::string generators;
  for (const std::string& synopsis : generator_synopses()) generators += "\n  " + synopsis;
  CLI::Option* matrix = cli.app()
                            .add_option("--matrix", options.matrix,
                                        "The matrix: a Matrix Market file (.mtx, coordinate real/integer/pattern, "
                                        "general or (skew-)symmetric) or a generator, seeded by --seed:" +
                                            generators)
                            ->capture_default_str();
  CLI::Option* type = cli.app()
                          .add_option("--type", options.type, "Element type of the matrix, x and y")
                          ->check(CLI::IsMember({"float32", "float64"}))
                          ->capture_default_str();
  cli.option("--n")
      ->description(
          "Nonzeros, for size sweeps: the default matrix's kind at about N nonzeros, the 27-point stencil on an X x X "
          "x 2X grid with X such that its (3X-2)^2 (6X-2) nonzeros are nearest N (the default, 111777784, is "
          "stencil27:128x128x256); excludes --matrix")
      ->excludes(matrix);
  cli.add_analyze_flag(options.analyze,
                       "Print the matrix's row-length statistics and what each stage makes of them (idle lanes, work "
                       "per thread, the merge item by item for a small matrix), as a table or (--format json) for "
                       "tools/plot; needs no GPU",
                       {"--n", "--seed", "--format"})
      ->excludes(type);
  cli.app().final_callback([&cli, &options] {
    std::string spec = options.matrix;
    options.source_text =
        (cli.option("--matrix")->count() > 0 ? "--matrix " : "the default matrix, --matrix ") + options.matrix;
    const bool scaled = cli.option("--n")->count() > 0;
    if (scaled) {
      CountOption n;
      try {
        n = typed_n(cli);
      } catch (const std::invalid_argument&) {
        return;  // the common options' check names a bad --n
      }
      options.source_text = typed("--n", n);
      try {
        spec = scaled_default_matrix(n.value);
      } catch (const MatrixError& error) {
        throw CLI::ValidationError(options.source_text + ": " + error.what());
      }
    }
    try {
      options.source.emplace(spec);
    } catch (const MatrixError& error) {
      throw CLI::ValidationError((scaled ? options.source_text + ": " : "--matrix: ") + std::string(error.what()));
    }
  });
}

bool wide_values(const ChapterOptions& options) { return options.type == "float64"; }

}  // namespace stepwise::spmv
