// The tour's options, on the CPU: which chapters each option reaches and with which arguments (--dry-run prints the
// command of every chapter run), every refusal (exit code 2, one line, before any chapter runs), and what the tour
// does without a GPU (simulated with CUDA_VISIBLE_DEVICES=-1, so that these tests mean the same on a GPU machine).
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "host/sizes.hpp"
#include "host/sweep_problems.hpp"
#include "process.hpp"

namespace {

using stepwise::test::lines_of;
using stepwise::test::ProcessResult;
using stepwise::test::run_process;

const std::string kTour = STEPWISE_TOUR_EXECUTABLE;

/// The environment of a machine without a GPU, wherever the tests run.
const std::map<std::string, std::string> kNoGpu = {{"CUDA_VISIBLE_DEVICES", "-1"}};

ProcessResult tour(const std::vector<std::string>& arguments, double timeout_seconds = 120) {
  std::vector<std::string> command = {kTour};
  command.insert(command.end(), arguments.begin(), arguments.end());
  return run_process(command, "", kNoGpu, timeout_seconds);
}

/// One chapter run that `tour --dry-run` printed.
struct PlannedRun {
  std::string chapter;    ///< chapter_01_reduction
  std::string arguments;  ///< what comes between the executable and the report: `--reps 10`
  bool report = false;    ///< ends with `--format json --output FILE` (a mode writes none)
  std::string report_file;
};

/// The runs `tour --dry-run ARGUMENTS` plans, in order, and how it ended.
struct DryRun {
  ProcessResult result;
  std::vector<PlannedRun> runs;
  /// The arguments of each chapter's run (the last, with --sizes).
  std::map<std::string, std::string> arguments() const {
    std::map<std::string, std::string> by_chapter;
    for (const PlannedRun& run : runs) by_chapter[run.chapter] = run.arguments;
    return by_chapter;
  }
  std::set<std::string> chapters() const {
    std::set<std::string> names;
    for (const PlannedRun& run : runs) names.insert(run.chapter);
    return names;
  }
};

DryRun dry_run(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "--dry-run");
  DryRun planned;
  planned.result = tour(arguments);
  static const std::regex kReport(R"( --format json --output (\S+)$)");
  for (std::string line : lines_of(planned.result.out)) {
    PlannedRun run;
    std::smatch match;
    if (std::regex_search(line, match, kReport)) {
      run.report = true;
      run.report_file = match[1].str();
      line = match.prefix().str();
    }
    const std::size_t space = line.find(' ');
    run.chapter = std::filesystem::path(line.substr(0, space)).filename().string();
    run.arguments = space == std::string::npos ? "" : line.substr(space + 1);
    planned.runs.push_back(run);
  }
  return planned;
}

/// The chapters the tour runs by default, by name, with their paths.
std::map<std::string, std::string> default_chapters() {
  const ProcessResult result = tour({"--dry-run"});
  REQUIRE(result.exit_code == 0);
  std::map<std::string, std::string> chapters;
  for (const std::string& line : lines_of(result.out)) {
    const std::string path = line.substr(0, line.find(' '));
    chapters[std::filesystem::path(path).filename().string()] = path;
  }
  REQUIRE(chapters.count("chapter_00_bandwidth") == 1);
  REQUIRE(chapters.count("chapter_08_join") == 1);
  return chapters;
}

/// The default chapters whose --list-options names @p option.
std::set<std::string> chapters_with(const std::string& option) {
  std::set<std::string> names;
  for (const auto& [name, path] : default_chapters()) {
    const ProcessResult listing = run_process({path, "--list-options"});
    REQUIRE(listing.exit_code == 0);
    for (const std::string& line : lines_of(listing.out))
      if (line.rfind(option + " ", 0) == 0) names.insert(name);
  }
  return names;
}

/// One line of a chapter's --list-problems: LABEL<TAB>ARGUMENTS[<TAB>max_n=COUNT].
struct ListedProblem {
  std::string label;
  std::string arguments;    ///< as listed: one space between arguments
  std::string limit;        ///< `max_n=2^30-1`, or empty
  std::uint64_t max_n = 0;  ///< the limit's count (0: none)
};

