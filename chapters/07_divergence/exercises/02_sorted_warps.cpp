// Exercise 07-2: the divergence a remap leaves (README.md, "07-2").
//
// The lesson: stage 3 sorts the work by path (reference redirection: thread t works on element
// IND[t]), so the threads of a warp share one path, except where the sorted order passes from one
// path to the next inside a warp. However the input was mixed, what is left depends only on how
// many elements take each path: at most one divergent warp per boundary between paths.
//
// Predict first: the paper's example the lecture draws, 16 elements in warps of 4: how many
// elements take each path, and which warps still diverge after the remap? 2^24 elements over
// four paths, fully mixed? A histogram whose counts are all multiples of 32?
// Then write the function. Grade it with `ctest --test-dir build -L exercise-07`.
#include "02_sorted_warps.hpp"

#include "host/exercise.hpp"

namespace stepwise::divergence::exercises {

std::size_t divergent_after_sort([[maybe_unused]] const std::vector<std::size_t>& histogram,
                                 [[maybe_unused]] std::size_t warp_width) {
  // TODO: where each path's run of elements ends in the sorted order, and which warps hold such an end inside them.
  throw NotDoneYet("07-2", "divergent_after_sort", __FILE__);
}

}  // namespace stepwise::divergence::exercises
