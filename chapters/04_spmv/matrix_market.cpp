#include "matrix_market.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/stat.h>

#include "host/host_memory.hpp"
#include "host/parallel.hpp"
#include "host/sizes.hpp"
#include "matrix_assembly.hpp"

namespace stepwise::spmv {

using namespace detail;

namespace {

/// @p text in lower case (the banner's words are case-insensitive).
std::string lower_case(std::string_view text) {
  std::string lower(text);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return lower;
}

/// A file open for reading, and what fstat says of it.
class OpenFile {
 public:
  /// @throws MatrixError `PATH: cannot open the file: reason`, or `...: it is a directory`.
  explicit OpenFile(const std::string& path) : file_(std::fopen(path.c_str(), "rb"), std::fclose), path_(path) {
    if (!file_) throw MatrixError(path + ": cannot open the file: " + std::strerror(errno));
    if (fstat(fileno(file_.get()), &status_) != 0)
      throw MatrixError(path + ": cannot read the file: " + std::strerror(errno));
    if (S_ISDIR(status_.st_mode)) throw MatrixError(path + ": cannot read the file: it is a directory");
  }

  bool regular() const { return S_ISREG(status_.st_mode); }
  /// The size of a regular file.
  std::int64_t bytes() const { return static_cast<std::int64_t>(status_.st_size); }

  /// Appends up to @p count bytes to @p text; false at the end of the file.
  /// @throws MatrixError when the read fails.
  bool read_into(std::string& text, std::size_t count) {
    const std::size_t before = text.size();
    text.resize(before + count);
    const std::size_t got = std::fread(text.data() + before, 1, count, file_.get());
    text.resize(before + got);
    if (std::ferror(file_.get())) throw MatrixError(path_ + ": cannot read the file: " + std::strerror(errno));
    return got > 0;
  }

 private:
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::string path_;
  struct stat status_ {};
};

/// Bytes read at a time from a file that is not regular, and from a header.
constexpr std::size_t kReadBlockBytes = std::size_t{1} << 16;

/// The banner's first word, which a Matrix Market file starts with.
constexpr std::string_view kBannerWord = "%%matrixmarket";

/// Refuses @p text, the start of the file at @p path, unless it starts with the banner's first
/// word (any case); a text shorter than the word is left to the parser.
void require_banner_start(const std::string& path, std::string_view text) {
  const std::string start = lower_case(text.substr(0, kBannerWord.size()));
  if (text.size() >= kBannerWord.size() && start != kBannerWord)
    throw MatrixError(path + ":1: not a Matrix Market file: the first line must start with %%MatrixMarket");
}

/// The whole text of @p file: a regular file at once; anything else (a pipe) in blocks, refused
/// at its first block unless it starts with the banner (`/dev/zero` ends there), and once it
/// holds more than half the host memory available.
std::string read_whole_file(const std::string& path, OpenFile& file) {
  std::string text;
  if (file.regular()) {
    if (file.bytes() > 0) file.read_into(text, static_cast<std::size_t>(file.bytes()));
    while (file.read_into(text, kReadBlockBytes)) {  // the end of a file that grew
    }
    return text;
  }
  const double limit = static_cast<double>(available_host_bytes()) / 2.0;
  while (file.read_into(text, kReadBlockBytes)) {
    require_banner_start(path, text);
    if (limit > 0.0 && static_cast<double>(text.size()) > limit)
      throw MatrixError(path + ": this stream holds more than " + format_bytes(limit) +
                        " (half the host memory available) and has not ended: too large to read");
  }
  return text;
}

/// The start of the regular file @p file up to the end of its size line (the first line after the
/// banner that is neither blank nor a comment), or the whole file when it has none: its header,
/// read without its entries. Refused at once unless it starts with the banner.
std::string read_header_text(const std::string& path, OpenFile& file) {
  std::string text;
  std::size_t line_start = 0;
  bool banner_read = false;
  for (bool more = true; more;) {
    more = file.read_into(text, kReadBlockBytes);
    require_banner_start(path, text);
    for (std::size_t newline; (newline = text.find('\n', line_start)) != std::string::npos;) {
      const std::string_view line(text.data() + line_start, newline - line_start);
      line_start = newline + 1;
      if (!banner_read) {
        banner_read = true;
        continue;
      }
      const std::size_t first = line.find_first_not_of(" \t\r\v\f");
      if (first != std::string_view::npos && line[first] != '%') return text.substr(0, line_start);
    }
  }
  return text;
}

/// A Matrix Market file's banner words.
enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric, skew_symmetric };

/// The lines of a text, one at a time, with their numbers, and the tokens of the current line.
class LineCursor {
 public:
  /// The lines of [@p begin, @p end), the first of them numbered @p first_line_number.
  LineCursor(const char* begin, const char* end, std::int64_t first_line_number)
      : next_(begin), end_(end), line_number_(first_line_number - 1) {}

