/// @file matrix_market.hpp
/// Chapter 04's Matrix Market reader: `--matrix FILE`, read whole (read_matrix_market), or its
/// header first (read_matrix_market_header: what MatrixSource says of the matrix before it is
/// read). Host code only.
#pragma once

#include <cstdint>
#include <string>

#include "matrix.hpp"

namespace stepwise::spmv {

/// How read_matrix_market gave values to a `pattern` file: every stored entry is 1.0 (the
/// adjacency matrix the file stands for).
inline constexpr double kPatternValue = 1.0;

/// The most rows (or columns) a Matrix Market file may declare beyond the entries it can hold:
/// each row costs memory and time whether the file fills it or not, so a 60-byte file declaring
/// 2^31 - 1 rows is refused at its size line instead of costing 17 GB.
inline constexpr std::int64_t kMostEmptyRows = std::int64_t{1} << 24;

/// Reads a Matrix Market file: `%%MatrixMarket matrix coordinate` with field `real`, `integer`
/// or `pattern` and symmetry `general`, `symmetric` or `skew-symmetric` (the stored triangle is
/// mirrored to both: a_ji = a_ij, or -a_ij for skew; diagonal entries once). Comment lines (`%`)
/// and blank lines are skipped; duplicate entries are summed. Fast enough for files of tens of
/// millions of entries (the whole file is read at once and parsed without iostreams). Memory
/// goes by what the file holds, never by what its size line declares: the entries are stored as
/// they are read, and a size line may declare at most kMostEmptyRows rows (and columns) more
/// than the entries the rest of the file can hold. A file that is not regular (a pipe) is read
/// in blocks: refused at its first block unless it starts with the banner (`/dev/zero` is refused
/// at once), and refused once it holds more than half the host memory available.
/// @throws MatrixError with `PATH:LINE: what` for a missing or unreadable file, a wrong banner
///   (array format, complex field, hermitian symmetry, unknown words), a bad size line, an index
///   out of range or zero, a value that is not a number, an entry off the stored triangle of a
///   symmetric file, too few or too many entries, trailing garbage, or a matrix above the
///   32-bit limits or above what the file can fill.
CsrMatrix read_matrix_market(const std::string& path);

/// A Matrix Market file's header, read before its entries.
struct MatrixMarketHeader {
  MatrixSize size;  ///< what the banner and the size line say of the matrix
  /// The file is not regular (a pipe): it cannot be read twice, so it was read whole, into
  /// stream_text, for parse_matrix_market.
  bool stream = false;
  std::string stream_text;  ///< a stream's whole text; empty for a regular file
};

/// Opens the file at @p path and reads its banner and size line, checked as read_matrix_market
/// checks them: a regular file up to its size line (its entries are left for read_matrix_market),
/// a file that is not regular whole, as read_matrix_market reads it.
/// @throws MatrixError as read_matrix_market does for the file and its header.
MatrixMarketHeader read_matrix_market_header(const std::string& path);

/// The matrix of @p text, the whole text of the Matrix Market file at @p path (a stream's, held
/// by MatrixMarketHeader), parsed as read_matrix_market parses it.
/// @throws MatrixError as read_matrix_market does.
CsrMatrix parse_matrix_market(const std::string& path, const std::string& text);

}  // namespace stepwise::spmv
