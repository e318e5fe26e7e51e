/// @file vector.cuh
/// 16-byte vectors of 4-byte values: one load or store instruction (LDG.128 / STG.128) moves
/// four elements, a quarter of the instructions per byte of a scalar access.
#pragma once

#include <cstdint>

namespace stepwise {

/// The 16-byte vector type of four T: `Vector4<float>::type` is float4.
template <class T>
struct Vector4;
template <>
struct Vector4<std::uint32_t> {
  using type = uint4;
};
template <>
struct Vector4<std::int32_t> {
  using type = int4;
};
template <>
struct Vector4<float> {
  using type = float4;
};

/// The four lanes of @p v combined in order, as a pairwise tree: (x op y) op (z op w).
template <class V, class Op>
__device__ __forceinline__ auto vector_reduce(const V& v, Op op) {
  return op(op(v.x, v.y), op(v.z, v.w));
}

}  // namespace stepwise