/// What `CHAPTER --list-problems` prints, line by line (exit code 0 required).
std::vector<ListedProblem> listed_problems(const std::string& path) {
  const ProcessResult result = run_process({path, "--list-problems"});
  REQUIRE(result.exit_code == 0);
  REQUIRE(result.err.empty());
  std::vector<ListedProblem> problems;
  for (const std::string& line : lines_of(result.out)) {
    INFO(line);
    const std::size_t tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    ListedProblem problem;
    problem.label = line.substr(0, tab);
    problem.arguments = line.substr(tab + 1);
    const std::size_t second = problem.arguments.find('\t');
    if (second != std::string::npos) {
      problem.limit = problem.arguments.substr(second + 1);
      problem.arguments = problem.arguments.substr(0, second);
      REQUIRE(problem.limit.rfind("max_n=", 0) == 0);
      problem.max_n = stepwise::parse_count(problem.limit.substr(6));
    }
    problems.push_back(problem);
  }
  return problems;
}

/// The words of @p text, split at blanks.
std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream stream(text);
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

/// Exit code 2 with exactly one line on stderr that contains @p words, and nothing run.
void check_refused(const std::vector<std::string>& arguments, const std::string& words) {
  std::string shown;
  for (const std::string& argument : arguments) shown += " '" + argument + "'";
  INFO("tour" << shown);
  const ProcessResult result = tour(arguments, 20);
  CHECK_FALSE(result.timed_out);
  CHECK(result.exit_code == 2);
  const std::vector<std::string> lines = lines_of(result.err);
  REQUIRE(lines.size() == 1);
  CHECK(lines.front().rfind("tour: error: ", 0) == 0);
  CHECK_MESSAGE(lines.front().find(words) != std::string::npos, lines.front());
  CHECK(result.out.empty());
}

}  // namespace

TEST_CASE("the tour passes a common flag to every chapter and no value with it") {
  const std::map<std::string, std::string> chapters = default_chapters();
  const std::vector<std::vector<std::string>> cases = {
      {"--sweep"}, {"--compact"}, {"--warm-cache", "--reps", "10"}, {"--reps=10"}, {"--reps", "10", "--sweep"}};
  for (const std::vector<std::string>& options : cases) {
    std::string joined;
    for (const std::string& option : options) joined += (joined.empty() ? "" : " ") + option;
    INFO("tour --dry-run " << joined);
    const DryRun planned = dry_run(options);
    CHECK(planned.result.exit_code == 0);
    CHECK(planned.result.err.empty());
    REQUIRE(planned.runs.size() == chapters.size());
    for (const PlannedRun& run : planned.runs) {
      INFO(run.chapter);
      CHECK(run.arguments == joined);
      CHECK(run.report);
    }
  }
}

TEST_CASE("the tour passes a chapter's own option only to the chapters that have it") {
  const std::map<std::string, std::string> chapters = default_chapters();
  SUBCASE("a flag: chapter 06's --flags") {
    const std::set<std::string> with_flags = chapters_with("--flags");
    CHECK(with_flags.count("chapter_06_compaction") == 1);
    const DryRun planned = dry_run({"--flags"});
    CHECK(planned.result.exit_code == 0);
    REQUIRE(planned.runs.size() == chapters.size());
    for (const PlannedRun& run : planned.runs) {
      INFO(run.chapter);
      CHECK(run.arguments == (with_flags.count(run.chapter) != 0 ? "--flags" : ""));
    }
  }
  SUBCASE("a value: --type float32 which chapter 03 (int32 or int64 keys) refuses") {
    const std::set<std::string> with_type = chapters_with("--type");
    CHECK(with_type.count("chapter_01_reduction") == 1);
    CHECK(with_type.count("chapter_03_merge") == 1);
    CHECK(with_type.count("chapter_00_bandwidth") == 0);
    const DryRun planned = dry_run({"--type", "float32"});
    CHECK(planned.result.exit_code == 0);
    REQUIRE(planned.runs.size() == chapters.size());
    for (const PlannedRun& run : planned.runs) {
      INFO(run.chapter);
      const bool takes = with_type.count(run.chapter) != 0 && run.chapter != "chapter_03_merge";
      CHECK(run.arguments == (takes ? "--type float32" : ""));
    }
    CHECK(planned.result.err.find("tour: note: chapter_03_merge: --type") != std::string::npos);
    CHECK(planned.result.err.find("it runs without --type float32") != std::string::npos);
  }
}

