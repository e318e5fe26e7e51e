/// @file exercise.hpp
/// What an untouched exercise file does: it throws NotDoneYet, which its grader reports as the
/// exercise still to do (docs/exercises.md). Plain C++, no CUDA header: student files (`.cpp` and
/// `.cu`) and graders include it alike.
#pragma once

#include <stdexcept>
#include <string>

namespace stepwise {

/// Thrown by the TODO body of a student file (chapters/NN_name/exercises/*.cpp), or by the first
/// line of a build exercise's stage factory (exercises/build_*.cu, not_done_yet()). Its message says
/// which exercise, which function to fill in, in which file, and where the exercise is explained:
/// `exercise 01-2: fill in `warp_conflict_degree` in chapters/01_reduction/exercises/02_banks.cpp,
/// see chapters/01_reduction/exercises/README.md`.
class NotDoneYet : public std::logic_error {
 public:
  /// @param exercise the exercise's number, "NN-K" (chapter NN, exercise K)
  /// @param function the function the student fills in
  /// @param file the student file, `__FILE__`: the message shows it from `chapters/` on
  NotDoneYet(const std::string& exercise, const std::string& function, const std::string& file)
      : std::logic_error(message(exercise, function, file)) {}

  /// The message of NotDoneYet(@p exercise, @p function, @p file).
  static std::string message(const std::string& exercise, const std::string& function, const std::string& file) {
    const std::size_t chapters = file.rfind("chapters/");
    const std::string path = chapters == std::string::npos ? file : file.substr(chapters);
    const std::size_t slash = path.rfind('/');
    const std::string readme = slash == std::string::npos ? "README.md" : path.substr(0, slash + 1) + "README.md";
    return "exercise " + exercise + ": fill in `" + function + "` in " + path + ", see " + readme;
  }
};

/// Throws NotDoneYet(@p exercise, @p function, @p file): the first line of a build exercise's stage
/// factory, which the student deletes once the kernel is written: until then the grader stops
/// there, before any GPU work (tests/support/build_exercise.hpp).
inline void not_done_yet(const std::string& exercise, const std::string& function, const std::string& file) {
  throw NotDoneYet(exercise, function, file);
}

}  // namespace stepwise