  /// Moves to the next line; false at the end of the text.
  bool next_line() {
    if (next_ >= end_) return false;
    const char* newline = static_cast<const char*>(std::memchr(next_, '\n', static_cast<std::size_t>(end_ - next_)));
    cursor_ = next_;
    line_end_ = newline ? newline : end_;
    next_ = newline ? newline + 1 : end_;
    ++line_number_;
    return true;
  }

  /// Moves to the next line that is neither blank nor a comment (`%`); false at the end.
  bool next_content_line() {
    while (next_line()) {
      const char* first = cursor_;
      while (first < line_end_ && is_space(*first)) ++first;
      if (first < line_end_ && *first != '%') return true;
    }
    return false;
  }

  /// The next whitespace-separated token of the line, empty at its end.
  std::string_view next_token() {
    while (cursor_ < line_end_ && is_space(*cursor_)) ++cursor_;
    const char* begin = cursor_;
    while (cursor_ < line_end_ && !is_space(*cursor_)) ++cursor_;
    return {begin, static_cast<std::size_t>(cursor_ - begin)};
  }

  /// The number of the current line (one-based; 0 before the first).
  std::int64_t line_number() const { return line_number_; }
  /// Where the next line starts.
  const char* rest() const { return next_; }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

  const char* next_;                ///< the start of the next line
  const char* end_;                 ///< the end of the text
  const char* cursor_ = nullptr;    ///< the next character of the current line
  const char* line_end_ = nullptr;  ///< the end of the current line (its '\n' or the end of the text)
  std::int64_t line_number_;
};

/// Bytes of entry lines per chunk of the parallel parse (cut at the next line end).
constexpr std::int64_t kTextChunkBytes = 1 << 22;

/// Parses a Matrix Market file held in memory. The banner and the size line are read first;
/// the entry lines are then cut into chunks of about 4 MiB (at line ends, so the chunks depend
/// on the file alone) that threads parse at once. If any chunk finds an error, or the entries
/// do not add up to the size line's count, the entries are read again one line after the other
/// to name the first problem and its line.
class MatrixMarketParser {
 public:
  /// The parser of @p text, the file at @p path whole, or its header only (read_header_text) of
  /// a file of @p file_bytes bytes (-1: the text is the whole file).
  MatrixMarketParser(const std::string& path, const std::string& text, std::int64_t file_bytes = -1)
      : path_(path),
        begin_(text.data()),
        end_(text.data() + text.size()),
        file_bytes_(file_bytes < 0 ? static_cast<std::int64_t>(text.size()) : file_bytes) {}

  /// What the banner and the size line say of the matrix (the entries are not read).
  MatrixSize header() {
    LineCursor lines(begin_, end_, 1);
    read_banner(lines);
    read_size_line(lines);
    MatrixSize size;
    size.rows = rows_;
    size.cols = cols_;
    const std::int64_t entries = std::min(entry_count_, entry_capacity_);  // at most what the file holds
    const std::int64_t stored = symmetry_ == Symmetry::general ? entries : 2 * entries;
    size.nonzeros = std::min(stored, rows_ * cols_);
    size.longest_row = std::min(size.nonzeros, cols_);  // a row holds each column once
    // The text, the entries as read and as sorted by row (16 bytes each), the rows' counts.
    size.build_bytes = static_cast<double>(file_bytes_) + 2.0 * sizeof(FileEntry) * static_cast<double>(stored) +
                       4.0 * static_cast<double>(rows_);
    return size;
  }

