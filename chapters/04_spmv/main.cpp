// Chapter 04: y = A x for a sparse matrix A in CSR form. From a thread per row to merge-based
// load balancing, against cuSPARSE on the same matrix. --matrix picks a generator or a Matrix
// Market file (--n, the default matrix's kind at about n nonzeros); --analyze shows, without a
// GPU, what each stage makes of the matrix's rows (--format json for tools/plot).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "host/harness.hpp"
#include "host/host_memory.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "problem.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::spmv;

/// The matrix of @p options, built: a bad file is bad input (one line, exit code 2).
CsrMatrix load(ChapterOptions& options, std::uint64_t seed) {
  try {
    return options.source->load(seed);
  } catch (const MatrixError& error) {
    throw UsageError("--matrix: " + std::string(error.what()));
  }
}

template <class T>
int run(Session& session, const CsrMatrix& matrix, const ChapterOptions& options, bool wide) {
  session.require_device_bytes(device_bytes_needed(matrix, sizeof(T)), options.source_text);
  for (const std::string& note : options.source->size().notes) session.note(note);
  for (const std::string& note : matrix_notes(matrix, wide)) session.note(note);
  SpmvProblem<T> problem(matrix, session.options().seed);
  // A library row cuSPARSE refused to prepare for this matrix is left out, with the reason.
  std::vector<SpmvStage<T>> table;
  for (const SpmvStage<T>& stage : spmv_stages<T>()) {
    const std::string refusal = problem.library_refusal(stage.name);
    if (refusal.empty())
      table.push_back(stage);
    else if (session.options().selects(stage.name))
      session.note(stage.name + " left out: cuSPARSE refused this matrix (" + refusal + ")");
  }
  return session.run(table, problem, [&](SpmvLaunch<T> launch, const LaunchShape& shape, cudaStream_t stream) {
    problem.launch(launch, shape, stream);
  });
}

/// --analyze prints a table (text) or JSON: any other --format is refused (exit code 2), before
/// the matrix is read or built.
void require_analysis_format(Format format) {
  if (format != Format::table && format != Format::json)
    throw UsageError(std::string("--format ") + to_string(format) + ": --analyze prints table or json");
}

/// What --analyze prints: the text report with the matrix's notes after it, or one JSON document
/// (--format json) that holds them.
std::string analysis(Format format, const CsrMatrix& matrix, const std::vector<std::string>& notes) {
  if (format == Format::json) return analyze_json(matrix, AnalysisShapes{}, notes);
  std::string text = analyze(matrix, AnalysisShapes{});
  for (const std::string& note : notes) text += "note: " + note + "\n";
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(chapter_info(), describe(spmv_stages<float>()));
    ChapterOptions options;
    add_chapter_options(cli, options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    if (options.analyze) require_analysis_format(cli.options().format);

    // The matrix is known by its size only: memory first (the host's, then the GPU's once it is
    // open). A file is read and checked whole before the GPU is touched (a bad entry is bad input,
    // exit code 2, on any machine); a generator builds its matrix once the GPU is open.
    const MatrixSize& size = options.source->size();
    const bool wide = wide_values(options);
    const std::size_t value_bytes = wide ? sizeof(double) : sizeof(float);
    require_host_bytes(host_bytes_needed(size, value_bytes, options.analyze), options.source_text);
    std::optional<CsrMatrix> matrix;
    if (options.analyze || !options.source->generated()) matrix = load(options, cli.options().seed);
    if (options.analyze) {
      std::cout << analysis(cli.options().format, *matrix, size.notes);
      return static_cast<int>(kExitOk);
    }
    Session session(cli);
    session.require_device_bytes(device_bytes_needed(size, value_bytes), options.source_text);
    if (!matrix) matrix = load(options, cli.options().seed);
    return wide ? run<double>(session, *matrix, options, wide) : run<float>(session, *matrix, options, wide);
  });
}
