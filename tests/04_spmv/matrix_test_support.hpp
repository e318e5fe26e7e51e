/// @file matrix_test_support.hpp
/// What chapter 04's CPU tests share: the message an action throws, a temporary folder for files,
/// a matrix's cells, and the checks every generator's values and the lecture's example meet.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "host/data.hpp"
#include "matrix.hpp"

namespace stepwise::spmv::tests {

/// The message of the MatrixError @p action throws, or a note that it threw none.
template <class Action>
std::string matrix_error(Action&& action) {
  try {
    action();
  } catch (const MatrixError& error) {
    return error.what();
  }
  return "(no MatrixError thrown)";
}

/// The message of the std::invalid_argument @p action throws, or a note that it threw none.
template <class Action>
std::string invalid_argument(Action&& action) {
  try {
    action();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(no std::invalid_argument thrown)";
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A folder of its own under the system's temporary folder, removed with everything in it.
class TemporaryFolder {
 public:
  TemporaryFolder()
      : path_(std::filesystem::temp_directory_path() / ("stepwise_spmv_test_" + std::to_string(fresh_seed()))) {
    std::filesystem::create_directories(path_);
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  /// Writes @p text to the file @p name in the folder; returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (path_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

/// The (row, column) -> value map of @p matrix.
inline std::map<std::pair<int, int>, double> cells(const CsrMatrix& matrix) {
  std::map<std::pair<int, int>, double> map;
  for (std::int32_t row = 0; row < matrix.rows; ++row)
    for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j)
      map[{row, matrix.columns[j]}] = matrix.values[j];
  return map;
}

/// True when every cell of @p matrix has its mirror, of the same value.
inline bool symmetric(const CsrMatrix& matrix) {
  const auto map = cells(matrix);
  return std::all_of(map.begin(), map.end(), [&](const auto& cell) {
    const auto mirror = map.find({cell.first.second, cell.first.first});
    return mirror != map.end() && mirror->second == cell.second;
  });
}

inline bool same_matrix(const CsrMatrix& a, const CsrMatrix& b) {
  return a.rows == b.rows && a.cols == b.cols && a.offsets == b.offsets && a.columns == b.columns &&
         a.values == b.values;
}

/// Values uniform in [-1, 1) as the generators draw them: k / 2^23 for an integer k, exact in float.
inline void check_random_values(const CsrMatrix& matrix) {
  for (double value : matrix.values) {
    CHECK(value >= -1.0);
    CHECK(value < 1.0);
    CHECK(static_cast<double>(static_cast<float>(value)) == value);
    CHECK(std::ldexp(value, 23) == std::floor(std::ldexp(value, 23)));
  }
  if (matrix.nnz() >= 2)
    CHECK(std::any_of(matrix.values.begin(), matrix.values.end(), [&](double v) { return v != matrix.values[0]; }));
}

/// The lecture's 4 x 4 matrix, as matrix.hpp draws it.
inline void check_lecture(const CsrMatrix& matrix) {
  CHECK(matrix.rows == 4);
  CHECK(matrix.cols == 4);
  CHECK(matrix.offsets == std::vector<std::int32_t>{0, 2, 2, 5, 7});
  CHECK(matrix.columns == std::vector<std::int32_t>{0, 2, 1, 2, 3, 0, 3});
  CHECK(matrix.values == std::vector<double>{3, 1, 2, 4, 1, 1, 1});
}

}  // namespace stepwise::spmv::tests
