// The spec of chapter 04. The matrix is known by its size only until it is needed: memory first
// (the host's, then the GPU's once it is open). A file is read and checked whole before the GPU
// is touched (a bad entry is bad input, exit code 2, on any machine); a generator builds its
// matrix once the GPU is open.
#include "chapter.hpp"

#include <string>
#include <vector>

#include "analysis.hpp"
#include "host/host_memory.hpp"
#include "problem.hpp"

namespace stepwise::spmv {
namespace {

template <class T>
int run(Session& session, const CsrMatrix& matrix, const Plan& plan) {
  session.require_device_bytes(device_bytes_needed(matrix, sizeof(T)), plan.input->source_text);
  for (const std::string& note : plan.input->source->size().notes) session.note(note);
  const std::int64_t integer_bound = plan.input->integer_bound;
  for (const std::string& note : matrix_notes(matrix, plan.wide_values, integer_bound)) session.note(note);
  SpmvProblem<T> problem(matrix, session.options().seed, integer_bound);
  // A library row cuSPARSE refused to prepare for this matrix is left out, with the reason.
  std::vector<SpmvStage<T>> table;
  for (const SpmvStage<T>& stage : spmv_stages<T>()) {
    const std::string refusal = problem.library_refusal(stage);
    if (refusal.empty())
      table.push_back(stage);
    else if (session.options().selects(stage.name))
      session.note(stage.name + " left out: cuSPARSE refused this matrix (" + refusal + ")");
  }
  return session.run(table, problem);
}

/// What --analyze prints: the text report with the matrix's notes after it, or one JSON document
/// (--format json) that holds them. The host memory of the analysis is checked before the matrix
/// is read or built.
std::string analysis(const Plan& plan, const CommonOptions& options) {
  MatrixInput& input = *plan.input;
  const MatrixSize& size = input.source->size();
  require_host_bytes(host_bytes_needed(size, value_bytes(plan), true), input.source_text);
  const CsrMatrix& matrix = input.load(options.seed);
  if (options.format == Format::json) return analyze_json(matrix, AnalysisShapes{}, size.notes);
  std::string text = analyze(matrix, AnalysisShapes{}, analyzed_stages(spmv_stages<float>()));
  for (const std::string& note : size.notes) text += "note: " + note + "\n";
  return text;
}

}  // namespace

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan&) { return chapter_info(); };
  spec.add_options = add_options;
  spec.stages = [](const Plan&) { return describe(spmv_stages<float>()); };
  spec.validate = validate_plan;
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    MatrixInput& input = *plan.input;
    require_host_bytes(host_bytes_needed(input.source->size(), value_bytes(plan), false), input.source_text);
    if (!input.source->generated()) input.load(options.seed);  // a bad file: exit 2 before the GPU
    require_exact_integer_sums(plan, options);                 // a row too long for --values integer too
  };
  spec.analyze = {
      "Print the matrix's row-length statistics and what each stage makes of them (idle lanes, work "
      "per thread, the merge item by item for a small matrix), as a table or (--format json) for "
      "tools/plot; needs no GPU",
      {"--n", "--seed", "--format"},
      {Format::table, Format::json},
      analysis};
  spec.run = [](Session& session, const Plan& plan) {
    MatrixInput& input = *plan.input;
    session.require_device_bytes(device_bytes_needed(input.source->size(), value_bytes(plan)), input.source_text);
    const CsrMatrix& matrix = plan.values == ValueKind::integer
                                  ? input.load_integer(session.options().seed, value_bytes(plan))
                                  : input.load(session.options().seed);
    return plan.wide_values ? run<double>(session, matrix, plan) : run<float>(session, matrix, plan);
  };
  // --n counts nonzeros here: the default matrix's kind (the 27-point stencil) at about n of them.
  spec.problems = {{"stencil27 float32", {"--type", "float32"}}, {"stencil27 float64", {"--type", "float64"}}};
  return spec;
}

}  // namespace stepwise::spmv
