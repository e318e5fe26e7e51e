// Chapter 04: y = A x for a sparse matrix A in CSR form. From a thread per row to merge-based
// load balancing, against cuSPARSE on the same matrix. --matrix picks a generator or a Matrix
// Market file (--n, the default matrix's kind at about n nonzeros); --analyze shows, without a
// GPU, what each stage makes of the matrix's rows (--format json for tools/plot). The spec is
// chapter.cpp.
#include "chapter.hpp"

int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::spmv::chapter()); }
