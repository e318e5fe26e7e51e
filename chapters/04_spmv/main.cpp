// Chapter 04: y = A x for a sparse matrix A in CSR form. From a thread per row to merge-based
// load balancing, against cuSPARSE on the same matrix. --matrix picks a generator or a Matrix
// Market file; --analyze shows, without a GPU, what each stage makes of the matrix's rows.
#include <iostream>

#include "analysis.hpp"
#include "harness.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "problem.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::spmv;

template <class T>
int run(const ChapterCli& cli, const CsrMatrix& matrix, bool wide) {
  Session session(cli);
  session.require_device_bytes(device_bytes_needed(matrix, sizeof(T)));
  for (const std::string& note : matrix_notes(matrix, wide)) session.note(note);
  SpmvProblem<T> problem(matrix, session.options().seed);
  return session.run(spmv_stages<T>(), problem,
                     [&](SpmvLaunch<T> launch, const LaunchShape& shape, cudaStream_t stream) {
                       problem.launch(launch, shape, stream);
                     });
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(chapter_info(), describe(spmv_stages<float>()));
    ChapterOptions options;
    add_chapter_options(cli, options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;

    CsrMatrix matrix;
    try {  // a bad spec or file is bad input: one line, exit code 2, before the GPU is touched
      matrix = load_matrix(options.matrix, cli.options().seed);
    } catch (const MatrixError& error) {
      throw UsageError(std::string("--matrix: ") + error.what());
    }
    if (options.analyze) {
      std::cout << analyze(matrix, AnalysisShapes{});
      return static_cast<int>(kExitOk);
    }
    const bool wide = wide_values(options);
    return wide ? run<double>(cli, matrix, wide) : run<float>(cli, matrix, wide);
  });
}