TEST_CASE("a mode runs only the chapters that have it: each prints its own output and no report") {
  for (const std::string mode : {"--analyze", "--latency", "--surface"}) {
    INFO("tour --dry-run " << mode);
    const std::set<std::string> having = chapters_with(mode);
    REQUIRE_FALSE(having.empty());
    const DryRun planned = dry_run({mode});
    CHECK(planned.result.exit_code == 0);
    CHECK(planned.chapters() == having);
    CHECK(planned.runs.size() == having.size());
    for (const PlannedRun& run : planned.runs) {
      INFO(run.chapter);
      CHECK(run.arguments == mode);
      CHECK_FALSE(run.report);
    }
  }
  CHECK(chapters_with("--latency") == std::set<std::string>{"chapter_00_bandwidth"});
  CHECK(chapters_with("--analyze").count("chapter_01_reduction") == 1);
  SUBCASE("with the options its chapters take") {
    const DryRun planned = dry_run({"--analyze", "--chapter", "01", "--block", "128"});
    CHECK(planned.result.exit_code == 0);
    CHECK(planned.arguments() == std::map<std::string, std::string>{{"chapter_01_reduction", "--analyze --block 128"}});
  }
  SUBCASE("refused where it does nothing") {
    check_refused({"--dry-run", "--chapter", "00", "--analyze"}, "--chapter 00: chapter_00_bandwidth has no --analyze");
    check_refused({"--dry-run", "--latency", "--analyze"}, "no chapter has --latency and --analyze");
    check_refused({"--dry-run", "--analyze", "--format", "json"}, "--format does nothing with --analyze");
    check_refused({"--dry-run", "--latency", "--reports", "."}, "--reports does nothing with --latency");
    check_refused({"--dry-run", "--analyze", "--analyze-without-gpu"}, "--analyze-without-gpu does nothing");
    check_refused({"--dry-run", "--analyze", "--sweep"}, "--sweep excludes --analyze");
  }
}

