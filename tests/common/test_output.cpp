// --output's files (require_writable, write_file_atomically) and the exit path's check of stdout
// (finish_stdout): regular files are replaced whole, devices and FIFOs are written in place and
// never replaced, and what cannot be written is refused.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "host/cli.hpp"

using namespace stepwise;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the system's temporary directory, removed at the end of the case.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (fs::temp_directory_path() / "stepwise-output-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

mode_t link_mode(const std::string& path) {
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  return status.st_mode;
}

/// The message of the UsageError require_writable throws for @p path, or "" when it accepts it.
std::string refusal(const std::string& path) {
  try {
    require_writable(path, "--output");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("--output: a new or a regular file is replaced whole, and keeps its permissions") {
  ScratchDirectory scratch;
  const std::string report = scratch / "report.json";
  CHECK(refusal(report).empty());
  write_file_atomically(report, "first\n");
  CHECK(read_text(report) == "first\n");
  REQUIRE(::chmod(report.c_str(), 0640) == 0);
  write_file_atomically(report, "second\n");
  CHECK(read_text(report) == "second\n");
  CHECK((link_mode(report) & 07777) == 0640);
  CHECK(S_ISREG(link_mode(report)));
  // Nothing is left beside it: the temporary file was renamed.
  CHECK(std::distance(fs::directory_iterator(scratch.path()), fs::directory_iterator()) == 1);
  // A name without a directory is in the working directory.
  const fs::path previous = fs::current_path();
  fs::current_path(scratch.path());
  const std::string relative = refusal("report.json");
  write_file_atomically("report.json", "third\n");
  fs::current_path(previous);
  CHECK(relative.empty());
  CHECK(read_text(report) == "third\n");
}

TEST_CASE("--output: through a symbolic link, the file it points to is replaced and the link stays") {
  ScratchDirectory scratch;
  const std::string target = scratch / "run-42.json";
  const std::string link = scratch / "latest.json";
  write_file_atomically(target, "old\n");
  fs::create_symlink(target, link);
  CHECK(refusal(link).empty());
  write_file_atomically(link, "new\n");
  CHECK(S_ISLNK(link_mode(link)));
  CHECK(fs::read_symlink(link) == target);
  CHECK(read_text(target) == "new\n");
}

TEST_CASE("--output refuses a dangling link, a link loop, a directory, an empty name and a missing directory") {
  ScratchDirectory scratch;
  const std::string dangling = scratch / "dangling";
  fs::create_symlink(scratch / "nowhere", dangling);
  CHECK(refusal(dangling) == "--output " + dangling + ": is a dangling symbolic link");
  CHECK_THROWS_AS(write_file_atomically(dangling, "x"), std::runtime_error);
  CHECK_FALSE(fs::exists(scratch / "nowhere"));
  CHECK(S_ISLNK(link_mode(dangling)));

  const std::string loop = scratch / "loop";
  fs::create_symlink(loop, loop);
  CHECK(refusal(loop) == "--output " + loop + ": is a loop of symbolic links");

  CHECK(refusal(scratch.path().string()) == "--output " + scratch.path().string() + ": is a directory");
  CHECK_THROWS_AS(write_file_atomically(scratch.path().string(), "x"), std::runtime_error);
  CHECK(fs::is_directory(scratch.path()));

  CHECK(refusal("") == "--output '': the value is empty");
  CHECK_THROWS_AS(write_file_atomically("", "x"), std::runtime_error);
  CHECK(refusal(scratch / "missing/report.json") ==
        "--output " + (scratch / "missing/report.json") + ": directory " + (scratch / "missing") + " does not exist");
}

TEST_CASE("--output /dev/null is written in place and stays a character device") {
  REQUIRE(S_ISCHR(link_mode("/dev/null")));
  CHECK(refusal("/dev/null").empty());
  write_file_atomically("/dev/null", "a report nobody keeps\n");
  CHECK(S_ISCHR(link_mode("/dev/null")));
}

TEST_CASE("--output FIFO: written in place when a process reads it, refused at once when none does") {
  ScratchDirectory scratch;
  const std::string fifo = scratch / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refusal(fifo).empty());
  // No reader: the writer does not wait for one (this must not hang).
  CHECK_THROWS_WITH_AS(write_file_atomically(fifo, "lost\n"),
                       ("could not write " + fifo + ": no process reads the FIFO").c_str(), std::runtime_error);
  // A reader opened without waiting; the text is smaller than a pipe's buffer, so the write
  // completes before anything reads it.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  write_file_atomically(fifo, "through the FIFO\n");
  char buffer[64] = {};
  const ssize_t count = ::read(reader, buffer, sizeof buffer);
  ::close(reader);
  CHECK(std::string(buffer, count > 0 ? static_cast<std::size_t>(count) : 0) == "through the FIFO\n");
  CHECK(S_ISFIFO(link_mode(fifo)));
}

TEST_CASE("--output refuses the file stdout is redirected to") {
  ScratchDirectory scratch;
  const std::string table = scratch / "table.txt";
  write_file_atomically(table, "");
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  const int file = ::open(table.c_str(), O_WRONLY);
  REQUIRE(saved >= 0);
  REQUIRE(file >= 0);
  ::dup2(file, STDOUT_FILENO);
  const std::string message = refusal(table);
  ::dup2(saved, STDOUT_FILENO);
  ::close(file);
  ::close(saved);
  CHECK(message.find("is the file stdout is redirected to") != std::string::npos);
}

TEST_CASE("finish_stdout: a failed write to stdout turns exit code 0 into 1, once, and keeps the others") {
  REQUIRE(S_ISCHR(link_mode("/dev/full")));
  std::fflush(stdout);
  std::cout.flush();
  const int saved = ::dup(STDOUT_FILENO);
  const int full = ::open("/dev/full", O_WRONLY);
  REQUIRE(saved >= 0);
  REQUIRE(full >= 0);
  std::ostringstream errors;
  std::streambuf* const previous = std::cerr.rdbuf(errors.rdbuf());
  ::dup2(full, STDOUT_FILENO);
  std::cout << "a help text\n";
  const int failed = finish_stdout("program", 0);
  const int after = finish_stdout("program", 0);  // reported once
  std::cout << "a listing\n";
  const int usage = finish_stdout("program", 2);
  ::dup2(saved, STDOUT_FILENO);
  std::cerr.rdbuf(previous);
  ::close(full);
  ::close(saved);
  CHECK(failed == 1);
  CHECK(after == 0);
  CHECK(usage == 2);
  // The reason is the flush's (No space left on device) when the write waited in stdout's buffer.
  const std::string message = errors.str();
  CHECK(message.rfind("program: error: writing to stdout failed", 0) == 0);
  CHECK(std::count(message.begin(), message.end(), '\n') == 1);
  CHECK(finish_stdout("program", 0) == 0);
}