  CsrMatrix parse() {
    LineCursor lines(begin_, end_, 1);
    read_banner(lines);
    read_size_line(lines);
    std::vector<std::vector<FileEntry>> chunks = read_entries(lines.rest(), lines.line_number() + 1);
    std::int64_t stored = 0;
    for (const std::vector<FileEntry>& chunk : chunks) stored += static_cast<std::int64_t>(chunk.size());
    if (stored > kMaxIndex)
      fail(size_line_number_, std::to_string(stored) + " nonzeros once the triangle is mirrored: above " + kLimitText);
    CsrMatrix matrix = assemble(rows_, cols_, chunks, [](std::int64_t, const FileEntry& entry) { return entry.value; });
    const std::int64_t merged = stored - static_cast<std::int64_t>(matrix.nnz());
    const char* field = field_ == Field::real ? "real" : field_ == Field::integer ? "integer" : "pattern";
    const char* symmetry = symmetry_ == Symmetry::general     ? "general"
                           : symmetry_ == Symmetry::symmetric ? "symmetric, expanded"
                                                              : "skew-symmetric, expanded";
    matrix.description = path_.substr(path_.find_last_of('/') + 1) + " (" + field + ", " + symmetry +
                         (merged > 0 ? ", " + std::to_string(merged) + " duplicates summed" : "") + ")";
    return matrix;
  }

 private:
  /// @throws MatrixError `PATH:LINE: what`.
  [[noreturn]] void fail(std::int64_t line_number, const std::string& what) const {
    throw MatrixError(path_ + ":" + std::to_string(line_number) + ": " + what);
  }

  void read_banner(LineCursor& lines) {
    if (!lines.next_line()) fail(1, "empty file: expected the banner %%MatrixMarket matrix coordinate FIELD SYMMETRY");
    const std::string_view marker = lines.next_token();
    if (lower_case(marker) != "%%matrixmarket")
      fail(lines.line_number(), "not a Matrix Market file: the first line must start with %%MatrixMarket");
    const std::string object = lower_case(lines.next_token()), format = lower_case(lines.next_token());
    const std::string field = lower_case(lines.next_token()), symmetry = lower_case(lines.next_token());
    if (symmetry.empty())
      fail(lines.line_number(), "incomplete banner: expected %%MatrixMarket matrix coordinate FIELD SYMMETRY");
    if (const std::string_view extra = lines.next_token(); !extra.empty())
      fail(lines.line_number(), "unexpected '" + std::string(extra) + "' after the banner's symmetry");
    if (object != "matrix") fail(lines.line_number(), "object '" + object + "' is not supported: only 'matrix'");
    if (format == "array") fail(lines.line_number(), "array (dense) format is not supported: only 'coordinate'");
    if (format != "coordinate") fail(lines.line_number(), "unknown format '" + format + "': only 'coordinate'");
    if (field == "real" || field == "double") {
      field_ = Field::real;
    } else if (field == "integer") {
      field_ = Field::integer;
    } else if (field == "pattern") {
      field_ = Field::pattern;
    } else if (field == "complex") {
      fail(lines.line_number(), "complex values are not supported: only real, integer or pattern");
    } else {
      fail(lines.line_number(), "unknown field '" + field + "': only real, integer or pattern");
    }
    if (symmetry == "general") {
      symmetry_ = Symmetry::general;
    } else if (symmetry == "symmetric") {
      symmetry_ = Symmetry::symmetric;
    } else if (symmetry == "skew-symmetric") {
      symmetry_ = Symmetry::skew_symmetric;
    } else if (symmetry == "hermitian") {
      fail(lines.line_number(),
           "hermitian symmetry is not supported (complex values): only general, symmetric or skew-symmetric");
    } else {
      fail(lines.line_number(), "unknown symmetry '" + symmetry + "': only general, symmetric or skew-symmetric");
    }
  }

  /// @p token as a non-negative integer of the size line.
  std::int64_t size_field(const LineCursor& lines, std::string_view token) const {
    std::int64_t value = -1;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (token.empty() || error != std::errc() || end != token.data() + token.size() || value < 0)
      fail(lines.line_number(), "bad size line: expected ROWS COLS ENTRIES, three non-negative integers");
    return value;
  }

