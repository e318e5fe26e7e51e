/// @file sizes.hpp
/// Element counts written the way people write them: `1000000`, `1M`, `16Mi`, `2^26`.
#pragma once

#include <cstdint>
#include <string>

namespace stepwise {

/// The most elements any chapter's `--n` accepts (2^40): larger counts are refused up front, by the chapters and by
/// the tour's `--sizes`.
inline constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 40;

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

/// Formats an element count the way parse_count reads it back: `2^28`, `2^20+3`, `1000000`.
/// Powers of two (and powers of two plus or minus at most 1000) are written as such.
std::string format_count(std::uint64_t count);

/// Parses a plain decimal integer in [@p min, @p max]: digits only, with a leading `-` for a
/// negative value; no sign for non-negative ones, no hexadecimal or octal (`010` is ten), no
/// suffix, no spaces.
/// @throws std::invalid_argument with a message naming @p text and the range.
std::int64_t parse_decimal(const std::string& text, std::int64_t min, std::int64_t max);

/// Parses a plain non-negative decimal number in [@p min, @p max]: digits with at most one
/// decimal point (`3.05`, `.5`, `354`); no sign, exponent, hexadecimal, `nan` or `inf`, no spaces.
/// @throws std::invalid_argument with a message naming @p text and the range.
double parse_plain_real(const std::string& text, double min, double max);

/// The same for unsigned 64-bit values (seeds), in [0, 2^64 - 1].
std::uint64_t parse_unsigned(const std::string& text);

/// @p value with thousands separators: `111,777,784`, `-1,024`.
std::string format_grouped(std::int64_t value);

/// Parses a share: a fraction in [0, 1] (`0.25`, `1`) or a percentage in [0%, 100%] (`50%`,
/// `0.5%`); digits and one decimal point only.
/// @throws std::invalid_argument naming @p what (`selectivity`) and @p text.
double parse_fraction(const std::string& text, const std::string& what);

}  // namespace stepwise
