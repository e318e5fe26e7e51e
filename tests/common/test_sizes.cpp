#include <doctest/doctest.h>

#include <stdexcept>

#include "host/sizes.hpp"

using stepwise::parse_count;

TEST_CASE("parse_count accepts plain integers") {
  CHECK(parse_count("1") == 1);
  CHECK(parse_count("1000000") == 1000000);
  CHECK(parse_count("0") == 0);
}

TEST_CASE("parse_count accepts decimal and binary suffixes") {
  CHECK(parse_count("1K") == 1000);
  CHECK(parse_count("1M") == 1000000);
  CHECK(parse_count("3G") == 3000000000ull);
  CHECK(parse_count("2m") == 2000000);
  CHECK(parse_count("1Ki") == 1024);
  CHECK(parse_count("16Mi") == 16ull << 20);
  CHECK(parse_count("2Gi") == 2ull << 30);
}

TEST_CASE("parse_count accepts powers of two with offsets") {
  CHECK(parse_count("2^26") == 1ull << 26);
  CHECK(parse_count("2^0") == 1);
  CHECK(parse_count("2^20+3") == (1ull << 20) + 3);
  CHECK(parse_count("2^24-1") == (1ull << 24) - 1);
  CHECK(parse_count("2^63") == 1ull << 63);
}

TEST_CASE("parse_count rejects malformed text with the text in the message") {
  for (const char* bad : {"", "abc", "-5", "1.5M", "1X", "1Mb", "3^4", "2^", "2^64", "2^3*2", "2^3-9", "1 M", "M",
                          "99999999999999999999", "20000000000G", "2^63+9223372036854775808"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_count(bad), std::invalid_argument);
  }
  try {
    parse_count("12Q");
    FAIL("no exception");
  } catch (const std::invalid_argument& error) {
    CHECK(std::string(error.what()).find("'12Q'") != std::string::npos);
  }
}

TEST_CASE("format_bytes picks a readable unit") {
  CHECK(stepwise::format_bytes(512) == "512 B");
  CHECK(stepwise::format_bytes(50.0 * (1 << 20)) == "50 MiB");
  CHECK(stepwise::format_bytes(1.5 * (1 << 30)) == "1.5 GiB");
}

TEST_CASE("format_count writes what parse_count reads back") {
  using stepwise::format_count;
  CHECK(format_count(std::uint64_t{1} << 28) == "2^28");
  CHECK(format_count((std::uint64_t{1} << 20) + 3) == "2^20+3");
  CHECK(format_count((std::uint64_t{1} << 24) - 1) == "2^24-1");
  CHECK(format_count(1000000) == "1000000");
  CHECK(format_count(100003) == "100003");
  for (std::uint64_t count :
       {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1} << 40, (std::uint64_t{1} << 26) + 999})
    CHECK(parse_count(format_count(count)) == count);
}

TEST_CASE("parse_decimal takes decimal digits only, in range") {
  using stepwise::parse_decimal;
  CHECK(parse_decimal("10", 0, 100) == 10);
  CHECK(parse_decimal("010", 0, 100) == 10);
  CHECK(parse_decimal("-5", -10, 10) == -5);
  for (const char* bad : {"", "0x10", "1e3", " 1", "1 ", "+1", "abc", "101", "-11", "99999999999999999999"})
    CHECK_THROWS_AS(parse_decimal(bad, -10, 100), std::invalid_argument);
}

TEST_CASE("parse_plain_real takes digits and one decimal point, in range, and nothing else") {
  using stepwise::parse_plain_real;
  CHECK(parse_plain_real("3.05", 0.001, 1000.0) == 3.05);
  CHECK(parse_plain_real("354", 0.001, 1e6) == 354.0);
  CHECK(parse_plain_real(".5", 0.0, 1.0) == 0.5);
  CHECK(parse_plain_real("7.", 0.0, 10.0) == 7.0);
  CHECK(parse_plain_real("1000", 0.001, 1000.0) == 1000.0);
  for (const char* bad : {"nan", "inf", "-1", "+1", "1e3", "0x10", "", ".", "1.2.3", " 1", "1 ", "3,05", "NaN"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(parse_plain_real(bad, 0.0, 1e6), doctest::Contains("is not a number"), std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(parse_plain_real("0", 0.001, 1000.0), doctest::Contains("'0' is out of range"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_plain_real("1000.5", 0.001, 1000.0),
                       doctest::Contains("(a decimal number in [0.001, 1000])"), std::invalid_argument);
}

TEST_CASE("parse_unsigned covers the whole 64-bit range and nothing else") {
  using stepwise::parse_unsigned;
  CHECK(parse_unsigned("0") == 0);
  CHECK(parse_unsigned("18446744073709551615") == 18446744073709551615ull);
  for (const char* bad : {"-1", "18446744073709551616", "0x1", "", "1.0"})
    CHECK_THROWS_AS(parse_unsigned(bad), std::invalid_argument);
}
