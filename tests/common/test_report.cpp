#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/report.hpp"

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
  report.seed = 42;
  report.command = "chapter_00_bandwidth --n 1000 --seed 42";
  report.notes = {"a remark"};
  ReportRow first;
  first.number = 1;
  first.name = "slow";
  first.shape = {256};
  first.time = TimingStats{4.0, 3.9, 4.2, 10};
  first.verdict = Verdict::pass;
  ReportRow second;
  second.number = 2;
  second.name = "fast";
  second.shape = {128, 7};
  second.sweep = {{{128, 7}, TimingStats{1.0, 0.9, 1.1, 10}, Verdict::pass, ""},
                  {{128, 8}, TimingStats{2.0, 1.9, 2.1, 10}, Verdict::pass, ""},
                  {{256, 7}, std::nullopt, Verdict::fail, "wrong"}};
  second.time = TimingStats{1.0, 0.9, 1.1, 10};
  second.verdict = Verdict::pass;
  ReportRow broken;
  broken.number = 3;
  broken.name = "broken";
  broken.verdict = Verdict::fail;
  broken.check_detail = "1 of 1000 elements differ";
  ReportRow library;
  library.kind = RowKind::library;
  library.name = "lib";
  library.time = TimingStats{0.8, 0.8, 0.9, 10};
  library.verdict = Verdict::pass;
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
  CHECK(document["seed"] == 42);
  CHECK(document["command"] == "chapter_00_bandwidth --n 1000 --seed 42");
  CHECK(document["flush"] == "read");
  CHECK(document["notes"] == nlohmann::json::array({"a remark"}));
  CHECK(fast["shape"]["threads"] == 128);
  CHECK(fast["shape"]["items"] == 7);
  CHECK(fast["shape"]["label"] == "128x7");
  REQUIRE(fast["sweep"].size() == 3);
  CHECK(fast["sweep"][1]["shape"]["items"] == 8);
  CHECK(fast["sweep"][1]["median_ms"].get<double>() == doctest::Approx(2.0));
  CHECK(fast["sweep"][1]["gbps"].get<double>() == doctest::Approx(1000.0));
  CHECK(fast["sweep"][2]["check"] == "FAIL");
  CHECK(fast["sweep"][2]["median_ms"].is_null());
}

