// Chapter 08: relational joins on sorted tables. Baxter's sort-merge join from chapter 03's
// sorted search and load-balancing search: inner, left, right and outer joins of two sorted key
// columns, from binary searches and a thread per row to Merge Path tiles, against the best
// Thrust + CUB composition. The spec is chapter.cpp; the stages are in join.cpp's table, one
// file each under stages/; --analyze prints the talk's worked joins without a GPU (--format json
// for tools/plot).
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::join::chapter()); }