TEST_CASE("the tour refuses bad options with exit code 2 and one line before any chapter runs") {
  check_refused({"--dry-run", "--bogus"}, "no chapter has the option --bogus");
  check_refused({"--dry-run", "--type", "float16"}, "--type");
  check_refused({"--dry-run", "--reps", "0"}, "chapter_00_bandwidth: --reps");
  check_refused({"--dry-run", "--reps"}, "--reps needs a value");
  check_refused({"--dry-run", "unexpected"}, "unexpected argument 'unexpected'");
  check_refused({"--dry-run", "--list"}, "--list cannot be passed to the chapters");
  check_refused({"--dry-run", "--format", "xml"}, "--format");
  SUBCASE("flags take no value") {
    check_refused({"--dry-run", "--sweep=1"}, "--sweep is a flag: it takes no value");
    check_refused({"--dry-run", "--compact=true"}, "--compact is a flag: it takes no value");
    check_refused({"--dry-run=true"}, "--dry-run is a flag: it takes no value");
    check_refused({"--dry-run=false"}, "--dry-run is a flag: it takes no value");
    check_refused({"--dry-run", "--analyze-without-gpu=1"}, "--analyze-without-gpu is a flag: it takes no value");
  }
  SUBCASE("empty values") {
    for (const std::string option : {"--output", "--sizes", "--reports", "--chapter"})
      check_refused({"--dry-run", option, ""}, "empty");
  }
  SUBCASE("chapters: this project's only") {
    check_refused({"--dry-run", "--chapter", "/bin/true"}, "--chapter /bin/true: not one of this project's chapter");
    check_refused({"--dry-run", "--chapter", kTour}, "not one of this project's chapter executables");
    check_refused({"--dry-run", "--chapter", "tour"}, "--chapter tour: no such chapter");
    check_refused({"--dry-run", "--chapter", "42"}, "--chapter 42: no such chapter");
  }
  SUBCASE("sizes past what any chapter accepts are refused at once") {
    check_refused({"--dry-run", "--sizes", "1..2^63"}, "2^63 is above 2^40");
    check_refused({"--dry-run", "--sizes", "2^62..2^63"}, "2^62 is above 2^40");
    check_refused({"--dry-run", "--sizes", "2^20,2^41"}, "2^41 is above 2^40");
    check_refused({"--dry-run", "--sizes", "2^20..2^16"}, "from a power of two up to a power of two");
    check_refused({"--dry-run", "--sizes", "3..8"}, "from a power of two up to a power of two");
    check_refused({"--dry-run", "--sizes", "2^16,"}, "--sizes 2^16,");
    check_refused({"--dry-run", "--sizes", "2^16,,2^18"}, "--sizes 2^16,,2^18");
    check_refused({"--dry-run", "--sizes", "2^16", "--n", "2^20"}, "--n and --sizes exclude each other");
  }
  SUBCASE("--problems: a flag, not with a mode, and never beside an option the problems set") {
    check_refused({"--dry-run", "--problems=1"}, "--problems is a flag: it takes no value");
    check_refused({"--dry-run", "--problems", "--analyze"}, "--problems does nothing with --analyze");
    check_refused({"--dry-run", "--problems", "--type", "float32"},
                  "--type: with --problems, chapter_01_reduction's problems set it themselves");
    check_refused({"--dry-run", "--problems", "--chapter", "07"}, "--problems: none of these chapters lists problems");
    check_refused({"--dry-run", "--problems", "--chapter", "harness_chapter"},
                  "--problems: none of these chapters lists problems");
    check_refused({"--dry-run", "--problems", "--sizes", "2^20", "--reps", "0"}, "--reps");
    check_refused({"--dry-run", "--problems", "--list-problems"}, "--list-problems cannot be passed to the chapters");
  }
  SUBCASE("outputs") {
    check_refused({"--dry-run", "--output", "/no/such/folder/summary.md"}, "does not exist");
    check_refused({"--dry-run", "--reports", "/proc/version"}, "--reports /proc/version: not a directory");
  }
}

TEST_CASE("the largest sizes end at 2^40") {
  const DryRun planned = dry_run({"--chapter", "00", "--sizes", "2^39..2^40"});
  CHECK(planned.result.exit_code == 0);
  REQUIRE(planned.runs.size() == 2);
  CHECK(planned.runs[0].arguments == "--n 2^39");
  CHECK(planned.runs[1].arguments == "--n 2^40");
}

TEST_CASE("--chapter accepts this project's chapters by number or name or path") {
  const std::string path = default_chapters().at("chapter_01_reduction");
  const std::string folder = std::filesystem::path(path).parent_path().string();
  const std::vector<std::string> names = {
      "01", "01_reduction", "chapter_01_reduction", path,
      folder + "/../" + std::filesystem::path(folder).filename().string() + "/chapter_01_reduction"};
  for (const std::string& wanted : names) {
    INFO("--chapter " << wanted);
    const DryRun planned = dry_run({"--chapter", wanted});
    CHECK(planned.result.exit_code == 0);
    CHECK(planned.chapters() == std::set<std::string>{"chapter_01_reduction"});
  }
  const DryRun both = dry_run({"--chapter", "08", "--chapter", "harness_chapter"});
  CHECK(both.result.exit_code == 0);
  REQUIRE(both.runs.size() == 2);
  CHECK(both.runs[0].chapter == "chapter_08_join");
  CHECK(both.runs[1].chapter == "harness_chapter");
}

