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

}  // namespace stepwise
