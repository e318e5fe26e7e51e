/// @file inputs.hpp
/// The chapter's inputs and CPU reference, on the host: the synthetic elements with a chosen
/// share of divergent warps, the mutation workload's population, the reference run, and the
/// arrangements the stages give the elements (for --analyze and the tests). Host code only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "host/types.hpp"
#include "workload.hpp"

namespace stepwise::divergence {

/// The workloads (--workload).
enum class WorkloadKind { synthetic, mutation };

/// The default rounds of path p: 64 x 2^p, at most 512 (--costs overrides them).
unsigned default_rounds(unsigned p);

/// Everything a run needs beyond the common options: the options bind to it as they are
/// parsed, and validate_plan() (options.hpp) completes it.
struct Plan {
  WorkloadKind workload = WorkloadKind::synthetic;
  unsigned paths = 4;              ///< synthetic: K
  std::vector<unsigned> rounds;    ///< synthetic: rounds of each path (K values; --costs or the defaults)
  double divergence = 1.0;         ///< synthetic: the share of warps drawn mixed
  double mutation_rate = 0.1;      ///< mutation: the chance an individual mutates
  unsigned mutation_rounds = 512;  ///< mutation: bits a mutation flips
  unsigned steps = 1;              ///< mutation: generations (synthetic: 1)
  /// The workload options typed (`--paths`, `--steps`, ...): each applies to one workload only.
  std::vector<std::string> given;
};

/// How a stage gives the elements to threads: what --analyze costs it by.
enum class Arrangement {
  own_branches,    ///< thread t on element t, a branch per path (warp_cost's branch form)
  own_loop,        ///< thread t on element t, the paths as one loop
  by_path,         ///< thread t on element order_by_path()[t]
  partial,         ///< partial_order(): only divergent warps' elements sorted
  heaviest_first,  ///< order_by_slot() with the costliest path first (heaviest_first)
  sampled,         ///< by_path when its sample says the remap pays (Sample::remaps), else own_loop
  lean,            ///< the costliest path's elements listed and run after the others (lean_cost)
};

/// What a stage does on the host in the middle of its run (the report's note names them).
enum class HostWork {
  none,
  reads_count,      ///< reads a count back to the host (to size a sort, to decide)
  computes_remaps,  ///< computes its remaps on the host between launches
};

/// The facts of a stage the chapter's host code reads (--analyze, the report's notes, the tests),
/// set in the stage's own file.
struct DivergeTraits {
  Arrangement arrangement = Arrangement::own_loop;
  HostWork host_work = HostWork::none;
};

/// A row of the table as host-only code sees it: what --list shows, and its traits.
struct StageFacts {
  StageInfo info;
  DivergeTraits traits;
};

/// The synthetic workload of @p plan.
Synthetic synthetic_work(const Plan& plan);
/// The mutation workload of @p plan, its draws seeded by @p seed.
Mutation mutation_work(const Plan& plan, std::uint64_t seed);

/// @p n synthetic elements over @p paths paths: each warp-sized chunk of 32 consecutive
/// elements is drawn mixed (each element's path drawn alone) with probability @p divergence,
/// or else uniform (one path drawn for the chunk). The bits above the path are random.
std::vector<std::uint32_t> synthetic_input(std::size_t n, unsigned paths, double divergence, std::uint64_t seed);

/// @p n random genomes.
std::vector<Genome> random_population(std::size_t n, std::uint64_t seed);

/// The CPU reference: @p steps steps of @p work over @p input, each element's result in its place.
template <class W>
std::vector<typename W::Item> run_reference(const W& work, const std::vector<typename W::Item>& input, unsigned steps);

/// Each element's path in step @p step.
template <class W>
std::vector<std::uint8_t> paths_of(const W& work, const std::vector<typename W::Item>& input, unsigned step);

/// The remap of step @p step computed on the host, as the paper's pipelined scheme does: each
/// element's path (W's paths must not read the element: kPathReadsItem false), then the indices
/// stably sorted by path, into @p order (n entries): what the GPU's radix sort gives. A counting
/// sort in two parallel passes over chunks: count each chunk's paths, then write each chunk's
/// indices at its offsets.
template <class W>
void order_on_host(const W& work, std::size_t n, unsigned step, std::uint32_t* order);

/// For the report: `0x0123abcd 0x...` (four words).
std::ostream& operator<<(std::ostream& out, const Genome& genome);

/// What a warp arrangement costs: warps run in thread order, 32 elements each.
struct WarpCost {
  std::size_t warps = 0;
  std::size_t divergent_warps = 0;  ///< warps holding more than one path
  double branch_rounds = 0;         ///< warp-rounds with a branch per path: the sum of its paths' rounds
  double loop_rounds = 0;           ///< warp-rounds with one loop: its longest lane's rounds
  double lane_rounds = 0;           ///< the rounds the elements need, summed over lanes
  /// Threads busy per issued round (1 = every lane works every round), for the loop form.
  double loop_efficiency() const { return loop_rounds > 0 ? lane_rounds / (kWarp * loop_rounds) : 1.0; }
  double branch_efficiency() const { return branch_rounds > 0 ? lane_rounds / (kWarp * branch_rounds) : 1.0; }
};

/// The cost of running elements with paths @p paths in the order @p order (thread t takes
/// element order[t]; all of them when @p order is empty), each path p costing @p rounds[p].
WarpCost warp_cost(const std::vector<std::uint8_t>& paths, const std::vector<std::uint32_t>& order,
                   const unsigned* rounds);

/// The cost of stage 9's arrangement of @p paths: thread t runs element t unless its path is
/// @p costliest, and the last M threads (M elements take @p costliest) run those elements, each
/// thread one, after its own. A warp issues its in-place lanes' longest path, then @p costliest
/// if any of its threads runs a listed element. Divergent: a warp whose in-place lanes hold more
/// than one path. @p listed_elsewhere gets how many listed elements run on a thread other than
/// their own (in the listing's best case, ascending order).
WarpCost lean_cost(const std::vector<std::uint8_t>& paths, unsigned costliest, const unsigned* rounds,
                   std::size_t* listed_elsewhere);

/// The order stages 3, 4 and 6 give the elements: stable by path (what the radix sort returns).
std::vector<std::uint32_t> order_by_path(const std::vector<std::uint8_t>& paths);

/// The order stage 7 gives the elements: stable by the slot of their path (heaviest_first).
std::vector<std::uint32_t> order_by_slot(const std::vector<std::uint8_t>& paths, const PathSlots& slots);

/// The elements stage 5 moves: those of divergent warps, stable by path.
std::vector<std::uint32_t> partial_moves(const std::vector<std::uint8_t>& paths);

/// Stage 5's arrangement: uniform warps in place, then the moved elements in their sorted order.
std::vector<std::uint32_t> partial_order(const std::vector<std::uint8_t>& paths);

/// What stage 8's sample reads: every stride-th warp of at most 2048, as its kernel does.
struct Sample {
  double sum_max = 0, sum_mean = 0, warps = 0;
  bool remaps() const { return controlled_should_remap(sum_max, sum_mean, warps); }
};
Sample sample_warps(const std::vector<std::uint8_t>& paths, const unsigned* rounds);

}  // namespace stepwise::divergence
