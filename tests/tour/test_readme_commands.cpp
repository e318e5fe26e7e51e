// Every command written in every Markdown page of the repository works as written, on a machine without a GPU:
// each ```sh block runs whole, and every other command (an inline span, a line of another block) alone, each in a
// copy of a fresh clone with the build's programs; no command may exit with a code other than 0 or 77. The commands
// are read from the pages each time, so a page that gains a broken command fails here. The stand-ins of
// tests/tour/readme_sandbox say what "works" means for a command that needs a GPU, draws or downloads.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "readme_commands.hpp"

namespace {

namespace fs = std::filesystem;
using stepwise::test::DocumentedCommand;
using stepwise::test::extract_commands;
using stepwise::test::is_synopsis;
using stepwise::test::Sandbox;
using stepwise::test::starts_with_program;

Sandbox::Paths sandbox_paths(const std::string& name) {
  Sandbox::Paths paths;
  paths.source = STEPWISE_SOURCE_DIR;
  paths.build = STEPWISE_BUILD_DIR;
  paths.bin = STEPWISE_BIN_DIR;
  paths.stand_ins = STEPWISE_SANDBOX_TOOLS;
  paths.root = fs::path(STEPWISE_SANDBOX_DIR) / name;
  paths.target_list = STEPWISE_TARGET_LIST;
  paths.cmake = STEPWISE_CMAKE;
  paths.ctest = STEPWISE_CTEST;
  paths.python = STEPWISE_PYTHON;
  paths.cuda_bin = STEPWISE_CUDA_BIN_DIR;
  return paths;
}

std::string read(const fs::path& file) {
  std::ifstream stream(file);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

/// Whether the commands of @p markdown all pass, each in a fresh sandbox, and the report of the first that does not.
bool page_passes(const std::string& markdown, std::string& report) {
  Sandbox sandbox(sandbox_paths("made-up-page"));
  for (const DocumentedCommand& command : extract_commands(markdown)) {
    sandbox.reset();
    const Sandbox::Outcome outcome = sandbox.run(command, 120);
    if (!outcome.passed) {
      report = command.text + "\n" + outcome.report;
      return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("the commands of a page: sh blocks whole and commands in prose and in other blocks but no synopses") {
  const std::string page =
      "Run `build/bin/chapter_01_reduction --list`, or `chapter_05_atomics --bins 32` (bare names too).\n"
      "Not commands: `--sweep`, `tools/plot`, `tools/plot analysis`, `tools/gpu-round.sh`, `ncu --csv`, "
      "`build/reports/01`.\n"
      "Synopses: `chapter_01_reduction --n N`, `compute-sanitizer --tool <tool> build/bin/chapter_02_scan`.\n"
      "\n"
      "```sh\n"
      "b=build/bin/chapter_02_scan\n"
      "$b --n 2^24   # a comment\n"
      "```\n"
      "\n"
      "```\n"
      "chapter_02_scan [--n 2^28] [--type int32|float32]     # a synopsis\n"
      "build/bin/chapter_00_bandwidth --n 2^27 \\\n"
      "    --sweep                                          # continued\n"
      "  #  stage  shape  time ms (median)\n"
      "tools/plot staircase REPORT.json -o FILE.svg\n"
      "```\n"
      "\n"
      "~~~bash\n"
      "cmake --workflow --preset tour\n"
      "~~~\n"
      "\n"
      "```markdown\n"
      "A span over two lines: `build/bin/chapter_00_bandwidth --n 2^20 &&\n"
      "tools/plot staircase r.json -o figure.svg`.\n"
      "```\n";
  const std::vector<DocumentedCommand> commands = extract_commands(page);
  REQUIRE(commands.size() == 6);
  CHECK(commands[0].text == "build/bin/chapter_01_reduction --list");
  CHECK(commands[0].line == 1);
  CHECK_FALSE(commands[0].block);
  CHECK(commands[1].text == "chapter_05_atomics --bins 32");
  CHECK(commands[2].text == "b=build/bin/chapter_02_scan\n$b --n 2^24   # a comment\n");
  CHECK(commands[2].line == 6);
  CHECK(commands[2].block);
  CHECK(commands[3].text == "build/bin/chapter_00_bandwidth --n 2^27 --sweep");
  CHECK(commands[3].line == 12);
  CHECK(commands[4].text == "cmake --workflow --preset tour\n");
  CHECK(commands[4].block);
  CHECK(commands[5].text == "build/bin/chapter_00_bandwidth --n 2^20 && tools/plot staircase r.json -o figure.svg");
  CHECK(commands[5].line == 23);

  CHECK(starts_with_program("chapters/01_reduction/figures/regenerate.sh gpu", true));
  CHECK_FALSE(starts_with_program("chapters/01_reduction/figures/regenerate.sh", true));
  CHECK(starts_with_program("tools/suitesparse-fetch SNAP/web-Google", true));
  CHECK(starts_with_program("ctest --test-dir build -L cpu", true));
  CHECK_FALSE(starts_with_program("python3-matplotlib", true));
  CHECK(is_synopsis("tools/plot time-vs-n REPORT.json -o FILE.svg"));
  CHECK(is_synopsis("compute-sanitizer --tool memcheck|racecheck"));
  CHECK(is_synopsis("chapter_02_scan --analyze ..."));
  CHECK_FALSE(is_synopsis("build/bin/chapter_04_spmv --matrix rmat:16:16 --type float64"));
  CHECK_FALSE(is_synopsis("tools/suitesparse-fetch SNAP/web-Google"));
}

TEST_CASE("a page that gains a broken command fails the README test") {
  std::string report;
  SUBCASE("commands that work: 0 or 77 where a GPU would be needed") {
    CHECK_MESSAGE(page_passes("`build/bin/chapter_01_reduction --list` and `build/bin/chapter_00_bandwidth --n 2^20`\n"
                              "```sh\n"
                              "mkdir -p build/reports/00\n"
                              "build/bin/chapter_00_bandwidth --format json --output build/reports/00/table.json\n"
                              "build/bin/tour --chapter 01 --sizes 2^16..2^18 --reports runs/\n"
                              "build/bin/chapter_01_reduction --analyze --format json > build/analyze.json\n"
                              "tools/plot analysis build/analyze.json --figure trees -o figure.svg\n"
                              "cmake --build build --target chapter_00_bandwidth\n"
                              "cmake --workflow --preset test\n"
                              "ctest --test-dir build -L cpu\n"
                              "sudo apt-get install python3-matplotlib\n"
                              "```\n",
                              report),
                  report);
  }
  const std::vector<std::string> broken = {
      "`build/bin/chapter_00_bandwidth --bogus`",
      "`build/bin/tour --sizes 2^20..2^16`",
      "`chapter_05_atomics --bins 0`",
      "```sh\nbuild/bin/chapter_00_bandwidth --format json --output build/reports/none/table.json\n```",
      "```sh\ncd no-such-folder\n```",
      "```sh\nbuild/bin/chapter_00_bandwidth --list=maybe\n```",
      "```sh\ntools/plot staircase report.json -o figure.pdf\n```",
      "```sh\ntools/plot no-such-figure report.json -o figure.svg\n```",
      "```sh\ncmake --build build --target no_such_target\n```",
      "```sh\ncmake --workflow --preset no-such-preset\n```",
      "```sh\nctest --test-dir build -L no-such-label\n```",
      "```sh\nchapters/01_reduction/figures/regenerate.sh gpu [build/bin]\n```",
      "```sh\nchapter_01_reduction --list\n```",  // in a script, a bare name is not on PATH
      "```sh\nbuild/bin/chapter_01_reduction --list 'unclosed\n```",
      "Redraw: `build/bin/chapter_00_bandwidth --list &&\ntools/plot staircase r.json -o figure.pdf`",
  };
  for (const std::string& page : broken) {
    INFO(page);
    CHECK_FALSE(page_passes(page + "\n", report));
  }
}

TEST_CASE("every command of every Markdown page works as written on a machine without a GPU") {
  Sandbox sandbox(sandbox_paths("page"));
  int pages = 0;
  int commands = 0;
  for (const fs::path& page : stepwise::test::markdown_pages(STEPWISE_SOURCE_DIR)) {
    const std::string name = fs::relative(page, STEPWISE_SOURCE_DIR).string();
    ++pages;
    for (const DocumentedCommand& command : extract_commands(read(page))) {
      ++commands;
      sandbox.reset();  // every command on a fresh clone: a block makes the folders it writes to
      const Sandbox::Outcome outcome = sandbox.run(command);
      CHECK_MESSAGE(outcome.passed, name << ":" << command.line << ":\n" << command.text << "\n" << outcome.report);
    }
  }
  MESSAGE(commands << " commands in " << pages << " pages");
  CHECK(pages >= 14);
  CHECK(commands >= 100);
}
