// The tour: runs every chapter (or the ones named with --chapter), prints each chapter's
// table, then one summary: per chapter, the fastest stage that passed against the library.
//
// Options the tour does not know itself are passed to every chapter that has them (so
// `--type float32` goes to the chapters with a --type and skips chapter 00). An option given
// to several chapters whose value one of them refuses (chapter 03's keys are int32 or int64,
// not float32) is dropped for that chapter alone, with a note; an option no chapter has, or a
// value that no chapter takes, stops the tour with exit code 2 before any chapter runs. Every
// chapter's command is checked (`--check-options`, at every size) before the first one runs.
// --format and --output are the tour's own: they apply to the summary. With --sizes, every
// chapter runs once per size, and --reports keeps each run's JSON report (tools/plot
// time-vs-n draws them). With --problems, every chapter runs each problem it lists
// (--list-problems: a label and the options that pick it) at every size instead of its default
// problem; each report is named after the problem and carries its label (`problem`), which
// tools/plot ratio-vs-n groups by. A size that a chapter refuses while it accepts the same options
// at another size (chapter 08's int32 row indices at --n 2^30) is skipped with the chapter's own
// message; options a chapter refuses at every size stop the tour before any chapter runs.
//
// A mode (--analyze, --latency, --surface) changes what a chapter prints rather than how it
// times its stages: the tour then runs only the chapters that have it, each printing its own
// output, with no summary.
//
// Exit code: 0 when every chapter passed, 77 when there is no GPU (with --analyze-without-gpu:
// the analyses instead, and their exit code), 2 for bad options, else 1.
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "chapters.hpp"  // generated: kChapterExecutables, kExtraChapterExecutables
#include "host/cli.hpp"
#include "host/report.hpp"
#include "host/sizes.hpp"
#include "host/sweep_problems.hpp"

namespace {

using stepwise::format_fixed;
using stepwise::shell_quote;

/// Bad input to the tour: one line, exit code 2.
struct TourUsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The chapter options that change what a chapter prints (an analysis, a latency, a surface)
/// rather than how it times its stages. The tour runs a mode on the chapters that have it.
const std::vector<std::string>& modes() {
  static const std::vector<std::string> names = {"--analyze", "--latency", "--surface"};
  return names;
}

/// The tour's own flags: they take no value.
const std::vector<std::string>& tour_flags() {
  static const std::vector<std::string> names = {"--dry-run", "--analyze-without-gpu", "--problems"};
  return names;
}

std::string own_directory() {
  std::vector<char> path(4096);
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0) return ".";
  const std::string self(path.data(), static_cast<std::size_t>(length));
  return self.substr(0, self.find_last_of('/'));
}

