#include "host/sizes.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace stepwise {
namespace {

[[noreturn]] void reject(const std::string& text, const std::string& why) {
  throw std::invalid_argument("'" + text + "' is not a valid count (" + why + ")");
}

// Reads the decimal digits at text[pos...] into value; returns the position after them.
std::size_t read_digits(const std::string& text, std::size_t pos, std::uint64_t& value) {
  const std::size_t start = pos;
  value = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
    const std::uint64_t digit = static_cast<std::uint64_t>(text[pos] - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) reject(text, "too large");
    value = value * 10 + digit;
    ++pos;
  }
  if (pos == start) reject(text, "expected digits");
  return pos;
}

std::uint64_t checked_multiply(const std::string& text, std::uint64_t a, std::uint64_t b) {
  if (b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b) reject(text, "too large");
  return a * b;
}

}  // namespace

std::uint64_t parse_count(const std::string& text) {
  if (text.empty()) reject(text, "empty");
  std::uint64_t base = 0;
  std::size_t pos = read_digits(text, 0, base);
  if (pos == text.size()) return base;

  if (text[pos] == '^') {  // 2^k, 2^k+c, 2^k-c
    if (base != 2) reject(text, "only powers of two are accepted, as 2^k");
    std::uint64_t exponent = 0;
    pos = read_digits(text, pos + 1, exponent);
    if (exponent > 63) reject(text, "exponent above 63");
    std::uint64_t value = std::uint64_t{1} << exponent;
    if (pos == text.size()) return value;
    const char sign = text[pos];
    if (sign != '+' && sign != '-') reject(text, "expected + or - after the power");
    std::uint64_t offset = 0;
    pos = read_digits(text, pos + 1, offset);
    if (pos != text.size()) reject(text, "unexpected characters after the offset");
    if (sign == '-') {
      if (offset > value) reject(text, "negative");
      return value - offset;
    }
    if (offset > std::numeric_limits<std::uint64_t>::max() - value) reject(text, "too large");
    return value + offset;
  }

  const std::string suffix = text.substr(pos);
  const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0])));
  int power = 0;
  switch (letter) {
    case 'K':
      power = 1;
      break;
    case 'M':
      power = 2;
      break;
    case 'G':
      power = 3;
      break;
    default:
      reject(text, "unknown suffix '" + suffix + "'; use K, M, G, Ki, Mi, Gi or 2^k");
  }
  std::uint64_t unit = 1;
  if (suffix.size() == 1) {
    for (int i = 0; i < power; ++i) unit *= 1000;
  } else if (suffix.size() == 2 && suffix[1] == 'i') {
    unit = std::uint64_t{1} << (10 * power);
  } else {
    reject(text, "unknown suffix '" + suffix + "'; use K, M, G, Ki, Mi, Gi or 2^k");
  }
  return checked_multiply(text, base, unit);
}

std::string format_count(std::uint64_t count) {
  for (int k = 1; k < 64; ++k) {
    const std::uint64_t power = std::uint64_t{1} << k;
    if (count == power) return "2^" + std::to_string(k);
    if (power >= 4096 && count > power && count - power <= 1000)
      return "2^" + std::to_string(k) + "+" + std::to_string(count - power);
    if (power >= 4096 && count < power && power - count <= 1000)
      return "2^" + std::to_string(k) + "-" + std::to_string(power - count);
  }
  return std::to_string(count);
}

std::int64_t parse_decimal(const std::string& text, std::int64_t min, std::int64_t max) {
  const std::string range = " (a decimal integer in [" + std::to_string(min) + ", " + std::to_string(max) + "])";
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  if (digits.empty() || digits.size() > 19 ||
      !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
    throw std::invalid_argument("'" + text + "' is not a number" + range);
  const std::uint64_t magnitude = std::stoull(digits);
  if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw std::invalid_argument("'" + text + "' is out of range" + range);
  const std::int64_t value = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  if (value < min || value > max) throw std::invalid_argument("'" + text + "' is out of range" + range);
  return value;
}

double parse_plain_real(const std::string& text, double min, double max) {
  std::ostringstream range;
  range << " (a decimal number in [" << min << ", " << max << "])";
  const bool digits =
      text.size() <= 40 && std::count(text.begin(), text.end(), '.') <= 1 &&
      std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; }) &&
      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0 || c == '.'; });
  if (!digits) throw std::invalid_argument("'" + text + "' is not a number" + range.str());
  const double value = std::stod(text);
  if (!(value >= min && value <= max)) throw std::invalid_argument("'" + text + "' is out of range" + range.str());
  return value;
}

std::uint64_t parse_unsigned(const std::string& text) {
  const std::string range = " (a decimal integer in [0, 18446744073709551615])";
  if (text.empty() || text.size() > 20 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
    throw std::invalid_argument("'" + text + "' is not a non-negative number" + range);
  std::uint64_t value = 0;
  for (char c : text) {
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
      throw std::invalid_argument("'" + text + "' is out of range" + range);
    value = value * 10 + digit;
  }
  return value;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 4) {
    bytes /= 1024.0;
    ++unit;
  }
  char buffer[32];
  if (bytes == static_cast<double>(static_cast<long long>(bytes)))
    std::snprintf(buffer, sizeof buffer, "%.0f %s", bytes, units[unit]);
  else
    std::snprintf(buffer, sizeof buffer, "%.1f %s", bytes, units[unit]);
  return buffer;
}

std::string format_grouped(std::int64_t value) {
  const std::uint64_t magnitude = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  std::string digits = std::to_string(magnitude);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
  return (value < 0 ? "-" : "") + digits;
}

double parse_fraction(const std::string& text, const std::string& what) {
  const bool percent = !text.empty() && text.back() == '%';
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  const auto bad = [&]() {
    return std::invalid_argument(what + " '" + text + "' is not a fraction in [0, 1] or a percentage in [0%, 100%]");
  };
  if (number.empty() || number.find_first_not_of("0123456789.") != std::string::npos ||
      std::count(number.begin(), number.end(), '.') > 1 || number == ".")
    throw bad();
  const double value = std::stod(number) / (percent ? 100.0 : 1.0);
  if (!(value >= 0.0 && value <= 1.0)) throw bad();
  return value;
}

}  // namespace stepwise