TEST_CASE("--reports creates its folder and names one report per chapter and size in it") {
  char name[] = "/tmp/stepwise-tour-reports-XXXXXX";
  REQUIRE(mkdtemp(name) != nullptr);
  const std::filesystem::path root(name);
  const std::filesystem::path folder = root / "runs" / "01";
  const DryRun planned = dry_run({"--chapter", "01", "--sizes", "2^16,2^17", "--reports", folder.string()});
  CHECK(planned.result.exit_code == 0);
  CHECK(std::filesystem::is_directory(folder));
  REQUIRE(planned.runs.size() == 2);
  CHECK(planned.runs[0].report_file == (folder / "chapter_01_reduction-n2^16.json").string());
  CHECK(planned.runs[1].report_file == (folder / "chapter_01_reduction-n2^17.json").string());
  std::filesystem::remove_all(root);
}

// Passes once chapter 04 takes --n (its default generator scaled to about n nonzeros).
TEST_CASE("--sizes runs every chapter at every size") {
  const std::map<std::string, std::string> chapters = default_chapters();
  const DryRun planned = dry_run({"--sizes", "2^16..2^18"});
  INFO(planned.result.err);
  CHECK(planned.result.exit_code == 0);
  REQUIRE(planned.runs.size() == 3 * chapters.size());
  for (std::size_t i = 0; i < planned.runs.size(); ++i) {
    const PlannedRun& run = planned.runs[i];
    INFO(run.chapter);
    CHECK(run.arguments == "--n 2^" + std::to_string(16 + i / chapters.size()));
    CHECK(run.report);
  }
}

TEST_CASE("--problems runs each problem every chapter lists at every size, its report named after its label") {
  const std::map<std::string, std::string> chapters = default_chapters();
  char name[] = "/tmp/stepwise-tour-problems-XXXXXX";
  REQUIRE(mkdtemp(name) != nullptr);
  const std::filesystem::path folder(name);
  const std::vector<std::string> sizes = {"2^20", "2^22"};
  const DryRun planned = dry_run({"--problems", "--chapter", "03", "--chapter", "06", "--sizes", "2^20,2^22", "--reps",
                                  "10", "--reports", folder.string()});
  INFO(planned.result.err);
  CHECK(planned.result.exit_code == 0);
  CHECK(planned.result.err.empty());
  std::vector<PlannedRun> expected;  // size by size, chapter by chapter, problem by problem
  for (const std::string& size : sizes)
    for (const std::string chapter : {"chapter_03_merge", "chapter_06_compaction"})
      for (const ListedProblem& problem : listed_problems(chapters.at(chapter))) {
        PlannedRun run;
        run.chapter = chapter;
        run.arguments = "--reps 10 " + problem.arguments + " --n " + size;
        run.report = true;
        run.report_file =
            (folder / (chapter + "-" + stepwise::sweep_problem_slug(problem.label) + "-n" + size + ".json")).string();
        expected.push_back(run);
      }
  CHECK(expected.size() == 2 * (5 + 6));
  REQUIRE(planned.runs.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(planned.runs[i].chapter == expected[i].chapter);
    CHECK(planned.runs[i].arguments == expected[i].arguments);
    CHECK(planned.runs[i].report);
    CHECK(planned.runs[i].report_file == expected[i].report_file);
  }
  CHECK(planned.runs.front().report_file == (folder / "chapter_03_merge-keys-int32-n2^20.json").string());
  CHECK(planned.runs.back().report_file == (folder / "chapter_06_compaction-flagged-99pct-n2^22.json").string());
  std::filesystem::remove_all(folder);
}

TEST_CASE("--problems leaves out, with a note, a chapter that lists none") {
  const DryRun planned = dry_run({"--problems", "--chapter", "07", "--chapter", "00", "--sizes", "2^20"});
  CHECK(planned.result.exit_code == 0);
  REQUIRE(planned.runs.size() == 1);
  CHECK(planned.runs[0].chapter == "chapter_00_bandwidth");
  CHECK(lines_of(planned.result.err) ==
        std::vector<std::string>{
            "tour: note: chapter_07_divergence lists no problems to sweep (no library row to compare): left out"});
}

