// Chapter 11: many GPUs. Its spec is chapter.cpp; its stages are in allreduce.cpp's table.
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::multigpu::chapter()); }
