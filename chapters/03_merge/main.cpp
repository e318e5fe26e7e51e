// Chapter 03: merge, and the merge-like sorted search and load-balancing search. From one binary
// search per element to Merge Path, against CUB and Thrust on the same data. --problem picks the
// table (merge, search, lbs); the stages are in merge.cpp's tables, one file each under
// stages/; --analyze draws the Merge Path and counts each stage's work without a GPU (--format
// json for tools/plot's concept diagrams). The spec is chapter.cpp.
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::merge::chapter()); }
