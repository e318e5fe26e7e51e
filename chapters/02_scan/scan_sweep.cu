// Stage 6 at every tile shape of the --sweep, compiled apart from the stages so that
// the two files build in parallel.
#include <stdexcept>
#include <string>

#include "scan_launch.cuh"

namespace stepwise::scan {
namespace {

template <class Op>
using ShapedLauncher = void (*)(const typename Op::value_type*, typename Op::value_type*, std::size_t, ScanKind,
                                ScanWorkspace&, const TileShape&, cudaStream_t);

template <class Op>
struct ShapedEntry {
  TileShape shape;
  ShapedLauncher<Op> launch;
};

template <class Op, int NT>
constexpr ShapedEntry<Op> entry_row(int vt) {
  switch (vt) {
    case 7:
      return {{NT, 7}, detail::launch_single_pass<NT, 7, Op>};
    case 8:
      return {{NT, 8}, detail::launch_single_pass<NT, 8, Op>};
    case 11:
      return {{NT, 11}, detail::launch_single_pass<NT, 11, Op>};
    case 12:
      return {{NT, 12}, detail::launch_single_pass<NT, 12, Op>};
    case 15:
      return {{NT, 15}, detail::launch_single_pass<NT, 15, Op>};
    case 16:
      return {{NT, 16}, detail::launch_single_pass<NT, 16, Op>};
    case 23:
      return {{NT, 23}, detail::launch_single_pass<NT, 23, Op>};
    case 24:
      return {{NT, 24}, detail::launch_single_pass<NT, 24, Op>};
    case 31:
      return {{NT, 31}, detail::launch_single_pass<NT, 31, Op>};
    default:
      return {{NT, 32}, detail::launch_single_pass<NT, 32, Op>};
  }
}

constexpr int kSweepVts[] = {7, 8, 11, 12, 15, 16, 23, 24, 31, 32};

template <class Op>
std::vector<ShapedEntry<Op>> shaped_entries() {
  std::vector<ShapedEntry<Op>> entries;
  for (int vt : kSweepVts) entries.push_back(entry_row<Op, 128>(vt));
  for (int vt : kSweepVts) entries.push_back(entry_row<Op, 256>(vt));
  return entries;
}

}  // namespace

std::vector<TileShape> single_pass_sweep_shapes() {
  std::vector<TileShape> shapes;
  for (const auto& entry : shaped_entries<WrappingAdd>()) {
    for (bool speculative : {true, false}) {
      TileShape shape = entry.shape;
      shape.speculative = speculative;
      shapes.push_back(shape);
    }
  }
  return shapes;
}

template <class Op>
void scan_single_pass_shaped(TileShape shape, const typename Op::value_type* in, typename Op::value_type* out,
                             std::size_t n, ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream) {
  for (const auto& entry : shaped_entries<Op>())
    if (entry.shape.nt == shape.nt && entry.shape.vt == shape.vt)
      return entry.launch(in, out, n, kind, workspace, shape, stream);
  throw std::invalid_argument("single-pass tile shape " + std::to_string(shape.nt) + "x" + std::to_string(shape.vt) +
                              " is not compiled in (NT in {128, 256}, VT in {7, 8, 11, 12, 15, 16, 23, 24, 31, 32})");
}

template void scan_single_pass_shaped<WrappingAdd>(TileShape, const std::int32_t*, std::int32_t*, std::size_t, ScanKind,
                                                   ScanWorkspace&, cudaStream_t);
template void scan_single_pass_shaped<FloatAdd>(TileShape, const float*, float*, std::size_t, ScanKind, ScanWorkspace&,
                                                cudaStream_t);

}  // namespace stepwise::scan
