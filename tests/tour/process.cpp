#include "process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace stepwise::test {
namespace {

/// A temporary file that is removed when it goes out of scope.
struct TemporaryFile {
  std::string path;
  TemporaryFile() {
    char name[] = "/tmp/stepwise-process-XXXXXX";
    const int descriptor = mkstemp(name);
    if (descriptor < 0) throw std::runtime_error("cannot create a temporary file");
    close(descriptor);
    path = name;
  }
  ~TemporaryFile() { std::remove(path.c_str()); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  std::string read() const {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
  }
};

}  // namespace

ProcessResult run_process(const std::vector<std::string>& arguments, const std::string& directory,
                          const std::map<std::string, std::string>& environment, double timeout_seconds) {
  if (arguments.empty()) throw std::invalid_argument("run_process: no program");
  std::map<std::string, std::string> variables;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const std::size_t equals = text.find('=');
    if (equals != std::string::npos) variables[text.substr(0, equals)] = text.substr(equals + 1);
  }
  for (const auto& [name, value] : environment) variables[name] = value;
  std::vector<std::string> environment_text;
  for (const auto& [name, value] : variables) environment_text.push_back(name + "=" + value);
  std::vector<char*> environment_pointers;
  for (std::string& entry : environment_text) environment_pointers.push_back(entry.data());
  environment_pointers.push_back(nullptr);
  // The program runs through /bin/sh for the directory change: `cd DIR && exec "$@"`.
  std::vector<std::string> shell = {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.empty() ? "." : directory};
  shell.insert(shell.end(), arguments.begin(), arguments.end());
  std::vector<char*> shell_pointers;
  for (std::string& argument : shell) shell_pointers.push_back(argument.data());
  shell_pointers.push_back(nullptr);

  TemporaryFile out;
  TemporaryFile err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.path.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.path.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, "/bin/sh", &actions, &attributes, shell_pointers.data(), environment_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) throw std::runtime_error("cannot start " + arguments.front());

  ProcessResult result;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = out.read();
  result.err = err.read();
  return result;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

}  // namespace stepwise::test