/// Runs @p command through the shell; returns its exit code and its stdout.
int capture(const std::string& command, std::string& output) {
  output.clear();
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  for (std::size_t read; (read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, read);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int run_command(const std::string& command) {
  std::fflush(stdout);
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/// A chapter executable and the options it accepts (name -> takes a value).
struct Chapter {
  std::string path;
  std::string name;      ///< chapter_01_reduction
  std::string named_as;  ///< what --chapter said (`01`), empty for the chapters the tour runs by default
  std::map<std::string, bool> options;
  std::vector<std::string> arguments;            ///< the pass-through arguments it accepts
  std::vector<std::vector<std::string>> groups;  ///< the same, one option with its value per entry
  std::string problem;  ///< with --problems: the label of the problem this run is of (else empty)
  std::vector<std::string> problem_arguments;  ///< the options that pick that problem, after `arguments`
};

/// `arguments` rebuilt from `groups`.
std::vector<std::string> flatten(const std::vector<std::vector<std::string>>& groups) {
  std::vector<std::string> arguments;
  for (const std::vector<std::string>& group : groups) arguments.insert(arguments.end(), group.begin(), group.end());
  return arguments;
}

Chapter load_chapter(const std::string& path) {
  Chapter chapter;
  chapter.path = path;
  chapter.name = std::filesystem::path(path).filename().string();
  std::string listing;
  if (capture(shell_quote(path) + " --list-options 2>/dev/null", listing) != 0)
    throw TourUsageError("--chapter " + path + ": not a stepwise chapter (it does not answer --list-options)");
  std::istringstream lines(listing);
  for (std::string name, kind; lines >> name >> kind;) chapter.options[name] = kind == "value";
  return chapter;
}

/// The executable @p wanted names, in @p directory (the tour's own): a chapter by number (`01`),
/// folder name (`01_reduction`), executable name (`chapter_01_reduction`), or a path to one of
/// this project's chapter executables. Anything else is refused.
std::string resolve_chapter(const std::string& wanted, const std::string& directory) {
  namespace fs = std::filesystem;
  std::vector<std::string> known(std::begin(kChapterExecutables), std::end(kChapterExecutables));
  known.insert(known.end(), std::begin(kExtraChapterExecutables), std::end(kExtraChapterExecutables));
  const bool is_path = wanted.find('/') != std::string::npos;
  std::error_code error;
  const fs::path wanted_file = is_path ? fs::weakly_canonical(wanted, error) : fs::path();
  for (const std::string& name : known) {
    if (name.empty()) continue;  // the generated list's end
    const std::string path = directory + "/" + name;
    std::error_code path_error;
    const bool matches =
        is_path ? !error && wanted_file == fs::weakly_canonical(path, path_error) && !path_error
                : name == wanted || name == "chapter_" + wanted || name.rfind("chapter_" + wanted + "_", 0) == 0;
    if (matches) return path;
  }
  if (is_path) throw TourUsageError("--chapter " + wanted + ": not one of this project's chapter executables");
  std::string names;
  for (const char* executable : kChapterExecutables) names += (names.empty() ? "" : ", ") + std::string(executable);
  throw TourUsageError("--chapter " + wanted + ": no such chapter (the chapters: " + names + ")");
}

/// The options of the tour itself.
struct TourOptions {
  std::string format_text = "table";
  stepwise::Format format = stepwise::Format::table;
  std::string output;
  std::vector<std::string> chapters;
  std::string sizes;
  std::string reports;
  bool dry_run = false;
  bool analyze_without_gpu = false;
  bool problems = false;
  std::vector<std::string> passed;  ///< everything else, for the chapters
};

/// The option name of a pass-through argument: `--reps` for `--reps=10`.
std::string option_name(const std::string& argument) { return argument.substr(0, argument.find('=')); }

/// Splits the pass-through arguments into options (with their values) and gives each
/// chapter the ones it accepts. @throws TourUsageError for an option no chapter has, and for a
/// flag given a value.
void distribute(const std::vector<std::string>& passed, std::vector<Chapter>& chapters) {
  static const std::vector<std::string> kReserved = {"--format",        "--output", "--list",         "--list-options",
                                                     "--check-options", "--help",   "--list-problems"};
  for (std::size_t i = 0; i < passed.size(); ++i) {
    const std::string& argument = passed[i];
    if (argument.rfind("--", 0) != 0) throw TourUsageError("unexpected argument '" + argument + "' (see --help)");
    const std::size_t equals = argument.find('=');
    const std::string name = option_name(argument);
    for (const std::string& reserved : kReserved)
      if (name == reserved) throw TourUsageError(name + " cannot be passed to the chapters by the tour (see --help)");
    bool known = false;
    bool takes_value = false;
    for (const Chapter& chapter : chapters) {
      const auto found = chapter.options.find(name);
      if (found == chapter.options.end()) continue;
      known = true;
      takes_value = found->second;
    }
    if (!known) throw TourUsageError("no chapter has the option " + name + " (see --help)");
    if (!takes_value && equals != std::string::npos) throw TourUsageError(name + " is a flag: it takes no value");
    std::vector<std::string> option = {argument};
    if (takes_value && equals == std::string::npos) {
      if (i + 1 == passed.size()) throw TourUsageError(name + " needs a value");
      option.push_back(passed[++i]);
    }
    for (Chapter& chapter : chapters)
      if (chapter.options.count(name) != 0) chapter.groups.push_back(option);
  }
  for (Chapter& chapter : chapters) chapter.arguments = flatten(chapter.groups);
}

std::string join_quoted(const std::vector<std::string>& arguments) {
  std::string text;
  for (const std::string& argument : arguments) text += " " + shell_quote(argument);
  return text;
}

/// A count of --sizes, refused above what any chapter accepts.
std::uint64_t parse_size(const std::string& text) {
  const std::uint64_t n = stepwise::parse_count(text);
  if (n > stepwise::kMaxElements)
    throw std::invalid_argument(text + " is above 2^40, the most elements a chapter accepts");
  return n;
}

/// The element counts of --sizes: `2^16..2^20` (every power of two between), or a comma list.
/// An empty @p text (no --sizes) is one run at each chapter's default size.
std::vector<std::string> parse_sizes(const std::string& text) {
  if (text.empty()) return {""};
  std::vector<std::string> sizes;
  const std::size_t dots = text.find("..");
  try {
    if (dots != std::string::npos) {
      const std::uint64_t from = parse_size(text.substr(0, dots));
      const std::uint64_t to = parse_size(text.substr(dots + 2));
      if (from == 0 || (from & (from - 1)) != 0 || to == 0 || (to & (to - 1)) != 0 || to < from)
        throw std::invalid_argument("a range goes from a power of two up to a power of two, e.g. 2^16..2^28");
      for (std::uint64_t n = from;; n *= 2) {
        sizes.push_back(stepwise::format_count(n));
        if (n == to) break;  // to <= 2^40: the doubling never overflows
      }
    } else {
      std::istringstream list(text);
      for (std::string size; std::getline(list, size, ',');) sizes.push_back(stepwise::format_count(parse_size(size)));
      if (text.back() == ',') throw std::invalid_argument("an empty size after the last comma");
    }
  } catch (const std::invalid_argument& error) {
    throw TourUsageError("--sizes " + text + ": " + error.what());
  }
  return sizes;
}

/// One chapter run, as the summary sees it.
struct Run {
  std::string chapter;
  std::string problem;  ///< the sweep problem's label (--problems), else empty
  std::string size;
  int exit_code = 0;
  nlohmann::json report;
  std::string skipped;  ///< why the chapter refused this size (not run), else empty
};

/// The rows the summary compares: the fastest kernel row that passed, and the first library
/// row that passed and computes the whole problem (no `"matches_library": false`); either may be
/// absent.
struct Picked {
  const nlohmann::json* best = nullptr;
  const nlohmann::json* library = nullptr;
};

Picked pick(const nlohmann::json& report) {
  Picked picked;
  for (const auto& row : report["rows"]) {
    if (row["check"] != "PASS" || row["median_ms"].is_null()) continue;
    if (row["kind"] == "kernel" &&
        (!picked.best || row["median_ms"].get<double>() < (*picked.best)["median_ms"].get<double>()))
      picked.best = &row;
    if (row["kind"] == "library" && !picked.library && row.value("matches_library", true)) picked.library = &row;
  }
  return picked;
}

/// A CSV field: quoted when it holds a comma or a quote.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

/// The summary as data: one entry per run.
nlohmann::json summary_json(const std::vector<Run>& runs) {
  nlohmann::json entries = nlohmann::json::array();
  for (const Run& run : runs) {
    nlohmann::json entry = {{"chapter", run.chapter}, {"size", run.size},   {"exit_code", run.exit_code},
                            {"best", nullptr},        {"library", nullptr}, {"best_over_library", nullptr}};
    if (!run.problem.empty()) entry["problem"] = run.problem;
    if (!run.skipped.empty()) entry["skipped"] = run.skipped;
    if (!run.report.is_null()) {
      const Picked picked = pick(run.report);
      entry["id"] =
          run.report["chapter"]["id"].get<std::string>() + " " + run.report["chapter"]["name"].get<std::string>();
      entry["device"] = run.report["device"]["name"];
      entry["n"] = run.report["n"];
      if (picked.best) entry["best"] = *picked.best;
      if (picked.library) entry["library"] = *picked.library;
      if (picked.best && picked.library)
        entry["best_over_library"] =
            (*picked.library)["median_ms"].get<double>() / (*picked.best)["median_ms"].get<double>();
    }
    entries.push_back(entry);
  }
  return entries;
}

/// One summary line per run, in the columns of the table form.
std::vector<std::string> summary_lines(const nlohmann::json& entries) {
  std::vector<std::string> lines;
  for (const auto& entry : entries) {
    const std::string label =
        entry.value("id", entry["chapter"].get<std::string>()) +
        (entry.contains("problem") ? " " + entry["problem"].get<std::string>() : "") +
        (entry["size"].get<std::string>().empty() ? "" : " n=" + entry["size"].get<std::string>());
    if (entry.contains("skipped")) {
      lines.push_back(label + ": skipped: " + entry["skipped"].get<std::string>());
      continue;
    }
    if (!entry.contains("id")) {
      lines.push_back(label + ": exit code " + std::to_string(entry["exit_code"].get<int>()) + ", no report");
      continue;
    }
    if (entry["best"].is_null()) {
      lines.push_back(label + ": no kernel stage passed");
      continue;
    }
    const auto& best = entry["best"];
    const auto& library = entry["library"];
    char text[256];
    std::snprintf(text, sizeof text, "%-24s %-28s %10s %9s  %-28s %12s", label.c_str(),
                  (std::to_string(best["number"].get<int>()) + " " + best["name"].get<std::string>()).c_str(),
                  format_fixed(best["gbps"].get<double>(), 1).c_str(),
                  format_fixed(best["pct_memcpy"].get<double>(), 1).c_str(),
                  library.is_null() ? "-" : library["name"].get<std::string>().c_str(),
                  entry["best_over_library"].is_null()
                      ? "-"
                      : (format_fixed(entry["best_over_library"].get<double>(), 2) + "x").c_str());
    lines.push_back(text);
  }
  return lines;
}

std::string render_summary(const std::vector<Run>& runs, stepwise::Format format) {
  const nlohmann::json entries = summary_json(runs);
  if (format == stepwise::Format::json) return entries.dump(2) + "\n";
  std::ostringstream out;
  if (format == stepwise::Format::csv) {
    out << "chapter,problem,size,best_stage,gbps,pct_memcpy,library,best_over_library\n";
    for (const auto& entry : entries) {
      const auto& best = entry["best"];
      const auto& library = entry["library"];
      out << entry["chapter"].get<std::string>() << "," << csv_field(entry.value("problem", "")) << ","
          << entry["size"].get<std::string>() << "," << (best.is_null() ? "" : best["name"].get<std::string>()) << ","
          << (best.is_null() ? "" : format_fixed(best["gbps"].get<double>(), 1)) << ","
          << (best.is_null() ? "" : format_fixed(best["pct_memcpy"].get<double>(), 1)) << ","
          << (library.is_null() ? "" : library["name"].get<std::string>()) << ","
          << (entry["best_over_library"].is_null() ? "" : format_fixed(entry["best_over_library"].get<double>(), 3))
          << "\n";
    }
    return out.str();
  }
  const bool markdown = format == stepwise::Format::markdown;
  char header[256];
  std::snprintf(header, sizeof header, "%-24s %-28s %10s %9s  %-28s %12s", "chapter", "best stage (passed)", "GB/s",
                "% memcpy", "library", "best/library");
  out << (markdown ? "```\n" : "\n== stepwise tour: summary ==\n") << header << "\n";
  for (const std::string& line : summary_lines(entries)) out << line << "\n";
  out << "best/library > 1 means the chapter's best stage is faster than the library.\n";
  if (markdown) out << "```\n";
  return out.str();
}

/// How the tour runs a chapter: the mode (if any), the reports' folder, whether to write reports.
struct RunPlan {
  bool mode = false;        ///< a mode: no JSON report, no summary
  std::string report_root;  ///< the folder of the JSON reports
};

/// The report file of one chapter run: `chapter_03_merge-keys-int64-n2^20.json` for a problem of
/// --problems, `chapter_03_merge-n2^20.json` without.
std::string report_path(const RunPlan& plan, const Chapter& chapter, const std::string& size) {
  return plan.report_root + "/" + chapter.name +
         (chapter.problem.empty() ? "" : "-" + stepwise::sweep_problem_slug(chapter.problem)) +
         (size.empty() ? "" : "-n" + size) + ".json";
}

/// The arguments of one chapter run, after the executable.
std::string run_arguments(const RunPlan& plan, const Chapter& chapter, const std::string& size) {
  return join_quoted(chapter.arguments) + join_quoted(chapter.problem_arguments) +
         (size.empty() ? "" : " --n " + shell_quote(size)) +
         (plan.mode ? "" : " --format json --output " + shell_quote(report_path(plan, chapter, size)));
}

/// The chapter's error line when it refuses the arguments of its run at @p size (`--check-options`),
/// else an empty text. Each command is checked once.
std::string refusal_at(const RunPlan& plan, const Chapter& chapter, const std::string& size) {
  static std::map<std::string, std::string> checked;
  const std::string check =
      shell_quote(chapter.path) + " --check-options" + run_arguments(plan, chapter, size) + " 2>&1 >/dev/null";
  const auto found = checked.find(check);
  if (found != checked.end()) return found->second;
  std::string error;
  if (capture(check, error) == 0)
    error.clear();
  else if (error.empty())
    error = "--check-options failed without a message";
  return checked[check] = error;
}

/// Whether the chapter accepts the arguments of its run at one size at least: one of @p sizes, or
/// else its default size (the sizes it refuses are then skipped, not an error of the options).
/// false with the chapter's first error line.
bool check_options(const RunPlan& plan, const Chapter& chapter, const std::vector<std::string>& sizes,
                   std::string& error) {
  std::string first;
  for (const std::string& size : sizes) {
    error = refusal_at(plan, chapter, size);
    if (error.empty()) return true;
    if (first.empty()) first = error;
  }
  if (std::find(sizes.begin(), sizes.end(), "") == sizes.end() && refusal_at(plan, chapter, "").empty()) return true;
  error = first;
  return false;
}

/// The problems @p chapter lists for the size sweep (`--list-problems`): none when it has no such
/// flag (a chapter that is not a Chapter spec, like the harness's test chapter).
std::vector<stepwise::SweepProblem> load_problems(const Chapter& chapter) {
  if (chapter.options.count("--list-problems") == 0) return {};
  std::string listing;
  if (capture(shell_quote(chapter.path) + " --list-problems 2>/dev/null", listing) != 0)
    throw std::runtime_error(chapter.name + " --list-problems failed");
  try {
    return stepwise::parse_sweep_problem_listing(listing);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(chapter.name + ": " + error.what());
  }
}

/// --problems: each chapter replaced by one entry per problem it lists, in its order. A chapter
/// that lists none is left out, with a note added to @p notes. @throws TourUsageError when an
/// option given to the tour is one that a chapter's problems set themselves, or when no chapter
/// lists a problem.
std::vector<Chapter> expand_problems(const std::vector<Chapter>& chapters, std::vector<std::string>& notes) {
  std::vector<Chapter> entries;
  for (const Chapter& chapter : chapters) {
    const std::vector<stepwise::SweepProblem> problems = load_problems(chapter);
    if (problems.empty()) {
      notes.push_back(chapter.name + " lists no problems to sweep (no library row to compare): left out");
      continue;
    }
    for (const std::vector<std::string>& group : chapter.groups)
      for (const stepwise::SweepProblem& problem : problems)
        for (const std::string& argument : problem.arguments)
          if (argument == option_name(group.front()))
            throw TourUsageError(option_name(group.front()) + ": with --problems, " + chapter.name +
                                 "'s problems set it themselves (see its --list-problems)");
    for (const stepwise::SweepProblem& problem : problems) {
      Chapter entry = chapter;
      entry.problem = problem.label;
      entry.problem_arguments = problem.arguments;
      entries.push_back(entry);
    }
  }
  if (entries.empty()) throw TourUsageError("--problems: none of these chapters lists problems to sweep");
  return entries;
}

/// The name of one entry in notes and skip lines: `chapter_03_merge`, or with a problem
/// `chapter_03_merge (keys int64)`.
std::string entry_name(const Chapter& chapter) {
  return chapter.name + (chapter.problem.empty() ? "" : " (" + chapter.problem + ")");
}

/// The message of a chapter's error, without the chapter's own name in front.
std::string first_error(const std::string& error) {
  const std::string line = error.substr(0, error.find('\n'));
  const std::size_t marker = line.find(": error: ");
  return marker == std::string::npos ? line : line.substr(marker + 9);
}

/// A CLI11 check that refuses an empty value.
CLI::Validator non_empty() {
  return CLI::Validator([](const std::string& value) { return value.empty() ? std::string("an empty value") : ""; },
                        "");
}

/// The modes among the pass-through arguments.
std::vector<std::string> modes_given(const std::vector<std::string>& passed) {
  std::vector<std::string> given;
  for (const std::string& argument : passed) {
    const std::string name = option_name(argument);
    if (std::find(modes().begin(), modes().end(), name) != modes().end() &&
        std::find(given.begin(), given.end(), name) == given.end())
      given.push_back(name);
  }
  return given;
}

/// Keeps the chapters that have every mode given. Chapters named with --chapter must have them.
void select_mode_chapters(const std::vector<std::string>& given, bool named, std::vector<Chapter>& chapters) {
  std::vector<Chapter> selected;
  for (const Chapter& chapter : chapters) {
    bool has_all = true;
    for (const std::string& mode : given) {
      if (chapter.options.count(mode) != 0) continue;
      if (named) throw TourUsageError("--chapter " + chapter.named_as + ": " + chapter.name + " has no " + mode);
      has_all = false;
    }
    if (has_all) selected.push_back(chapter);
  }
  if (selected.empty()) {
    std::string names;
    for (const std::string& mode : given) names += (names.empty() ? "" : " and ") + mode;
    throw TourUsageError("no chapter has " + names);
  }
  chapters = selected;
}

/// Creates the folder of --reports (and its parents) when it does not exist.
void create_reports_folder(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(folder, error)) {
    if (!fs::is_directory(folder, error)) throw TourUsageError("--reports " + folder + ": not a directory");
    if (access(folder.c_str(), W_OK) != 0) throw TourUsageError("--reports " + folder + ": not writable");
    return;
  }
  fs::create_directories(folder, error);
  if (error) throw TourUsageError("--reports " + folder + ": cannot create it: " + error.message());
}

/// Without a GPU, with --analyze-without-gpu: one line saying so, then the analysis of every
/// chapter given that has --analyze, at its default size. The exit code of the analyses, or 77
/// when none of the chapters has one.
int analyze_instead(const std::vector<Chapter>& chapters) {
  std::vector<const Chapter*> analyzed;
  for (const Chapter& chapter : chapters)
    if (chapter.options.count("--analyze") != 0) analyzed.push_back(&chapter);
  if (analyzed.empty()) {
    std::fprintf(stderr, "tour: skipped: no CUDA-capable GPU found, and no chapter here has --analyze\n");
    return stepwise::kExitNoDevice;
  }
  std::cout << "\ntour: no CUDA-capable GPU here, so no timings; instead, what each stage will do (each chapter's "
               "--analyze at its default size, which needs no GPU):\n";
  int failed = 0;
  for (const Chapter* chapter : analyzed) {
    std::cout << "\n== " << chapter->name << " --analyze ==\n";
    if (run_command(shell_quote(chapter->path) + " --analyze") != 0) ++failed;
  }
  std::cout << "\ntour: the analyses above need no GPU; the timed tables and the summary need a CUDA-capable GPU.\n";
  return failed == 0 ? stepwise::kExitOk : stepwise::kExitFailed;
}

int tour(int argc, char** argv) {
  TourOptions options;
  CLI::App app("stepwise tour: every chapter with the given options, then a one-screen summary");
  app.allow_extras();
  app.add_option("--format", options.format_text, "Format of the summary: table, markdown, csv or json")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "markdown", "csv", "json"}));
  app.add_option("--output", options.output, "Also write the summary, in --format, to this file")->check(non_empty());
  app.add_option("--chapter", options.chapters,
                 "Run only this chapter (repeatable): 01, 01_reduction, chapter_01_reduction, or a path to one of "
                 "this project's chapter executables")
      ->check(non_empty());
  app.add_option("--sizes", options.sizes,
                 "Run every chapter once per size: 2^16..2^28 (each power of two between) or a comma list; at most "
                 "2^40")
      ->check(non_empty());
  app.add_option("--reports", options.reports,
                 "Keep each run's JSON report in this folder (created if it does not exist)")
      ->check(non_empty());
  app.add_flag("--problems", options.problems,
               "Run each problem every chapter lists (its --list-problems: a label and the options that pick it) "
               "instead of its default problem, at every size of --sizes; each report is named after its problem "
               "and carries its label, for tools/plot ratio-vs-n");
  app.add_flag("--dry-run", options.dry_run,
               "Check every chapter's options, print the command of every chapter run, "
               "and run nothing");
  app.add_flag("--analyze-without-gpu", options.analyze_without_gpu,
               "Without a GPU, say that the timings need one and print each chapter's --analyze instead (exit 0 "
               "when they pass; what `cmake --workflow --preset tour` does)");
  app.footer(
      "Every other option is passed to the chapters that have it (see a chapter's --help): e.g. --reps 10, "
      "--warm-cache, --type float32, --sweep. A mode (--analyze, --latency, --surface) runs only the chapters that "
      "have it, each printing its own output: no summary, no reports. A size that a chapter refuses while it "
      "accepts the same options at another size is skipped, with the chapter's reason on one line.\nExit code: 0 "
      "when every chapter run passed, 77 without a GPU (the tour stops at the first chapter that finds none), 2 for "
      "bad options (checked before any chapter runs), else 1.");
  for (int i = 1; i < argc; ++i)
    for (const std::string& flag : tour_flags())
      if (std::string(argv[i]).rfind(flag + "=", 0) == 0) throw TourUsageError(flag + " is a flag: it takes no value");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return stepwise::kExitOk;
  } catch (const CLI::ParseError& error) {
    throw TourUsageError(std::string(error.what()) + " (see --help)");
  }
  options.passed = app.remaining();
  options.format = stepwise::parse_format(options.format_text);
  const std::vector<std::string> given_modes = modes_given(options.passed);
  if (!given_modes.empty()) {
    for (const char* summary_option : {"--format", "--output", "--reports", "--problems"})
      if (app.count(summary_option) != 0)
        throw TourUsageError(std::string(summary_option) + " does nothing with " + given_modes.front() +
                             ": a mode prints each chapter's own output, with no summary and no reports");
    if (options.analyze_without_gpu && options.problems)
      throw TourUsageError("--problems does nothing with --analyze-without-gpu");
    if (options.analyze_without_gpu && given_modes.front() == "--analyze")
      throw TourUsageError("--analyze-without-gpu does nothing with --analyze, which needs no GPU");
  }
  if (!options.output.empty()) {
    try {
      stepwise::require_writable(options.output, "--output");
    } catch (const stepwise::UsageError& error) {
      throw TourUsageError(error.what());
    }
  }
  const std::vector<std::string> sizes = parse_sizes(options.sizes);

  const std::string directory = own_directory();
  std::vector<Chapter> chapters;
  if (options.chapters.empty()) {
    for (const char* executable : kChapterExecutables) chapters.push_back(load_chapter(directory + "/" + executable));
  } else {
    for (const std::string& wanted : options.chapters) {
      chapters.push_back(load_chapter(resolve_chapter(wanted, directory)));
      chapters.back().named_as = wanted;
    }
  }
  if (!given_modes.empty()) select_mode_chapters(given_modes, !options.chapters.empty(), chapters);
  distribute(options.passed, chapters);
  if (!options.sizes.empty())
    for (const Chapter& chapter : chapters)
      for (const std::string& argument : chapter.arguments)
        if (option_name(argument) == "--n") throw TourUsageError("--n and --sizes exclude each other");

  std::vector<std::string> notes;
  if (options.problems) chapters = expand_problems(chapters, notes);

  RunPlan plan;
  plan.mode = !given_modes.empty();
  plan.report_root = options.reports.empty() ? directory : options.reports;
  if (!options.reports.empty()) create_reports_folder(options.reports);

  // A value one chapter refuses, of an option that other chapters take too, is dropped for that
  // chapter alone; the notes are printed once every chapter has been checked.
  const std::vector<Chapter> given = chapters;
  std::vector<std::pair<std::vector<std::string>, std::string>> refused;  ///< the option, the first refusal
  for (Chapter& chapter : chapters) {
    std::string error;
    if (check_options(plan, chapter, sizes, error)) continue;
    // Refused at every size: an option the chapter refuses. Dropped when other chapters take it.
    bool dropped = false;
    for (std::size_t g = 0; g < chapter.groups.size() && !dropped; ++g) {
      const std::vector<std::string> group = chapter.groups[g];
      if (std::find(given_modes.begin(), given_modes.end(), option_name(group.front())) != given_modes.end())
        continue;  // a mode is never dropped: the chapters without it do not run
      // The chapters given it (the entries of --problems count once per chapter).
      std::set<std::string> receivers;
      for (const Chapter& other : given)
        for (const std::vector<std::string>& option : other.groups)
          if (option == group) receivers.insert(other.name);
      if (receivers.size() < 2) continue;
      Chapter without = chapter;
      without.groups.erase(without.groups.begin() + static_cast<std::ptrdiff_t>(g));
      without.arguments = flatten(without.groups);
      std::string ignored;
      if (!check_options(plan, without, sizes, ignored)) continue;
      notes.push_back(entry_name(chapter) + ": " + first_error(error) + "; it runs without " +
                      join_quoted(group).substr(1));
      refused.emplace_back(group, chapter.name + ": " + first_error(error));
      chapter = without;
      dropped = true;
    }
    if (!dropped) throw TourUsageError(chapter.name + ": " + first_error(error));
  }
  for (const auto& [group, refusal] : refused) {
    bool taken = false;
    for (const Chapter& chapter : chapters)
      for (const std::vector<std::string>& option : chapter.groups) taken = taken || option == group;
    if (!taken) throw TourUsageError(refusal);  // no chapter takes this value
  }
  for (const std::string& note : notes) std::fprintf(stderr, "tour: note: %s\n", note.c_str());

  // What each chapter refuses at one size while it accepts its options at another: skipped.
  std::map<std::pair<std::size_t, std::string>, std::string> refused_sizes;  ///< (chapter, size) -> why
  if (sizes.size() > 1 || !sizes.front().empty())
    for (std::size_t c = 0; c < chapters.size(); ++c)
      for (const std::string& size : sizes) {
        const std::string error = refusal_at(plan, chapters[c], size);
        if (!error.empty()) refused_sizes[{c, size}] = first_error(error);
      }

  // Chapters print their tables; when the summary is not a table, stdout holds the summary alone.
  const std::string redirect = options.format == stepwise::Format::table ? "" : " 1>&2";
  std::vector<Run> runs;
  int completed = 0;
  int skipped = 0;
  int failed = 0;
  for (const std::string& size : sizes) {
    for (std::size_t c = 0; c < chapters.size(); ++c) {
      const Chapter& chapter = chapters[c];
      const auto refused = refused_sizes.find({c, size});
      if (refused != refused_sizes.end()) {
        std::fflush(stdout);
        std::fprintf(stderr, "tour: skipped: %s at --n %s: %s\n", entry_name(chapter).c_str(), size.c_str(),
                     refused->second.c_str());
        Run run;
        run.chapter = chapter.name;
        run.problem = chapter.problem;
        run.size = size;
        run.skipped = refused->second;
        if (!plan.mode) runs.push_back(run);
        continue;
      }
      const std::string command = shell_quote(chapter.path) + run_arguments(plan, chapter, size);
      if (options.dry_run) {
        std::cout << command << "\n";
        continue;
      }
      std::cout << std::flush;
      std::string title = entry_name(chapter);
      for (const std::string& mode : given_modes) title += " " + mode;
      if (!size.empty()) title += " n=" + size;
      std::fprintf(options.format == stepwise::Format::table ? stdout : stderr, "\n== %s ==\n", title.c_str());
      if (!plan.mode) std::remove(report_path(plan, chapter, size).c_str());
      Run run;
      run.chapter = chapter.name;
      run.problem = chapter.problem;
      run.size = size;
      run.exit_code = run_command(command + redirect);
      if (run.exit_code == stepwise::kExitNoDevice && completed == 0) {
        // No GPU on this machine: every other chapter would say the same.
        if (options.analyze_without_gpu) return analyze_instead(chapters);
        std::fprintf(stderr, "tour: skipped: no CUDA-capable GPU found (the timings need one)\n");
        return stepwise::kExitNoDevice;
      }
      ++completed;
      if (run.exit_code == stepwise::kExitNoDevice) {
        ++skipped;
        continue;
      }
      if (run.exit_code != 0) ++failed;
      if (plan.mode) continue;
      const std::string report_file = report_path(plan, chapter, size);
      std::ifstream file(report_file);
      if (file) run.report = nlohmann::json::parse(file, nullptr, false);
      file.close();
      if (run.report.is_discarded()) run.report = nullptr;
      if (!run.report.is_null() && !chapter.problem.empty()) {
        // The problem's label goes into the report, for tools/plot ratio-vs-n and ratio-table.
        std::string arguments;
        for (const std::string& argument : chapter.problem_arguments)
          arguments += (arguments.empty() ? "" : " ") + argument;
        run.report["problem"] = {{"label", chapter.problem}, {"arguments", arguments}};
        stepwise::write_file_atomically(report_file, run.report.dump(2) + "\n");
      }
      runs.push_back(run);
    }
  }
  if (options.dry_run) return stepwise::kExitOk;
  if (!plan.mode) {
    const std::string summary = render_summary(runs, options.format);
    std::cout << summary << std::flush;
    if (!options.output.empty()) stepwise::write_file_atomically(options.output, summary);
  }
  return failed == 0 && skipped == 0 ? stepwise::kExitOk : stepwise::kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = stepwise::kExitFailed;
  try {
    exit_code = tour(argc, argv);
  } catch (const TourUsageError& error) {
    std::fprintf(stderr, "tour: error: %s\n", error.what());
    exit_code = stepwise::kExitUsage;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tour: error: %s\n", error.what());
    exit_code = stepwise::kExitFailed;
  }
  return stepwise::finish_stdout("tour", exit_code);
}