TEST_CASE("a size a chapter refuses is skipped with the chapter's reason on one line, and the tour goes on") {
  const std::string reason =
      "--n 2^30 (--nb defaults to --n): A and B hold 2^31 rows together, above 2^31 - 1 "
      "(int32 row indices)";
  SUBCASE("the default problems") {
    const DryRun planned = dry_run({"--chapter", "08", "--chapter", "01", "--sizes", "2^28,2^30"});
    CHECK(planned.result.exit_code == 0);
    REQUIRE(planned.runs.size() == 3);
    CHECK(planned.runs[0].chapter == "chapter_08_join");
    CHECK(planned.runs[0].arguments == "--n 2^28");
    CHECK(planned.runs[1].chapter == "chapter_01_reduction");
    CHECK(planned.runs[2].chapter == "chapter_01_reduction");
    CHECK(planned.runs[2].arguments == "--n 2^30");
    CHECK(lines_of(planned.result.err) ==
          std::vector<std::string>{"tour: skipped: chapter_08_join at --n 2^30: " + reason});
  }
  SUBCASE("--problems") {
    const DryRun planned = dry_run({"--problems", "--chapter", "08", "--sizes", "2^28,2^30"});
    CHECK(planned.result.exit_code == 0);
    REQUIRE(planned.runs.size() == 1);
    CHECK(planned.runs[0].arguments == "--join inner --n 2^28");
    CHECK(lines_of(planned.result.err) ==
          std::vector<std::string>{"tour: skipped: chapter_08_join (inner) at --n 2^30: " + reason});
  }
  SUBCASE("a run with every size skipped needs no GPU: the summary says why") {
    const ProcessResult result = tour({"--chapter", "08", "--sizes", "2^30", "--format", "csv"});
    CHECK(result.exit_code == 0);
    CHECK(lines_of(result.err) == std::vector<std::string>{"tour: skipped: chapter_08_join at --n 2^30: " + reason});
    CHECK(lines_of(result.out) ==
          std::vector<std::string>{"chapter,problem,size,best_stage,gbps,pct_memcpy,library,best_over_library",
                                   "chapter_08_join,,2^30,,,,,"});
    const ProcessResult table = tour({"--chapter", "08", "--sizes", "2^30"});
    CHECK(table.out.find("chapter_08_join n=2^30: skipped: " + reason) != std::string::npos);
  }
  SUBCASE("refused at every size and at the default size: an error of the options, before anything runs") {
    check_refused({"--dry-run", "--chapter", "08", "--sizes", "2^28,2^30", "--nb", "2^31"}, "--nb 2^31");
  }
}

// Every problem a chapter lists must run at every size of the sweep the ratio-vs-n figures draw (2^20, 2^22, ...,
// 2^30), or be refused there by a limit the problem declares (max_n), and nowhere else.
TEST_CASE("every chapter's problems pass its --check-options at every size of the sweep, or declare the refusal") {
  std::set<std::string> with_library;
  for (const auto& [name, path] : default_chapters()) {
    const ProcessResult listing = run_process({path, "--list"});
    REQUIRE(listing.exit_code == 0);
    for (const std::string& line : lines_of(listing.out))
      if (line.rfind("  lib  ", 0) == 0) with_library.insert(name);
  }
  CHECK(with_library.count("chapter_07_divergence") == 0);
  CHECK(with_library.count("chapter_03_merge") == 1);
  std::size_t checked = 0;
  for (const auto& [name, path] : default_chapters()) {
    INFO(name);
    const std::vector<ListedProblem> problems = listed_problems(path);
    CHECK(problems.empty() == (with_library.count(name) == 0));
    std::set<std::string> labels;
    std::set<std::string> slugs;
    for (const ListedProblem& problem : problems) {
      INFO(problem.label);
      CHECK(labels.insert(problem.label).second);
      CHECK(slugs.insert(stepwise::sweep_problem_slug(problem.label)).second);
      CHECK_FALSE(stepwise::sweep_problem_slug(problem.label).empty());
      const std::vector<std::string> arguments = words_of(problem.arguments);
      CHECK(std::find(arguments.begin(), arguments.end(), "--n") == arguments.end());
      for (int exponent = 20; exponent <= 30; exponent += 2) {
        const std::uint64_t n = std::uint64_t{1} << exponent;
        const std::string size = "2^" + std::to_string(exponent);
        INFO("--n " << size);
        std::vector<std::string> command = {path, "--check-options", "--n", size};
        command.insert(command.end(), arguments.begin(), arguments.end());
        const ProcessResult check = run_process(command);
        const bool declared_refusal = problem.max_n != 0 && n > problem.max_n;
        CHECK_MESSAGE(check.exit_code == (declared_refusal ? 2 : 0), check.err);
        CHECK(lines_of(check.err).size() == (declared_refusal ? 1U : 0U));
        ++checked;
      }
    }
  }
  CHECK(checked >= 6 * 17);
}