  void read_size_line(LineCursor& lines) {
    if (!lines.next_content_line())
      fail(lines.line_number(), "no size line: expected ROWS COLS ENTRIES after the banner");
    size_line_number_ = lines.line_number();
    rows_ = size_field(lines, lines.next_token());
    cols_ = size_field(lines, lines.next_token());
    entry_count_ = size_field(lines, lines.next_token());
    if (const std::string_view extra = lines.next_token(); !extra.empty())
      fail(lines.line_number(), "bad size line: unexpected '" + std::string(extra) + "' after ROWS COLS ENTRIES");
    if (rows_ > kMaxIndex) fail(lines.line_number(), std::to_string(rows_) + " rows is above " + kLimitText);
    if (cols_ > kMaxIndex) fail(lines.line_number(), std::to_string(cols_) + " columns is above " + kLimitText);
    if (entry_count_ > kMaxIndex)
      fail(lines.line_number(), std::to_string(entry_count_) + " entries is above " + kLimitText);
    if (entry_count_ > rows_ * cols_)
      fail(lines.line_number(), std::to_string(entry_count_) + " entries do not fit a " + std::to_string(rows_) +
                                    " x " + std::to_string(cols_) + " matrix");
    if (symmetry_ != Symmetry::general && rows_ != cols_)
      fail(lines.line_number(),
           "a symmetric matrix must be square, not " + std::to_string(rows_) + " x " + std::to_string(cols_));
    // Every entry line takes at least 4 bytes (`1 1` and its line end; 6 with a value), the last
    // one a byte less: the rest of the file holds at most this many entries. Rows and columns
    // cost memory whether entries fill them or not, so a file may declare only so many more.
    const std::int64_t rest = file_bytes_ - (lines.rest() - begin_);
    entry_capacity_ = std::max<std::int64_t>(0, rest + 1) / (field_ == Field::pattern ? 4 : 6);
    for (const auto& [count, what] : {std::pair{rows_, "rows"}, std::pair{cols_, "columns"}})
      if (count > entry_capacity_ + kMostEmptyRows)
        fail(lines.line_number(), std::to_string(count) + " " + what + " in a file whose " +
                                      std::to_string(file_bytes_) + " bytes hold at most " +
                                      std::to_string(entry_capacity_) + " entries: at most 2^24 " + what +
                                      " more than that are read (the others could only be empty)");
  }

  /// @p token as a one-based index in [1, @p limit], returned zero-based.
  std::int32_t index(const LineCursor& lines, std::string_view token, const char* what, std::int64_t limit) const {
    if (token.empty()) fail(lines.line_number(), std::string("missing ") + what);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error == std::errc::invalid_argument || end != token.data() + token.size())
      fail(lines.line_number(), std::string(what) + " '" + std::string(token) + "' is not an integer");
    if (error != std::errc() || value < 1 || value > limit)
      fail(lines.line_number(),
           std::string(what) + " " + std::string(token) + " out of range [1, " + std::to_string(limit) + "]");
    return static_cast<std::int32_t>(value - 1);
  }

  /// @p token as the entry's value (a finite number; an integer for an integer file).
  double value(const LineCursor& lines, std::string_view token) const {
    if (token.empty())
      fail(lines.line_number(),
           std::string("missing value (the field is ") + (field_ == Field::real ? "real" : "integer") + ")");
    const char* begin = token.data();
    const char* end = token.data() + token.size();
    if (*begin == '+' && token.size() > 1 && begin[1] != '-') ++begin;  // from_chars takes no '+'
    if (field_ == Field::integer) {
      std::int64_t number = 0;
      const auto [stop, error] = std::from_chars(begin, end, number);
      if (error == std::errc::result_out_of_range)
        fail(lines.line_number(), "value " + std::string(token) + " is out of range");
      if (error != std::errc() || stop != end)
        fail(lines.line_number(), "value '" + std::string(token) + "' is not an integer");
      return static_cast<double>(number);
    }
    double number = 0;
    const auto [stop, error] = std::from_chars(begin, end, number);
    if (error == std::errc::result_out_of_range)
      fail(lines.line_number(), "value " + std::string(token) + " is out of the range of double");
    if (error != std::errc() || stop != end)
      fail(lines.line_number(), "value '" + std::string(token) + "' is not a number");
    if (!std::isfinite(number)) fail(lines.line_number(), "value " + std::string(token) + " is not a finite number");
    return number;
  }

  /// Reads the entry on the current line of @p lines into @p entries, and its mirror for a
  /// (skew-)symmetric file.
  void read_entry(LineCursor& lines, std::vector<FileEntry>& entries) const {
    const std::int32_t row = index(lines, lines.next_token(), "row index", rows_);
    const std::int32_t column = index(lines, lines.next_token(), "column index", cols_);
    const double entry_value = field_ == Field::pattern ? kPatternValue : value(lines, lines.next_token());
    if (const std::string_view extra = lines.next_token(); !extra.empty())
      fail(lines.line_number(), "unexpected '" + std::string(extra) + "' after the entry" +
                                    (field_ == Field::pattern ? " (a pattern file has no values)" : ""));
    const auto where = [&] { return "(" + std::to_string(row + 1) + ", " + std::to_string(column + 1) + ")"; };
    if (symmetry_ != Symmetry::general && row < column)
      fail(lines.line_number(),
           "entry " + where() + " above the diagonal in a symmetric file: only the lower triangle is stored");
    if (symmetry_ == Symmetry::skew_symmetric && row == column)
      fail(lines.line_number(),
           "diagonal entry " + where() + " in a skew-symmetric file: its diagonal is zero and is not stored");
    entries.push_back({row, column, entry_value});
    if (symmetry_ != Symmetry::general && row != column)
      entries.push_back({column, row, symmetry_ == Symmetry::skew_symmetric ? -entry_value : entry_value});
  }

