// The table of chapter 00: the order of the stages is the order of the lessons.
#include "bandwidth.hpp"

namespace stepwise::bandwidth {

const std::vector<CopyStage>& copy_stages() {
  static const std::vector<CopyStage> table = numbered<CopyStage>({
      one_per_thread(),  // stages/01_one_per_thread.cu
      grid_stride(),     // stages/02_grid_stride.cu
      warp_sequences(),  // stages/03_warp_sequences.cu
      vector_int2(),     // stages/04_vector_int2.cu
      vector_int4(),     // stages/05_vector_int4.cu
      int4_unrolled(),   // stages/06_int4_unrolled.cu
      int4_tiles(),      // stages/07_int4_tiles.cu
      library_memcpy(),  // stages/lib_memcpy.cpp
  });
  return table;
}

}  // namespace stepwise::bandwidth
