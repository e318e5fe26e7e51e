/// @file near.hpp
/// What chapter 00's graders share: answers that are real numbers, compared with the chapter's
/// model within a relative tolerance (the same arithmetic in another order rounds differently).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "exercise_checks.hpp"

namespace stepwise::bandwidth::grading {

/// Records @p yours against @p model in @p differences: equal when they differ by at most
/// @p relative of the larger magnitude.
inline void compare_near(testing::Differences& differences, const std::string& where, double yours, double model,
                         double relative = 1e-9) {
  const double scale = std::max(std::fabs(yours), std::fabs(model));
  const bool near = std::fabs(yours - model) <= relative * scale;  // false for NaN
  differences.compare(where, near ? model : yours, model);
}

}  // namespace stepwise::bandwidth::grading