  /// The entries of the lines from @p begin (line @p line_number) to the end of the file, in
  /// chunks in file order. @throws MatrixError naming the first bad line, or the count that
  /// does not match the size line.
  std::vector<std::vector<FileEntry>> read_entries(const char* begin, std::int64_t line_number) const {
    std::vector<const char*> cuts = {begin};
    while (cuts.back() < end_) {
      const char* cut = std::min(end_, cuts.back() + kTextChunkBytes);
      const char* newline = static_cast<const char*>(std::memchr(cut, '\n', static_cast<std::size_t>(end_ - cut)));
      cuts.push_back(newline ? newline + 1 : end_);
    }
    const std::int64_t chunk_count = static_cast<std::int64_t>(cuts.size()) - 1;
    std::vector<std::vector<FileEntry>> chunks(static_cast<std::size_t>(chunk_count));
    std::vector<std::int64_t> found(static_cast<std::size_t>(chunk_count));
    std::vector<char> failed(static_cast<std::size_t>(chunk_count), 0);
    for_each_chunk(chunk_count, [&](std::int64_t chunk) {
      LineCursor lines(cuts[chunk], cuts[chunk + 1], 1);  // numbered later, if a line is bad
      try {
        while (lines.next_content_line()) {
          read_entry(lines, chunks[chunk]);
          ++found[chunk];
        }
      } catch (const MatrixError&) {
        failed[chunk] = 1;
      }
    });
    std::int64_t total = 0;
    for (std::int64_t count : found) total += count;
    if (total != entry_count_ || std::find(failed.begin(), failed.end(), 1) != failed.end()) {
      check_entries_in_order(begin, line_number);
      throw std::logic_error("read_matrix_market: a chunk failed but the file reads well in order");
    }
    return chunks;
  }

  /// Reads the entries from @p begin (line @p line_number) one line after the other and throws
  /// for the first bad line, an entry past the size line's count, or too few entries.
  void check_entries_in_order(const char* begin, std::int64_t line_number) const {
    LineCursor lines(begin, end_, line_number);
    std::vector<FileEntry> entries;
    std::int64_t found = 0;
    while (lines.next_content_line()) {
      if (found == entry_count_)
        fail(lines.line_number(), "more entries than the " + std::to_string(entry_count_) + " the size line announces");
      read_entry(lines, entries);
      entries.clear();
      ++found;
    }
    if (found < entry_count_)
      fail(lines.line_number(), "the file ends after " + std::to_string(found) + " entries, the size line announces " +
                                    std::to_string(entry_count_));
  }

  std::string path_;
  const char* begin_;  ///< the file's text
  const char* end_;
  Field field_ = Field::real;
  Symmetry symmetry_ = Symmetry::general;
  std::int64_t file_bytes_;  ///< the whole file's size (the text may be its header only)
  std::int64_t rows_ = 0, cols_ = 0, entry_count_ = 0;
  std::int64_t entry_capacity_ = 0;  ///< the most entries the rest of the file can hold
  std::int64_t size_line_number_ = 0;
};

}  // namespace

CsrMatrix read_matrix_market(const std::string& path) {
  OpenFile file(path);
  const std::string text = read_whole_file(path, file);
  return MatrixMarketParser(path, text).parse();
}

MatrixMarketHeader read_matrix_market_header(const std::string& path) {
  OpenFile file(path);
  MatrixMarketHeader header;
  header.stream = !file.regular();
  if (header.stream) {
    header.stream_text = read_whole_file(path, file);
    header.size = MatrixMarketParser(path, header.stream_text).header();
  } else {
    const std::string text = read_header_text(path, file);
    header.size = MatrixMarketParser(path, text, file.bytes()).header();
  }
  return header;
}

CsrMatrix parse_matrix_market(const std::string& path, const std::string& text) {
  return MatrixMarketParser(path, text).parse();
}

}  // namespace stepwise::spmv
