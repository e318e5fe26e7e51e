// Exercise 11-3: the sample sort's splitters and buckets (README.md, "11-3").
//
// The lesson: a sort over G GPUs moves every key at most once between GPUs if each GPU knows,
// before it sends, which range of the output every other GPU holds: G - 1 splitters drawn from a
// regular sample of each sorted part cut every part into G buckets, and bucket d goes to GPU d.
// The samples are (key, global position) pairs, so that all of them are distinct: a run of equal
// keys is cut like any other range, and an input of one repeated key is spread as evenly as a
// uniform one. The bucket counts are the exchange plan: the all-to-all's sizes and offsets.
//
// Predict first, by hand: the keys 5 1 4 1 | 5 9 2 6 | 5 3 5 8 on 3 GPUs with 2 samples each:
// each sorted part, its samples as (key, position), the two splitters and the 3 x 3 counts. Then
// the same with every key 7. Then write the function. Grade it with `ctest --test-dir build -L exercise-11`.
#include "03_sample_sort.hpp"

#include "host/exercise.hpp"

namespace stepwise::multigpu::exercises {

SampleSortPrediction predicted_sample_sort([[maybe_unused]] const std::vector<std::uint32_t>& keys,
                                           [[maybe_unused]] int gpus, [[maybe_unused]] int samples) {
  // TODO: sort each part, pack its samples, sort them all, pick the splitters, count each part's buckets.
  throw NotDoneYet("11-3", "predicted_sample_sort", __FILE__);
}

}  // namespace stepwise::multigpu::exercises
