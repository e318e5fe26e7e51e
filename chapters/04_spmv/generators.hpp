/// @file generators.hpp
/// Chapter 04's seeded matrix generators, the `--matrix NAME:ARGS` specs: their synopses for
/// --help, their arguments read and checked, the size of their matrix before it is built, and
/// the matrices themselves (reproducible from a seed on any machine and any number of threads).
/// Host code only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace stepwise::spmv {

/// The generator names --matrix accepts, with their arguments, for --help:
/// `stencil5:NXxNY`, `stencil27:NXxNYxNZ`, `uniform:ROWS[xCOLS]:K`, `rmat:SCALE:EDGES_PER_ROW`,
/// `huge-row:ROWS:K:LONG`, `lecture`.
const std::vector<std::string>& generator_synopses();

/// The generator names, for messages: `lecture, stencil5, stencil27, uniform, rmat, huge-row`.
std::string known_generators();

/// The generator name of @p spec: what comes before its first ':' (the whole spec without one).
std::string generator_name(const std::string& spec);

/// True when @p spec names a generator (`NAME` or `NAME:ARGS` with a known NAME), false when it
/// is to be read as a file.
bool is_generator_spec(const std::string& spec);

/// The matrix a generator spec describes, reproducible from @p seed (the same spec and seed give
/// the same matrix on any machine and with any number of threads):
/// - `lecture`: the lecture's 4 x 4 example of matrix.hpp;
/// - `stencil5:NXxNY`: the 2-D 5-point Laplacian on an NX x NY grid (4 on the diagonal, -1 for
///   each neighbour), NX * NY rows;
/// - `stencil27:NXxNYxNZ`: the 3-D 27-point stencil (26 on the diagonal, -1 for each neighbour);
/// - `uniform:ROWS[xCOLS]:K`: K distinct random columns in every row (COLS defaults to ROWS),
///   values uniform in [-1, 1);
/// - `rmat:SCALE:EDGES_PER_ROW`: an R-MAT power-law graph with the Graph500 parameters
///   (a, b, c, d) = (0.57, 0.19, 0.19, 0.05): 2^SCALE rows and columns, EDGES_PER_ROW x 2^SCALE
///   edges drawn, vertex labels randomly permuted (as Graph500 does), duplicate edges merged;
///   values uniform in [-1, 1);
/// - `huge-row:ROWS:K:LONG`: `uniform:ROWS:K` plus one row (the middle one) holding LONG distinct
///   nonzeros; the matrix has max(ROWS, LONG) columns (MatrixSize's note says so when LONG is
///   above ROWS).
/// @throws MatrixError for an unknown name, a malformed or out-of-range argument, or a matrix
///   above the 32-bit limits.
CsrMatrix generate_matrix(const std::string& spec, std::uint64_t seed);

/// What the generator spec @p spec says about its matrix before it is built, its arguments read
/// and checked as generate_matrix checks them: the rows, columns and nonzeros (R-MAT's edges
/// before repeated ones are merged), R-MAT's build memory, and huge-row's note when LONG is above
/// ROWS.
/// @throws MatrixError as generate_matrix does.
MatrixSize generator_size(const std::string& spec);

/// The matrix the common `--n` stands for: the default matrix's kind, the 27-point stencil, on an
/// X x X x 2X grid (the default's proportions, 128 x 128 x 256), X the one whose nonzero count
/// (3X - 2)^2 (6X - 2) is nearest @p nonzeros (the first X on a tie; X = 128 for 111,777,784, the
/// default matrix's count).
/// @throws MatrixError for @p nonzeros above 2^31 - 1 (32-bit indices), or 0.
std::string scaled_default_matrix(std::uint64_t nonzeros);

}  // namespace stepwise::spmv
