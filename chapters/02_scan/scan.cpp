// The table of chapter 02: the order of the stages is the order of the lessons.
#include "scan.hpp"

namespace stepwise::scan {

template <class Op>
const std::vector<ScanStage<Op>>& scan_stages() {
  static const std::vector<ScanStage<Op>> table = [] {
    std::vector<ScanStage<Op>> stages = {
        hillis_steele<Op>(),    // stages/01_hillis_steele.cu
        blelloch<Op>(),         // stages/02_blelloch.cu
        blelloch_padded<Op>(),  // stages/03_blelloch_padded.cu
        rts_vt8<Op>(),          // stages/04_rts_vt8.cu
        rts_vt7<Op>(),          // stages/05_rts_vt7.cu
        rts_shuffle<Op>(),      // stages/06_rts_shuffle.cu
        single_pass<Op>(),      // stages/07_single_pass.cu
    };
    if constexpr (kHasCubRow<Op>) stages.push_back(library_cub_scan<Op>());  // stages/lib_cub_scan.cu
    return numbered<ScanStage<Op>>(std::move(stages));
  }();
  return table;
}

template const std::vector<ScanStage<WrappingAdd>>& scan_stages<WrappingAdd>();
template const std::vector<ScanStage<FloatAdd>>& scan_stages<FloatAdd>();
template const std::vector<ScanStage<ComposeAffine>>& scan_stages<ComposeAffine>();

}  // namespace stepwise::scan
