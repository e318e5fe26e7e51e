// The tour: runs every chapter with its defaults, prints each table, then one summary
// screen (chapter, best stage, GB/s, % memcpy, ratio to the library baseline).
//
// Usage: tour [options passed to every chapter, e.g. --reps 10]
// Exit code: 0 when every chapter passed, 77 when there is no GPU, else 1.
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "chapters.hpp"  // generated: kChapterExecutables

namespace {

std::string own_directory() {
  std::vector<char> path(4096);
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0) return ".";
  std::string self(path.data(), static_cast<std::size_t>(length));
  return self.substr(0, self.find_last_of('/'));
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct ChapterResult {
  std::string executable;
  int exit_code = 0;
  nlohmann::json report;
};

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

void print_summary(const std::vector<ChapterResult>& results) {
  std::printf("\n== stepwise tour: summary ==\n");
  std::printf("%-16s %-28s %10s %10s %-22s %14s\n", "chapter", "best stage", "GB/s", "% memcpy", "library",
              "best/library");
  for (const ChapterResult& result : results) {
    if (result.report.is_null()) {
      std::printf("%-16s (exit code %d, no report)\n", result.executable.c_str(), result.exit_code);
      continue;
    }
    const nlohmann::json* best = nullptr;
    const nlohmann::json* library = nullptr;
    for (const auto& row : result.report["rows"]) {
      if (row["median_ms"].is_null()) continue;
      if (row["kind"] == "kernel" && (!best || row["median_ms"].get<double>() < (*best)["median_ms"].get<double>()))
        best = &row;
      if (row["kind"] == "library" && !library) library = &row;
    }
    const std::string chapter =
        result.report["chapter"]["id"].get<std::string>() + " " + result.report["chapter"]["name"].get<std::string>();
    if (!best) {
      std::printf("%-16s no kernel stage passed\n", chapter.c_str());
      continue;
    }
    const std::string ratio =
        library ? fixed((*library)["median_ms"].get<double>() / (*best)["median_ms"].get<double>(), 2) + "x" : "-";
    std::printf("%-16s %-28s %10s %10s %-22s %14s\n", chapter.c_str(),
                (std::to_string((*best)["number"].get<int>()) + " " + (*best)["name"].get<std::string>()).c_str(),
                fixed((*best)["gbps"].get<double>(), 1).c_str(), fixed((*best)["pct_memcpy"].get<double>(), 1).c_str(),
                library ? (*library)["name"].get<std::string>().c_str() : "-", ratio.c_str());
  }
  std::printf("best/library > 1 means the chapter's best stage is faster than the library.\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string extra;
  for (int i = 1; i < argc; ++i) extra += " " + quoted(argv[i]);
  const std::string directory = own_directory();
  std::vector<ChapterResult> results;
  int skipped = 0;
  int failed = 0;
  for (const char* executable : kChapterExecutables) {
    const std::string json_path = directory + "/tour_" + executable + ".json";
    std::remove(json_path.c_str());
    const std::string command =
        quoted(directory + "/" + executable) + " --format json --output " + quoted(json_path) + extra;
    std::printf("\n== %s ==\n", executable);
    std::fflush(stdout);
    const int status = std::system(command.c_str());
    ChapterResult result;
    result.executable = executable;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (result.exit_code == 77) {
      ++skipped;
      continue;
    }
    if (result.exit_code != 0) ++failed;
    std::ifstream file(json_path);
    if (file) result.report = nlohmann::json::parse(file, nullptr, false);
    if (result.report.is_discarded()) result.report = nullptr;
    results.push_back(result);
  }
  const int chapter_count = static_cast<int>(sizeof(kChapterExecutables) / sizeof(kChapterExecutables[0]));
  if (skipped == chapter_count) {
    std::fprintf(stderr, "tour: skipped: no CUDA-capable GPU found\n");
    return 77;
  }
  print_summary(results);
  return failed == 0 && skipped == 0 ? 0 : 1;
}
