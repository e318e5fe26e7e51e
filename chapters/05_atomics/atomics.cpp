// The tables of chapter 05, one per problem (the histogram's for each operation): the order of
// the stages is the order of the lessons.
#include "atomics.hpp"

#include <type_traits>

namespace stepwise::atomics {

template <class Op>
const std::vector<HistogramStage<Op>>& histogram_stages() {
  static const std::vector<HistogramStage<Op>> table = [] {
    std::vector<HistogramStage<Op>> rows = {
        histogram_naive<Op>(),         // stages/histogram/01_naive.cu
        histogram_ballot_peers<Op>(),  // stages/histogram/02_ballot_peers.cu
        histogram_match_peers<Op>(),   // stages/histogram/03_match_peers.cu
        histogram_subtree<Op>(),       // stages/histogram/04_subtree.cu
        histogram_shared<Op>(),        // stages/histogram/05_shared.cu
        histogram_adaptive<Op>(),      // stages/histogram/06_adaptive.cu
        histogram_thread_runs<Op>(),   // stages/histogram/07_thread_runs.cu
    };
    if constexpr (std::is_same_v<Op, IntAdd>) rows.push_back(histogram_library_cub());  // lib_cub_histogram.cu
    return numbered<HistogramStage<Op>>(rows);
  }();
  return table;
}

const std::vector<TicketStage>& ticket_stages() {
  static const std::vector<TicketStage> table = numbered<TicketStage>({
      ticket_naive(),            // stages/ticket/01_naive.cu
      ticket_warp_aggregated(),  // stages/ticket/02_warp_aggregated.cu
  });
  return table;
}

template const std::vector<HistogramStage<IntAdd>>& histogram_stages<IntAdd>();
template const std::vector<HistogramStage<FloatAdd>>& histogram_stages<FloatAdd>();
template const std::vector<HistogramStage<DoubleCas>>& histogram_stages<DoubleCas>();

}  // namespace stepwise::atomics