// Passes once chapter 04's --check-options reads the file it is given.
TEST_CASE("a chapter's option that its chapter refuses stops the tour before any chapter runs") {
  check_refused({"--dry-run", "--matrix", "/nonexistent.mtx"}, "chapter_04_spmv: ");
  const ProcessResult result = tour({"--matrix", "/nonexistent.mtx"});
  CHECK(result.exit_code == 2);
  CHECK(result.out.empty());
}

TEST_CASE("without a GPU the tour stops at once with 77 and --analyze-without-gpu prints the analyses instead") {
  SUBCASE("exit code 77 at the first chapter") {
    const ProcessResult result = tour({});
    CHECK(result.exit_code == 77);
    CHECK(lines_of(result.out) == std::vector<std::string>{"", "== chapter_00_bandwidth =="});
    CHECK(result.err.find("tour: skipped: no CUDA-capable GPU found") != std::string::npos);
  }
  SUBCASE("a mode that needs the GPU: 77 too") {
    const ProcessResult result = tour({"--latency"});
    CHECK(result.exit_code == 77);
  }
  SUBCASE("--analyze needs no GPU") {
    const ProcessResult result = tour({"--analyze", "--chapter", "01"});
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("== chapter_01_reduction --analyze ==") != std::string::npos);
  }
  SUBCASE("--analyze-without-gpu: the line and then every analysis with exit code 0") {
    const ProcessResult result = tour({"--analyze-without-gpu"});
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("tour: no CUDA-capable GPU here, so no timings") != std::string::npos);
    for (const std::string& chapter : chapters_with("--analyze")) {
      INFO(chapter);
      CHECK(result.out.find("== " + chapter + " --analyze ==") != std::string::npos);
    }
    CHECK(result.out.find("== chapter_00_bandwidth --analyze ==") == std::string::npos);
  }
  SUBCASE("--analyze-without-gpu with no chapter that has --analyze: 77") {
    const ProcessResult result = tour({"--analyze-without-gpu", "--chapter", "00"});
    CHECK(result.exit_code == 77);
  }
}

TEST_CASE("tour --help says what the modes do and that --reports is created and the exit codes") {
  const ProcessResult result = tour({"--help"});
  CHECK(result.exit_code == 0);
  // The help's words, with the line breaks newer CLI11 releases put in long texts as blanks.
  std::string text;
  for (std::size_t i = 0; i < result.out.size(); ++i) {
    const bool blank = std::isspace(static_cast<unsigned char>(result.out[i])) != 0;
    if (!blank)
      text += result.out[i];
    else if (!text.empty() && text.back() != ' ')
      text += ' ';
  }
  for (const std::string words :
       {"--sizes", "--dry-run", "created if it does not exist", "--analyze-without-gpu",
        "A mode (--analyze, --latency, --surface) runs only the chapters that have it", "77 without a GPU",
        "at most 2^40", "--problems", "--list-problems", "is skipped, with the chapter's reason on one line"})
    CHECK_MESSAGE(text.find(words) != std::string::npos, words);
}
