// Exercise 01-3, solved. Warp 0 is the busiest warp: its lanes add while 2s*lane < block, so
// min(32, block / 2s) of them. Lane i's words are 2s*i and 2s*i + s, one bank every 32 / 2s lanes
// while 2s < 32, so ceil(lanes * 2s / 32) lanes meet in a bank; from 2s = 32 on every working lane
// falls in the same bank. Both cases are the smaller of the two counts. The busy warps after warp 0
// are warp 0 shifted by a multiple of 32 words: the same banks.
#include <algorithm>

#include "03_strided_banks.hpp"

namespace stepwise::reduction::exercises {

unsigned strided_conflict_degree(unsigned stride, unsigned block) {
  const unsigned lanes = std::min(32u, block / (2 * stride));  // the lanes of warp 0 that add
  const unsigned sharing = (lanes * 2 * stride + 31) / 32;     // lanes per bank while 2s < 32
  return std::min(lanes, sharing);
}

}  // namespace stepwise::reduction::exercises
