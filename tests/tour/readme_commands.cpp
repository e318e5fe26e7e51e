#include "readme_commands.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "process.hpp"

namespace stepwise::test {
namespace {

namespace fs = std::filesystem;

std::string trim(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream stream(text);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

/// @p line without a shell comment (a `#` at the start or after a blank).
std::string without_comment(const std::string& line) {
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) return trim(line.substr(0, i));
  return trim(line);
}

/// A fence that opens or closes a code block: its character run (``` or ~~~) and the text after it.
bool fence(const std::string& line, std::string& run, std::string& info) {
  const std::string text = trim(line);
  if (text.rfind("```", 0) != 0 && text.rfind("~~~", 0) != 0) return false;
  const std::size_t length = text.find_first_not_of(text[0]);
  run = text.substr(0, length);
  info = length == std::string::npos ? "" : trim(text.substr(length));
  return true;
}

/// The command found in @p text (an inline span, or a line of a block that is not a script), if it is one.
void add_if_command(const std::string& text, int line, bool in_span, std::vector<DocumentedCommand>& commands) {
  const std::string command = without_comment(text);
  if (command.empty() || !starts_with_program(command, in_span) || is_synopsis(command)) return;
  commands.push_back({line, command, false});
}

/// The inline code spans of a paragraph, with where each starts (a span may go on to the next line of the
/// paragraph: its line break is a blank).
std::vector<std::pair<std::string, std::size_t>> inline_spans(const std::string& paragraph) {
  std::vector<std::pair<std::string, std::size_t>> spans;
  static const std::regex kSpan("`([^`]+)`");
  for (std::sregex_iterator match(paragraph.begin(), paragraph.end(), kSpan), end; match != end; ++match) {
    std::string span = (*match)[1].str();
    std::replace(span.begin(), span.end(), '\n', ' ');
    spans.emplace_back(trim(span), static_cast<std::size_t>(match->position(0)));
  }
  return spans;
}

}  // namespace

bool starts_with_program(const std::string& text, bool in_span) {
  const std::vector<std::string> words = words_of(text);
  if (words.empty()) return false;
  const std::string& program = words.front();
  const bool has_argument = words.size() > 1;
  const bool has_option = std::any_of(words.begin() + 1, words.end(),
                                      [](const std::string& word) { return word.size() > 1 && word[0] == '-'; });
  static const std::regex kChapter("chapter_([0-9][0-9]_[a-z0-9_]+|template)");
  static const std::regex kTool("tools/[A-Za-z0-9_.-]+");
  static const std::regex kScript("chapters/[^ ]+/regenerate\\.sh");
  if (program.rfind("build/bin/", 0) == 0 && program.size() > 10) return true;
  if (std::regex_match(program, kChapter)) return true;
  if (program == "tools/plot") return !in_span || has_option;
  if (std::regex_match(program, kTool) || std::regex_match(program, kScript)) return !in_span || has_argument;
  if (program == "cmake" || program == "ctest") return has_argument;
  if (program == "ncu" || program == "nsys" || program == "compute-sanitizer")
    return text.find("build/bin/") != std::string::npos;
  return false;
}

bool is_synopsis(const std::string& text) {
  if (text.find_first_of("[]") != std::string::npos || text.find("...") != std::string::npos ||
      text.find("\xE2\x80\xA6") != std::string::npos)  // an ellipsis character
    return true;
  static const std::regex kPlaceholder("<[A-Za-z][^>]*>");
  static const std::regex kAlternatives("[^ |]\\|[^ |]");
  if (std::regex_search(text, kPlaceholder) || std::regex_search(text, kAlternatives)) return true;
  std::string separated = text;
  std::replace_if(
      separated.begin(), separated.end(), [](char c) { return c == '=' || c == ',' || c == '.' || c == '"'; }, ' ');
  for (const std::string& word : words_of(separated))
    if (std::all_of(word.begin(), word.end(), [](unsigned char c) { return std::isupper(c) != 0; })) return true;
  return false;
}

std::vector<DocumentedCommand> extract_commands(const std::string& markdown) {
  std::vector<DocumentedCommand> commands;
  std::istringstream lines(markdown);
  std::string line;
  int number = 0;
  std::string open_run;     // the fence of the block we are in; empty outside blocks
  bool script = false;      // that block is a shell script
  bool prose = true;        // the lines are Markdown: outside blocks, or in a ```markdown block
  DocumentedCommand block;  // the script being read
  std::string continued;    // a line of a block that is neither, continued with `\`
  int continued_line = 0;
  std::string paragraph;  // the lines of prose since the last blank line: a code span may go on to the next line
  int paragraph_line = 0;
  const auto end_paragraph = [&] {
    for (const auto& [span, start] : inline_spans(paragraph)) {
      const auto span_begin = paragraph.begin() + static_cast<std::ptrdiff_t>(start);
      add_if_command(span, paragraph_line + static_cast<int>(std::count(paragraph.begin(), span_begin, '\n')), true,
                     commands);
    }
    paragraph.clear();
  };
  while (std::getline(lines, line)) {
    ++number;
    std::string run;
    std::string info;
    const bool is_fence = fence(line, run, info);
    if (open_run.empty() && is_fence) {
      end_paragraph();
      open_run = run;
      const std::string language = words_of(info).empty() ? "" : words_of(info).front();
      script = language == "sh" || language == "bash" || language == "shell";
      prose = language == "markdown" || language == "md";
      block = {number + 1, "", true};
      continue;
    }
    if (!open_run.empty() && is_fence && info.empty() && run[0] == open_run[0] && run.size() >= open_run.size()) {
      end_paragraph();
      if (script && !trim(block.text).empty()) commands.push_back(block);
      open_run.clear();
      continued.clear();
      prose = true;
      continue;
    }
    if (open_run.empty() || prose) {
      if (trim(line).empty()) {
        end_paragraph();
        continue;
      }
      if (paragraph.empty()) paragraph_line = number;
      paragraph += line + "\n";
      continue;
    }
    if (script) {
      block.text += line + "\n";
      continue;
    }
    const std::string text = trim(line);
    if (continued.empty()) continued_line = number;
    if (!text.empty() && text.back() == '\\') {
      continued += trim(text.substr(0, text.size() - 1)) + " ";
      continue;
    }
    add_if_command(continued + text, continued_line, false, commands);
    continued.clear();
  }
  end_paragraph();
  return commands;
}

std::vector<fs::path> markdown_pages(const fs::path& source) {
  std::vector<fs::path> pages;
  for (auto entry = fs::recursive_directory_iterator(source); entry != fs::recursive_directory_iterator(); ++entry) {
    const std::string name = entry->path().filename().string();
    if (entry->is_directory()) {
      const bool top = entry.depth() == 0;
      if (name[0] == '.' || (top && name.rfind("build", 0) == 0) || fs::exists(entry->path() / "CMakeCache.txt"))
        entry.disable_recursion_pending();
      continue;
    }
    if (entry->path().extension() == ".md") pages.push_back(entry->path());
  }
  std::sort(pages.begin(), pages.end());
  return pages;
}

Sandbox::Sandbox(Paths paths) : paths_(std::move(paths)), tree_(paths_.root / "tree") {}

void Sandbox::reset() {
  if (mirrored_) {
    prune();
    return;
  }
  fs::remove_all(paths_.root);
  fs::create_directories(tree_);
  // The source tree, file by file (links), without build trees or hidden folders: a fresh clone.
  for (auto entry = fs::recursive_directory_iterator(paths_.source); entry != fs::recursive_directory_iterator();
       ++entry) {
    const fs::path relative = entry->path().lexically_relative(paths_.source);
    const std::string name = entry->path().filename().string();
    if (entry->is_directory()) {
      const bool top = entry.depth() == 0;
      if (name[0] == '.' || name == "__pycache__" || (top && name.rfind("build", 0) == 0) ||
          fs::exists(entry->path() / "CMakeCache.txt")) {
        entry.disable_recursion_pending();
        continue;
      }
      folders_.insert(relative);
      continue;
    }
    if (name[0] == '.' && entry.depth() == 0) continue;
    links_[relative] = entry->path();
  }
  // build/bin: a stand-in for every program of the build.
  folders_.insert("build");
  folders_.insert(fs::path("build") / "bin");
  for (const fs::directory_entry& entry : fs::directory_iterator(paths_.bin)) {
    if (!entry.is_regular_file() || (fs::status(entry.path()).permissions() & fs::perms::owner_exec) == fs::perms::none)
      continue;
    links_[fs::path("build") / "bin" / entry.path().filename()] = paths_.stand_ins / "bin.sh";
  }
  // The outside tools a page may call, first on PATH.
  fs::create_directories(paths_.root / "path");
  const std::map<std::string, std::string> tools = {{"cmake", "cmake.sh"},
                                                    {"ctest", "ctest.sh"},
                                                    {"ncu", "profiler.sh"},
                                                    {"nsys", "profiler.sh"},
                                                    {"compute-sanitizer", "profiler.sh"},
                                                    {"nvidia-smi", "nvidia-smi.sh"},
                                                    {"cuobjdump", "cuda-tool.sh"},
                                                    {"nvdisasm", "cuda-tool.sh"},
                                                    {"sudo", "installer.sh"},
                                                    {"apt-get", "installer.sh"},
                                                    {"apt", "installer.sh"},
                                                    {"pip", "installer.sh"},
                                                    {"pip3", "installer.sh"},
                                                    {"python3", "python.sh"},
                                                    {"python", "python.sh"}};
  for (const auto& [tool, stand_in] : tools)
    fs::create_symlink(paths_.stand_ins / stand_in, paths_.root / "path" / tool);
  mirrored_ = true;
  prune();
}

void Sandbox::prune() {
  // Whatever the last command wrote goes (new files and folders, links it replaced), then what is missing comes back.
  // Making links is slow on some file systems: the copy is made once, and kept.
  std::vector<fs::path> strays;
  for (auto entry = fs::recursive_directory_iterator(tree_); entry != fs::recursive_directory_iterator(); ++entry) {
    const fs::path relative = entry->path().lexically_relative(tree_);
    const auto link = links_.find(relative);
    if (entry->is_symlink() && link != links_.end() && fs::read_symlink(entry->path()) == link->second) continue;
    if (!entry->is_symlink() && entry->is_directory() && folders_.count(relative) != 0) continue;
    strays.push_back(entry->path());
    entry.disable_recursion_pending();
  }
  for (const fs::path& stray : strays) fs::remove_all(stray);
  for (const fs::path& folder : folders_) fs::create_directories(tree_ / folder);
  for (const auto& [relative, target] : links_)
    if (!fs::is_symlink(fs::symlink_status(tree_ / relative))) fs::create_symlink(target, tree_ / relative);
}

Sandbox::Outcome Sandbox::run(const DocumentedCommand& command, double timeout_seconds) {
  const fs::path script = paths_.root / "command.sh";
  const fs::path log = paths_.root / "programs.log";
  const fs::path failures = paths_.root / "failures.log";
  fs::remove(log);
  fs::remove(failures);
  {
    std::ofstream file(script);
    // Line 1 sets up the shell; the command starts on line 2. Every command that exits with a code other than 0 or
    // 77 (skipped: no GPU) is written down, and the script goes on, as a reader pasting the lines would.
    file << "set -E -o pipefail; trap 'code=$?; [ \"$code\" -eq 77 ] || printf \"line %s: exit %s: %s\\n\" "
            "\"$((LINENO - 1))\" \"$code\" \"$BASH_COMMAND\" >> \"$STEPWISE_README_FAILURES\"' ERR\n"
         << command.text << "\nexit 0\n";  // not reached after a syntax error (an unclosed quote, say)
  }
  const char* path = std::getenv("PATH");
  const std::string original_path = path != nullptr ? path : "/usr/bin:/bin";
  const std::string search = (paths_.root / "path").string() +
                             (command.block ? "" : ":" + (tree_ / "build" / "bin").string()) + ":" + original_path;
  const std::map<std::string, std::string> environment = {
      {"PATH", search},
      {"CUDA_VISIBLE_DEVICES", "-1"},
      {"BASH_ENV", (paths_.stand_ins / "functions.sh").string()},  // tools/plot, tools/suitesparse-fetch
      {"STEPWISE_STAND_INS", paths_.stand_ins.string()},
      {"STEPWISE_README_LOG", log.string()},
      {"STEPWISE_README_FAILURES", failures.string()},
      {"STEPWISE_REAL_BIN", paths_.bin.string()},
      {"STEPWISE_REAL_BUILD", paths_.build.string()},
      {"STEPWISE_SOURCE_DIR", paths_.source.string()},
      {"STEPWISE_TARGET_LIST", paths_.target_list.string()},
      {"STEPWISE_CMAKE", paths_.cmake},
      {"STEPWISE_CTEST", paths_.ctest},
      {"STEPWISE_PYTHON", paths_.python},
      {"STEPWISE_CUDA_BIN", paths_.cuda_bin},
      {"STEPWISE_ORIGINAL_PATH", original_path}};
  const ProcessResult result = run_process({"bash", script.string()}, tree_.string(), environment, timeout_seconds);

  Outcome outcome;
  std::ostringstream report;
  std::ifstream failed(failures);
  const std::string failed_text((std::istreambuf_iterator<char>(failed)), std::istreambuf_iterator<char>());
  std::ifstream programs(log);
  std::string bad_programs;
  std::string ran;
  for (std::string entry; std::getline(programs, entry);) {
    ++outcome.programs;
    ran += "  exit " + entry.substr(0, entry.find('\t')) + ": " + entry.substr(entry.find('\t') + 1) + "\n";
    const int code = std::atoi(entry.substr(0, entry.find('\t')).c_str());
    if (code != 0 && code != 77)
      bad_programs += "  " + entry.substr(entry.find('\t') + 1) + ": exit " + std::to_string(code) + "\n";
  }
  const bool ran_to_the_end = result.exit_code == 0;
  outcome.passed = !result.timed_out && ran_to_the_end && failed_text.empty() && bad_programs.empty();
  if (result.timed_out) report << "timed out after " << timeout_seconds << " s\n";
  if (!result.timed_out && !ran_to_the_end)
    report << "the shell stopped with exit code " << result.exit_code << " before its end (a syntax error?)\n";
  if (!failed_text.empty()) report << "failed (the line within the command):\n" << failed_text;
  if (!bad_programs.empty()) report << "programs that did not exit with 0 or 77:\n" << bad_programs;
  report << "programs run:\n" << (ran.empty() ? "  none\n" : ran) << "stderr:\n" << result.err;
  outcome.report = report.str();
  return outcome;
}

}  // namespace stepwise::test
