#include "options.hpp"

#include <stdexcept>

#include "generators.hpp"
#include "host/mode_options.hpp"
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

const CsrMatrix& MatrixInput::load(std::uint64_t seed) {
  if (!matrix) {
    try {
      matrix = source->load(seed);
    } catch (const MatrixError& error) {
      throw UsageError("--matrix: " + std::string(error.what()));
    }
  }
  return *matrix;
}

void add_options(ChapterCli& cli, Plan& plan) {
  std::string generators;
  for (const std::string& synopsis : generator_synopses()) generators += "\n  " + synopsis;
  CLI::Option* matrix = cli.app()
                            .add_option("--matrix", plan.matrix,
                                        "The matrix: a Matrix Market file (.mtx, coordinate real/integer/pattern, "
                                        "general or (skew-)symmetric) or a generator, seeded by --seed:" +
                                            generators)
                            ->capture_default_str()
                            ->each([&plan](const std::string&) { plan.matrix_given = true; });
  cli.app()
      .add_option_function<std::string>(
          "--type", [&plan](const std::string& type) { plan.wide_values = type == "float64"; },
          "Element type of the matrix, x and y")
      ->check(CLI::IsMember({"float32", "float64"}))
      ->default_str("float32")
      ->excludes(cli.option("--analyze"));
  cli.option("--n")
      ->description(
          "Nonzeros, for size sweeps: the default matrix's kind at about N nonzeros, the 27-point stencil on an X x X "
          "x 2X grid with X such that its (3X-2)^2 (6X-2) nonzeros are nearest N (the default, 111777784, is "
          "stencil27:128x128x256); excludes --matrix")
      ->excludes(matrix);
}

void validate_plan(Plan& plan, const CommonOptions& options) {
  MatrixInput& input = *plan.input;
  std::string spec = plan.matrix;
  input.source_text = (plan.matrix_given ? "--matrix " : "the default matrix, --matrix ") + plan.matrix;
  if (options.n_given) {
    input.source_text = n_as_given(options);
    try {
      spec = scaled_default_matrix(options.n);
    } catch (const MatrixError& error) {
      throw UsageError(input.source_text + ": " + error.what());
    }
  }
  try {
    input.source.emplace(spec);
  } catch (const MatrixError& error) {
    throw UsageError((options.n_given ? input.source_text + ": " : "--matrix: ") + std::string(error.what()));
  }
}

}  // namespace stepwise::spmv
