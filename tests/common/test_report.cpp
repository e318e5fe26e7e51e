#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "report.hpp"

using namespace stepwise;

namespace {

Report sample_report() {
  Report report;
  report.chapter_id = "00";
  report.chapter_name = "bandwidth";
  report.chapter_title = "copies";
  report.device.name = "Test GPU";
  report.device.cc_major = 9;
  report.device.sm_count = 132;
  report.device.l2_bytes = 50u << 20;
  report.device.peak_gbps = 4000.0;
  report.n = 1000;
  report.element_type = "int32";
  report.bytes_moved = 2e9;  // 2 GB: 1 ms is 2000 GB/s
  report.memcpy_gbps = 3000.0;
  report.date = "2026-11-21";
  ReportRow first;
  first.number = 1;
  first.name = "slow";
  first.time = TimingStats{4.0, 3.9, 4.2, 10};
  first.check = "PASS";
  ReportRow second;
  second.number = 2;
  second.name = "fast";
  second.time = TimingStats{1.0, 0.9, 1.1, 10};
  second.check = "PASS";
  ReportRow broken;
  broken.number = 3;
  broken.name = "broken";
  broken.check = "FAIL";
  broken.check_detail = "1 of 1000 elements differ";
  ReportRow library;
  library.kind = RowKind::library;
  library.name = "lib";
  library.time = TimingStats{0.8, 0.8, 0.9, 10};
  library.check = "PASS";
  report.rows = {first, second, broken, library};
  derive_columns(report);
  return report;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) parts.push_back(part);
  return parts;
}

}  // namespace

TEST_CASE("derived columns: bandwidth, fractions and speedups") {
  const Report report = sample_report();
  CHECK(report.rows[0].gbps == doctest::Approx(500.0));
  CHECK(report.rows[1].gbps == doctest::Approx(2000.0));
  CHECK(report.rows[1].pct_memcpy == doctest::Approx(66.6667).epsilon(1e-4));
  CHECK(report.rows[1].pct_peak == doctest::Approx(50.0));
  CHECK_FALSE(report.rows[0].step_speedup.has_value());
  CHECK(*report.rows[0].total_speedup == doctest::Approx(1.0));
  CHECK(*report.rows[1].step_speedup == doctest::Approx(4.0));
  CHECK(*report.rows[1].total_speedup == doctest::Approx(4.0));
  CHECK_FALSE(report.rows[2].total_speedup.has_value());
  CHECK_FALSE(report.rows[3].step_speedup.has_value());
  CHECK(*report.rows[3].total_speedup == doctest::Approx(5.0));
}

TEST_CASE("JSON parses back with every number of the table") {
  const nlohmann::json document = nlohmann::json::parse(render(sample_report(), Format::json));
  CHECK(document["chapter"]["id"] == "00");
  CHECK(document["device"]["name"] == "Test GPU");
  CHECK(document["device"]["sm"] == "sm_90");
  CHECK(document["n"] == 1000);
  CHECK(document["memcpy_gbps"].get<double>() == doctest::Approx(3000.0));
  REQUIRE(document["rows"].size() == 4);
  const auto& fast = document["rows"][1];
  CHECK(fast["name"] == "fast");
  CHECK(fast["median_ms"].get<double>() == doctest::Approx(1.0));
  CHECK(fast["min_ms"].get<double>() == doctest::Approx(0.9));
  CHECK(fast["max_ms"].get<double>() == doctest::Approx(1.1));
  CHECK(fast["gbps"].get<double>() == doctest::Approx(2000.0));
  CHECK(fast["step_speedup"].get<double>() == doctest::Approx(4.0));
  CHECK(fast["check"] == "PASS");
  CHECK(document["rows"][2]["median_ms"].is_null());
  CHECK(document["rows"][2]["check"] == "FAIL");
  CHECK(document["rows"][3]["kind"] == "library");
}

TEST_CASE("CSV has a header and the same columns on every row") {
  const std::vector<std::string> lines = split(render(sample_report(), Format::csv), '\n');
  REQUIRE(lines.size() == 5);
  const std::vector<std::string> header = split(lines[0], ',');
  CHECK(header == std::vector<std::string>{"number", "kind", "stage", "median_ms", "min_ms", "max_ms", "gbps",
                                           "pct_memcpy", "pct_peak", "step_speedup", "total_speedup", "check"});
  for (std::size_t i = 1; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    CHECK(std::count(lines[i].begin(), lines[i].end(), ',') == 11);
  }
  CHECK(lines[3].find("FAIL") != std::string::npos);
}

TEST_CASE("table and markdown show every stage, the header facts and the failure") {
  for (Format format : {Format::table, Format::markdown}) {
    const std::string text = render(sample_report(), format);
    CHECK(text.find("Test GPU") != std::string::npos);
    CHECK(text.find("sm_90") != std::string::npos);
    CHECK(text.find("memcpy 3000 GB/s") != std::string::npos);
    CHECK(text.find("fast") != std::string::npos);
    CHECK(text.find("4.00x") != std::string::npos);
    CHECK(text.find("FAIL 3 broken: 1 of 1000 elements differ") != std::string::npos);
  }
  CHECK(render(sample_report(), Format::markdown).find("| --- |") != std::string::npos);
}

TEST_CASE("parse_format knows four formats") {
  CHECK(parse_format("table") == Format::table);
  CHECK(parse_format("markdown") == Format::markdown);
  CHECK(parse_format("csv") == Format::csv);
  CHECK(parse_format("json") == Format::json);
  CHECK_THROWS_AS(parse_format("yaml"), std::invalid_argument);
}