TEST_CASE("CSV has a header and the same columns on every row") {
  const std::vector<std::string> lines = split(render(sample_report(), Format::csv), '\n');
  REQUIRE(lines.size() == 5);
  const std::vector<std::string> header = split(lines[0], ',');
  CHECK(header == std::vector<std::string>{"number", "kind", "stage", "threads", "items", "blocks_per_sm", "median_ms",
                                           "min_ms", "max_ms", "gbps", "pct_memcpy", "pct_peak", "step_speedup",
                                           "total_speedup", "check", "seed", "command"});
  for (std::size_t i = 1; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    CHECK(std::count(lines[i].begin(), lines[i].end(), ',') == 16);
    CHECK(lines[i].find(",42,chapter_00_bandwidth --n 1000 --seed 42") != std::string::npos);
  }
  CHECK(lines[2].find("2,kernel,fast,128,7,0,") == 0);
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
    CHECK(text.find("seed 42") != std::string::npos);
    CHECK(text.find("command: chapter_00_bandwidth --n 1000 --seed 42") != std::string::npos);
    CHECK(text.find("note: a remark") != std::string::npos);
    CHECK(text.find("128x7") != std::string::npos);
    CHECK(text.find("256 thr") != std::string::npos);
    CHECK(text.find("L2 flushed (read)") != std::string::npos);
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

TEST_CASE("the compact columns fit a slide: stage, shape, time, GB/s and the speedups") {
  for (Format format : {Format::table, Format::markdown}) {
    const std::string full = render(sample_report(), format, Columns::full);
    const std::string compact = render(sample_report(), format, Columns::compact);
    CHECK(full.find("% memcpy") != std::string::npos);
    CHECK(compact.find("% memcpy") == std::string::npos);
    CHECK(compact.find("% peak") == std::string::npos);
    CHECK(compact.find("GB/s") != std::string::npos);
    CHECK(compact.find("step speedup") != std::string::npos);
    CHECK(compact.find("128x7") != std::string::npos);
  }
}

TEST_CASE("CSV quotes a field with a comma") {
  Report report = sample_report();
  report.command = "chapter --stage a,b";
  CHECK(render(report, Format::csv).find(",\"chapter --stage a,b\"\n") != std::string::npos);
}

TEST_CASE("a warm run says so in the header") {
  Report report = sample_report();
  report.flush = "none";
  CHECK(render(report, Format::table).find("L2 warm") != std::string::npos);
  CHECK(nlohmann::json::parse(render(report, Format::json))["l2_flushed"] == false);
}

TEST_CASE("a report that counts flops gets a GFLOP/s column in every form, and one that does not gets none") {
  Report plain = sample_report();
  CHECK(render(plain, Format::table).find("GFLOP/s") == std::string::npos);
  CHECK(render(plain, Format::csv).find("gflops") == std::string::npos);
  CHECK(nlohmann::json::parse(render(plain, Format::json))["rows"][0]["gflops"].is_null());

  Report counted = sample_report();
  counted.flops = 3e9;  // 3 GFLOP: the 4 ms row does 750 GFLOP/s, the 1 ms row 3000
  derive_columns(counted);
  CHECK(counted.rows[0].gflops == doctest::Approx(750.0));
  CHECK(counted.rows[1].gflops == doctest::Approx(3000.0));
  const std::string table = render(counted, Format::table);
  CHECK(table.find("GFLOP/s") != std::string::npos);
  CHECK(table.find("750.0") != std::string::npos);
  CHECK(render(counted, Format::markdown, Columns::compact).find("| GFLOP/s |") != std::string::npos);
  const std::string csv = render(counted, Format::csv);
  CHECK(csv.substr(0, csv.find('\n')).find(",gflops") != std::string::npos);
  const nlohmann::json json = nlohmann::json::parse(render(counted, Format::json));
  CHECK(json["flops"].get<double>() == doctest::Approx(3e9));
  CHECK(json["rows"][1]["gflops"].get<double>() == doctest::Approx(3000.0));
  CHECK(json["rows"][2]["gflops"].is_null());  // the failed row has no time
}

namespace {

/// sample_report() with stage 2's variant rows after it: one slower (its change pays), one that
/// failed.
Report report_with_variants() {
  Report report = sample_report();
  ReportRow slower = report.rows[1];
  slower.variant = "packed flags";
  slower.sweep.clear();
  slower.time = TimingStats{1.25, 1.2, 1.3, 10};
  ReportRow failed = slower;
  failed.variant = "staged stores";
  failed.time.reset();
  failed.verdict = Verdict::fail;
  failed.check_detail = "2 of 1000 elements differ";
  report.rows.insert(report.rows.begin() + 2, {slower, failed});
  ReportRow after;  // a stage after the variants: its step is from stage 2, not from a variant
  after.number = 4;
  after.name = "faster";
  after.shape = {128, 9};
  after.time = TimingStats{0.5, 0.5, 0.6, 10};
  report.rows.insert(report.rows.begin() + 5, after);
  derive_columns(report);
  return report;
}

}  // namespace

TEST_CASE("a variant row: its step speedup is from its stage, and no later row steps from it") {
  const Report report = report_with_variants();
  REQUIRE(report.rows[2].variant == "packed flags");
  REQUIRE(report.rows[2].step_speedup.has_value());
  CHECK(*report.rows[2].step_speedup == doctest::Approx(1.0 / 1.25));
  CHECK(*report.rows[2].total_speedup == doctest::Approx(4.0 / 1.25));
  CHECK_FALSE(report.rows[3].step_speedup.has_value());  // failed: no time
  REQUIRE(report.rows[5].name == "faster");
  CHECK(*report.rows[5].step_speedup == doctest::Approx(1.0 / 0.5));  // from stage 2, the broken 3 has no time
}

TEST_CASE("a variant row reads `2 - change` in the table and markdown, and carries its change in JSON and CSV") {
  const Report report = report_with_variants();
  const std::string table = render(report, Format::table);
  CHECK(table.find("2 -  packed flags") != std::string::npos);
  CHECK(table.find("FAIL 2 - staged stores: 2 of 1000 elements differ") != std::string::npos);
  const std::string markdown = render(report, Format::markdown);
  CHECK(markdown.find("| 2 - | packed flags | 128x7 | 1.2500 |") != std::string::npos);
  const nlohmann::json json = nlohmann::json::parse(render(report, Format::json));
  CHECK(json["rows"][1].count("variant") == 0);
  CHECK(json["rows"][2]["variant"] == "packed flags");
  CHECK(json["rows"][2]["name"] == "fast");
  CHECK(json["rows"][2]["number"] == 2);
  const std::vector<std::string> lines = split(render(report, Format::csv), '\n');
  REQUIRE(lines.size() == report.rows.size() + 1);
  CHECK(split(lines[0], ',').back() == "variant");
  CHECK(split(lines[3], ',').back() == "packed flags");
  CHECK(lines[2].back() == ',');  // stage 2's own row: an empty variant
  CHECK(split(render(sample_report(), Format::csv), '\n')[0].find("variant") == std::string::npos);
}

TEST_CASE("a row that does less than the library says so in JSON, and only then") {
  Report report = sample_report();
  report.rows[1].matches_library = false;
  const nlohmann::json json = nlohmann::json::parse(render(report, Format::json));
  CHECK(json["rows"][0].count("matches_library") == 0);
  CHECK(json["rows"][1]["matches_library"] == false);
}

TEST_CASE("the theoretical peak: memory clock x 2 x bus width, the H100's 3352 GB/s") {
  CHECK(theoretical_peak_gbps(2619000, 5120) == doctest::Approx(3352.32));  // 2619 MHz, 5120-bit HBM3
  CHECK(theoretical_peak_gbps(3004000, 256) == doctest::Approx(192.256));   // a GK104 of the GTX 690
  CHECK(format_fixed(theoretical_peak_gbps(2619000, 5120), 0) == "3352");
}
