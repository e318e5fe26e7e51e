// Chapter 07: branch divergence and thread-data remapping. Elements whose paths differ share a
// warp and serialize; from the divergent kernel and the best kernel that moves nothing, to
// remaps by reference redirection and by data transformation, partial, pipelined and
// controlled. The spec is chapter.cpp; the stages are in divergence.cpp's tables, one file each
// under stages/; --analyze needs no GPU (--format json for tools/plot's remapping diagram).
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::divergence::chapter()); }
