// Chapter 00: memory bandwidth. Copy kernels against cudaMemcpy: the ceiling every other
// chapter's "% memcpy" column is measured against. The spec is chapter.cpp; the stages are in
// bandwidth.cpp's table, one file each under stages/.
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::bandwidth::chapter()); }
