/// @file sizes.hpp
/// Element counts written the way people write them: `1000000`, `1M`, `16Mi`, `2^26`.
#pragma once

#include <cstdint>
#include <string>

namespace stepwise {

/// Parses an element count. Accepted forms:
/// - a plain decimal integer: `1000000`;
/// - with a decimal suffix K, M, G (10^3, 10^6, 10^9): `1M`, `2.5K` is rejected (integers only);
/// - with a binary suffix Ki, Mi, Gi (2^10, 2^20, 2^30): `16Mi`;
/// - a power of two, optionally plus or minus a constant: `2^26`, `2^20+3`, `2^24-1`.
/// Suffixes are case-sensitive for the `i` (`Mi`), not for the letter (`m` = `M`).
/// @throws std::invalid_argument with a message naming @p text if it is malformed or overflows.
std::uint64_t parse_count(const std::string& text);

/// Formats a byte count for people: `50 MiB`, `1.5 GiB`.
std::string format_bytes(double bytes);

}  // namespace stepwise
