// Chapter 09: sorting. Radix sorts from one bit per pass to Onesweep against
// cub::DeviceRadixSort, and merge sorts against cub::DeviceMergeSort (--problem radix|merge),
// with thrust's sort beside each. The spec is chapter.cpp; the stages are in sort.cpp's tables,
// one file each under stages/radix and stages/merge; --analyze needs no GPU.
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::sort::chapter()); }
