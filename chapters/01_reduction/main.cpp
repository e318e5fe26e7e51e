// Chapter 01: parallel reduction. Harris's seven kernels (and stage 2, kernel 1 without its
// `%`), then warp shuffles, vector loads, the block size and a single pass, against
// cub::DeviceReduce::Sum. The spec (options, problem, run) is chapter.cpp; the stages are in
// reduction.cpp's table, one file each under stages/; the data and its check in
// reduce_reference.hpp; --analyze in reduce_analysis.hpp.
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::reduction::chapter()); }
