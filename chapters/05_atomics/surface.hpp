/// @file surface.hpp
/// `--surface`: the histogram's stages timed over 1, 2, 4, ..., 32 distinct keys per warp and
/// the operations, in one process, each point checked before and after timing like a table's
/// row. Host code (needs a GPU).
#pragma once

#include "host/harness.hpp"
#include "plan.hpp"

namespace stepwise::atomics {

/// Measures the surface of @p plan (its bins and surface_ops, the session's n, seed, reps and
/// flush; --stage selects the stages, the first kernel row is always measured: it is the 1.00x) and prints it
/// in --format (to --output too, when given).
/// @return kExitOk, or kExitFailed when a check failed.
int run_surface(Session& session, const Plan& plan);

}  // namespace stepwise::atomics
