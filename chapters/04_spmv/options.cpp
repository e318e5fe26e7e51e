#include "options.hpp"

#include <stdexcept>
#include <string>

#include "generators.hpp"
#include "host/mode_options.hpp"
#include "host/report.hpp"
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

const CsrMatrix& MatrixInput::load_integer(std::uint64_t seed, std::size_t value_bytes) {
  load(seed);
  if (integer_bound == 0) {
    integer_bound = make_integer_valued(*matrix, value_bytes, seed);
    if (integer_bound == 0) {
      const bool narrow = value_bytes == sizeof(float);
      throw UsageError("--values integer: " + source_text + " has a row of " + std::to_string(longest_row(*matrix)) +
                       " nonzeros, and " + (narrow ? "float32" : "float64") +
                       " sums a row of integers exactly in every order only up to " + (narrow ? "2^24" : "2^53") +
                       " = " + format_fixed(exact_integer_limit(value_bytes), 0) + " terms of +-1" +
                       (narrow ? " (--type float64 holds integers up to 2^53)" : ""));
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
  cli.app()
      .add_option_function<std::string>(
          "--values",
          [&plan](const std::string& values) {
            plan.values = values == "integer" ? ValueKind::integer : ValueKind::real;
          },
          "The values of the matrix and x: real (the matrix's own, x uniform in [-1, 1), checked within a rounding "
          "bound) or integer (both replaced by integers in [-8, 8] without 0, fewer where the longest row needs it, "
          "so that every partial sum is exact: checked for exact equality)")
      ->check(CLI::IsMember({"real", "integer"}))
      ->default_str("real")
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

void require_exact_integer_sums(const Plan& plan, const CommonOptions& options) {
  if (plan.values != ValueKind::integer) return;
  MatrixInput& input = *plan.input;
  if (integer_value_bound(input.source->size().longest_row, value_bytes(plan)) == 0)
    input.load_integer(options.seed, value_bytes(plan));  // the spec allows a row too long: the matrix decides
}

}  // namespace stepwise::spmv
