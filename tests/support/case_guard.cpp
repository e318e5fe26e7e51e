#include "case_guard.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace stepwise::testing {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitSkipped = 77;
constexpr const char* kSkipMarker = "stepwise-skip:";

/// What one test case did, as the listener saw it.
struct CaseRecord {
  std::string name;
  int assertions = 0;
  bool failed = false;
  bool skipped = false;  ///< it logged a MESSAGE starting with "stepwise-skip:"
};

std::vector<CaseRecord>& records() {
  static std::vector<CaseRecord> cases;
  return cases;
}

/// False for a query (--help, --list-test-cases, --count, --no-run, ...): doctest ran no case.
bool& run_started() {
  static bool started = false;
  return started;
}

/// A doctest listener (it runs beside the console reporter) that records each test case run.
class CaseListener final : public doctest::IReporter {
 public:
  explicit CaseListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override { run_started() = true; }
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& test_case) override {
    records().push_back({test_case.m_name, 0, false, false});
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    if (records().empty()) return;
    records().back().assertions = stats.numAssertsCurrentTest;
    records().back().failed = !stats.testCaseSuccess;
  }
  void test_case_exception(const doctest::TestCaseException&) override {
    if (!records().empty()) records().back().failed = true;
  }
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData& message) override {
    if (!records().empty() && std::strncmp(message.m_string.c_str(), kSkipMarker, std::strlen(kSkipMarker)) == 0)
      records().back().skipped = true;
  }
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

/// @p name as one doctest filter value: doctest splits filters at `,` and reads `\` as an escape.
std::string escape_filter(const std::string& name) {
  std::string escaped;
  for (char c : name) {
    if (c == ',' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

}  // namespace

DOCTEST_REGISTER_LISTENER("stepwise-case-guard", 1, CaseListener);

int run_test_cases(int argc, char** argv) {
  std::optional<std::string> wanted;
  std::vector<char*> arguments;
  const std::size_t option_length = std::strlen(kCaseOption);
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strncmp(argv[i], kCaseOption, option_length) == 0) {
      if (wanted || argv[i][option_length] == '\0') {
        std::fprintf(stderr, "stepwise: %s needs one test case name, given once\n", kCaseOption);
        return kExitFailed;
      }
      wanted = argv[i] + option_length;
      continue;
    }
    arguments.push_back(argv[i]);
  }
  doctest::Context context(static_cast<int>(arguments.size()), arguments.data());
  if (wanted) context.addFilter("test-case", escape_filter(*wanted).c_str());
  records().clear();
  run_started() = false;
  const int result = context.run();
  if (!run_started()) return result;  // a query: nothing was to run

  if (records().empty() && !wanted) {
    std::fprintf(stderr, "stepwise: no test case ran: the filters match none\n");
    return kExitFailed;
  }
  bool broken = false;
  bool any_skipped = false;
  bool wanted_ran = false;
  for (const CaseRecord& record : records()) {
    if (record.assertions == 0 && !record.failed && !record.skipped) {
      std::fprintf(stderr, "stepwise: the test case '%s' made no assertion: a test must check something\n",
                   record.name.c_str());
      broken = true;
    }
    any_skipped = any_skipped || record.skipped;
    if (!wanted) continue;
    if (record.name == *wanted) {
      wanted_ran = true;
    } else {
      std::fprintf(stderr,
                   "stepwise: %s%s also ran '%s' (doctest's filter reads * and ? as wildcards and ignores case): "
                   "rename one of them\n",
                   kCaseOption, wanted->c_str(), record.name.c_str());
      broken = true;
    }
  }
  if (wanted && !wanted_ran) {
    std::fprintf(stderr, "stepwise: no test case named '%s' ran\n", wanted->c_str());
    broken = true;
  }
  if (broken) return kExitFailed;
  if (result != 0) return result;
  return wanted && any_skipped ? kExitSkipped : 0;
}

}  // namespace stepwise::testing
