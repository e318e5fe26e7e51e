/// @file chapter.hpp
/// Chapter 04 as run_chapter() sees it: its plan (options.hpp) and its spec. Host code only.
#pragma once

#include "host/chapter.hpp"
#include "options.hpp"

namespace stepwise::spmv {

/// The chapter: info, options, the matrix opened after the common checks, its memory checked
/// (and a file read) before the GPU opens, --analyze and the run.
Chapter<Plan> chapter();

}  // namespace stepwise::spmv
