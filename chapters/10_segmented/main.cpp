// Chapter 10: segmented primitives. Segmented reduce (and the problems registry.cpp lists) over
// CSR-style offsets, from a thread per segment to a load-balanced Merge Path, against CUB
// (--problem). The spec is chapter.cpp; each problem's table and stages are in its own files;
// --analyze needs no GPU.
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::segmented::chapter()); }
