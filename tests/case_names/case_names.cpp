// Test cases whose names CTest, CMake lists or doctest's filter could take apart: `;` (a CMake
// list separator), `,` (doctest's filter separator), `*` and `?` (its wildcards), `[`, `]`, `\`
// and `]=]` (CMake's bracket arguments). Each case checks that its name holds the character it is
// about and, when STEPWISE_CASE_MARKERS names a file, appends its name to it: check_markers.cmake
// runs these cases' CTest tests and then requires every name there exactly once, so a name
// registered wrongly (a CTest test that matched no case, and passed) fails the suite.
//
// Built with STEPWISE_BROKEN_CASES, the same file holds the cases that case_guard.hpp must refuse
// (no assertion, a skip that hides a failure, names that are wildcard matches of each other):
// that executable is run by exit-code tests, never discovered.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#ifndef STEPWISE_BROKEN_CASES

namespace {

/// Checks that the running case's name holds @p characters, and appends the name to the file
/// STEPWISE_CASE_MARKERS names, if any.
void check_name_and_mark(const std::string& characters) {
  const std::string name = doctest::getContextOptions()->currentTest->m_name;
  CHECK(name.find(characters) != std::string::npos);
  if (const char* markers = std::getenv("STEPWISE_CASE_MARKERS")) {
    std::ofstream file(markers, std::ios::app);
    file << name << "\n";
    file.flush();
    REQUIRE(file.good());
  }
}

}  // namespace

TEST_CASE("a name with a semicolon; CMake must not split it into two tests") { check_name_and_mark("; "); }

TEST_CASE("a name with commas, which doctest's filter splits at, runs as one case") { check_name_and_mark(", "); }

TEST_CASE("a name with a star * and a question mark ? matches itself") {
  check_name_and_mark("* and a question mark ?");
}

TEST_CASE("a name with [brackets, unbalanced [, a backslash \\ and ]=] in it") { check_name_and_mark("\\ and ]=]"); }

TEST_CASE("a name ending in a backslash \\") { check_name_and_mark("backslash \\"); }

#else

TEST_CASE("makes no assertion") {}

TEST_CASE("skips") { MESSAGE("stepwise-skip: the fixture skips on purpose"); }

TEST_CASE("skips, then fails") {
  MESSAGE("stepwise-skip: the fixture skips on purpose");
  CHECK(1 + 1 == 3);
}

TEST_CASE("wild * card") { CHECK(true); }

TEST_CASE("wild and card") { CHECK(true); }

TEST_CASE("passes") { CHECK(true); }

#endif
