// The template chapter: its spec is chapter.cpp; its stages are in square.cpp's table.
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::square::chapter()); }
