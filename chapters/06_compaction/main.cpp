// Chapter 06: stream compaction. Keep the elements that pass a test, from one atomic per kept
// element to a single ordered pass with decoupled look-back, against cub::DeviceSelect::If and
// ::Flagged. The spec is chapter.cpp; the stages are in compaction.cpp's table, one file each
// under stages/; --analyze needs no GPU (--format json for the concept diagrams of tools/plot).
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::compaction::chapter()); }
