// Chapter 05: warp-aggregated atomics. A histogram (scatter-add into K bins) from one atomic per
// element to one per distinct key per warp (Westphal's voting and shuffling), against
// cub::DeviceHistogram, and the filter's ticket, which the compiler now aggregates by itself.
// The spec is chapter.cpp (--problem picks the table); the stages are in atomics.cpp's tables,
// one file each under stages/; --surface times them over keys per warp and operations;
// --analyze needs no GPU (--format json for tools/plot's peers and sub-tree diagrams).
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::atomics::chapter()); }
