// Exercise 00-1: one row of the table (README.md, "00-1").
//
// The lesson: a copy does no arithmetic, so the only thing to measure is bytes per second, and
// the only things to compare it with are the best copy of the same run (cudaMemcpy, the "% memcpy"
// column every chapter prints) and the DRAM's theoretical peak, the speed of light, which follows
// from two numbers of the datasheet: the memory clock and the width of the bus.
//
// Predict first: the bytes a copy of 2^28 int32 moves; the H100's peak from 2619 MHz and 5120 bits;
// stage 1's GB/s, % memcpy and % peak at 0.8857 ms in a run whose memcpy reached 3054 GB/s. Then
// write the function. Grade it with `ctest --test-dir build -L exercise-00`.
#include "01_row.hpp"

#include "host/exercise.hpp"

namespace stepwise::bandwidth::exercises {

CopyRow predicted_row([[maybe_unused]] std::size_t n, [[maybe_unused]] double median_ms,
                      [[maybe_unused]] double memcpy_gbps, [[maybe_unused]] int memory_clock_khz,
                      [[maybe_unused]] int bus_width_bits) {
  // TODO: how many bytes does each element cost, read and written? Then GB/s, the peak, and the two ratios.
  throw NotDoneYet("00-1", "predicted_row", __FILE__);
}

}  // namespace stepwise::bandwidth::exercises
