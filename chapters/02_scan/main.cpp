// Chapter 02: prefix scan. From the textbook block scans to the single-pass scan with decoupled
// look-back, against cub::DeviceScan on the same data. The spec (options, problem, run) is
// chapter.cpp; the stages are in scan.cpp's table, one file each under stages/. --analyze prints
// the bank conflicts of the transposes and of Blelloch's tree, and a look-back example, without
// a GPU (--format json for tools/plot).
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::scan::chapter()); }
