/// @file mode_options.hpp
/// The size of a run as messages about it name it, from the parsed common options. Host code only.
#pragma once

#include <string>

#include "host/cli.hpp"

namespace stepwise {

/// The size of the run as messages about memory name it: `--n 2^30` as the user typed it,
/// `the default --n 2^26` when not.
inline std::string n_as_given(const CommonOptions& options) {
  return (options.n_given ? "" : "the default ") + std::string("--n ") + options.n_text;
}

}  // namespace stepwise
