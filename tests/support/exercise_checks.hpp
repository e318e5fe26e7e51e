/// @file exercise_checks.hpp
/// What the exercise graders (tests/NN_name/exercises/grade_*.cpp, docs/exercises.md) share: an
/// answer compared with the chapter's model, every difference listed, the first few printed in one
/// failed check, so that a wrong answer says where it went wrong without flooding the output.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace stepwise::testing {

/// The differences between a student's answers and the chapter's model, collected case by case.
class Differences {
 public:
  /// Records one answer: a difference when @p yours is not @p model. @p where names the question
  /// ("kernel 1, step 3 (s = 4), active warps").
  template <class Yours, class Model>
  void compare(const std::string& where, const Yours& yours, const Model& model) {
    ++compared_;
    if (yours == model) return;
    std::ostringstream line;
    line << where << ": yours " << yours << ", the model's " << model;
    lines_.push_back(line.str());
  }

  /// Records one real-valued answer: a difference when @p yours and @p model differ by more than
  /// @p relative of the larger magnitude (the same arithmetic in another order rounds differently;
  /// a NaN always differs).
  void compare_near(const std::string& where, double yours, double model, double relative = 1e-9) {
    const double scale = std::max(std::fabs(yours), std::fabs(model));
    const bool near = std::fabs(yours - model) <= relative * scale;
    compare(where, near ? model : yours, model);
  }

  /// Records one difference that is not a value (a table of the wrong length, say).
  void add(const std::string& line) {
    ++compared_;
    lines_.push_back(line);
  }

  /// The count of answers that differed: a grader's own test that a planted wrong answer fails reads it.
  std::size_t count() const { return lines_.size(); }

  /// One doctest check: passes when there was no difference; otherwise fails with the first
  /// @p shown differences and the count of the others.
  void check(std::size_t shown = 8) const {
    std::ostringstream message;
    message << lines_.size() << " of " << compared_ << " answers differ from the chapter's model";
    for (std::size_t i = 0; i < lines_.size() && i < shown; ++i) message << "\n  " << lines_[i];
    if (lines_.size() > shown) message << "\n  ... and " << lines_.size() - shown << " more";
    CHECK_MESSAGE(lines_.empty(), message.str());
  }

 private:
  std::size_t compared_ = 0;
  std::vector<std::string> lines_;
};

}  // namespace stepwise::testing
