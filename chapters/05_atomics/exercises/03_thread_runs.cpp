// Exercise 05-3: the atomics of thread runs against those of warp groups (README.md, "05-3").
//
// The lesson: stages 2-5 give each lane one key per step, so a warp of 32 keys with d distinct
// ones sends d atomics, and pays a match for them whatever d is. Stage 7 gives each thread 8
// consecutive keys: a run of equal keys is summed in a register, a run that ends inside the 8
// keys is one atomic, and only each thread's last run (which may go on in the next lane's keys)
// is aggregated across the warp, once per 256 keys.
//
// Predict first: 2^24 equal keys, and 2^24 keys in runs of 8 on 32 bins (`--distribution runs:8
// --bins 32`): the atomics of each scheme, or a bound on them. Then write the count. Grade it
// with `ctest --test-dir build -L exercise-05`.
#include "03_thread_runs.hpp"

#include "host/exercise.hpp"

namespace stepwise::atomics::exercises {

KeyAtomics key_atomics([[maybe_unused]] const std::vector<Key>& keys) {
  // TODO: per tile of 32, its distinct keys; per thread of kKeysPerThread, its inner run ends; per
  // warp of 32 threads, the distinct keys of the last runs. Mind the keys past n.
  throw NotDoneYet("05-3", "key_atomics", __FILE__);
}

}  // namespace stepwise::atomics::exercises
