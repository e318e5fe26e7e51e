/// @file dispatch.hpp
/// From a run-time launch shape to a compiled template instantiation.
///
/// Kernels that keep per-thread arrays in registers need their sizes at compile time
/// (`T x[VT]` with VT a template parameter), but the shape a stage runs with is chosen at
/// run time (the table's default, or one of `--sweep`'s). A stage lists the values it
/// compiles in an IntList, and dispatch() calls its launch lambda with the matching
/// compile-time constant:
///
/// @code
///   using Vectors = stepwise::IntList<1, 2, 4, 8>;
///   stepwise::dispatch(shape.items, Vectors{}, "int4 per thread", [&](auto vectors) {
///     copy_tiles<decltype(vectors)::value><<<grid, shape.threads, 0, stream>>>(in, out, n);
///   });
/// @endcode
///
/// The same list gives the stage's `--sweep` shapes (IntList::values()), so every shape
/// the sweep tries is one that is compiled.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "host/types.hpp"

namespace stepwise {

/// A compile-time list of int values: the instantiations a stage compiles.
template <int... Values>
struct IntList {
  /// The values, in order, for building sweep shapes.
  static std::vector<int> values() { return {Values...}; }
  /// `1, 2, 4, 8`: for error messages.
  static std::string text() {
    std::string out;
    ((out += (out.empty() ? "" : ", ") + std::to_string(Values)), ...);
    return out;
  }
};

/// Calls @p launch with `std::integral_constant<int, V>{}` for the V of @p list equal to
/// @p value.
/// @throws std::invalid_argument naming @p what and the compiled values when none is.
template <int... Values, class Launch>
void dispatch(int value, IntList<Values...> list, const char* what, Launch&& launch) {
  const bool found = ((value == Values ? (launch(std::integral_constant<int, Values>{}), true) : false) || ...);
  if (!found)
    throw std::invalid_argument(std::string(what) + " " + std::to_string(value) +
                                " is not compiled in (compiled: " + list.text() + ")");
}

/// Calls @p launch with the compile-time threads per block and items per thread of @p shape:
/// `launch(nt, vt)`, each a `std::integral_constant<int, V>` from @p threads and @p items. The
/// one ladder every tiled stage climbs, written once:
/// @code
///   using Threads = IntList<128, 256>;
///   using Items = IntList<7, 11, 15>;
///   dispatch_tile(shape, Threads{}, Items{}, [&](auto nt, auto vt) {
///     merge_tiles<decltype(nt)::value, decltype(vt)::value><<<grid, decltype(nt)::value, 0, stream>>>(...);
///   });
///   stage.sweep = tile_grid(Threads{}, Items{});  // every shape the sweep tries is compiled
/// @endcode
/// @throws std::invalid_argument naming @p threads_what or @p items_what and the compiled values
///   when @p shape is not compiled.
template <int... Threads, int... Items, class Launch>
void dispatch_tile(const LaunchShape& shape, IntList<Threads...> threads, IntList<Items...> items, Launch&& launch,
                   const char* threads_what = "threads per block", const char* items_what = "items per thread") {
  dispatch(shape.threads, threads, threads_what,
           [&](auto nt) { dispatch(shape.items, items, items_what, [&](auto vt) { launch(nt, vt); }); });
}

/// Every (threads, items) pair of @p threads x @p items, threads varying slowest: the `--sweep`
/// of a stage that dispatch_tile() launches.
template <int... Threads, int... Items>
std::vector<LaunchShape> tile_grid(IntList<Threads...>, IntList<Items...>) {
  return shape_grid({Threads...}, {Items...});
}

}  // namespace stepwise
