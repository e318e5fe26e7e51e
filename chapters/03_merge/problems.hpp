/// @file problems.hpp
/// The chapter's three problems as the harness runs them: inputs on the device, the CPU
/// reference, the check of a row's output, and the run of a table. Host code.
#pragma once

#include <vector>

#include "host/harness.hpp"
#include "options.hpp"

namespace stepwise::merge {

/// The rows of @p problem's table as --list shows them (the int32 table; the int64 one has the
/// same rows).
std::vector<StageInfo> stage_infos(ProblemKind problem);

/// Builds the plan's problem on the device and runs its table through @p session (the spec has
/// checked host_bytes_needed, the run device_bytes_needed, first).
/// @return the exit code: kExitOk, or kExitFailed when a check failed.
int run_plan(Session& session, const Plan& plan);

}  // namespace stepwise::merge
