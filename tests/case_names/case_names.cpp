// Test cases whose names CTest, CMake lists or doctest's filter could take apart: `;` (a CMake
// list separator), `,` (doctest's filter separator), `*` and `?` (its wildcards), `[`, `]`, `\`
// and `]=]` (CMake's bracket arguments). Each case appends its own name to markers.txt in the
// working directory; check_markers.cmake then requires every listed name there exactly once, so a
// name registered wrongly (a CTest test that matched no case, and passed) fails the suite.
//
// Built with STEPWISE_BROKEN_CASES, the same file holds the cases that case_guard.hpp must refuse
// (no assertion, a skip that hides a failure, names that are wildcard matches of each other):
// that executable is run by exit-code tests, never discovered.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#ifndef STEPWISE_BROKEN_CASES

namespace {

/// Appends the running case's name to markers.txt, one line per run.
void mark(const std::string& name) {
  std::ofstream markers("markers.txt", std::ios::app);
  markers << name << "\n";
  markers.flush();
  REQUIRE(markers.good());
}

}  // namespace

TEST_CASE("a name with a semicolon; CMake must not split it into two tests") {
  mark(doctest::getContextOptions()->currentTest->m_name);
}

TEST_CASE("a name with commas, which doctest's filter splits at, runs as one case") {
  mark(doctest::getContextOptions()->currentTest->m_name);
}

TEST_CASE("a name with a star * and a question mark ? matches itself") {
  mark(doctest::getContextOptions()->currentTest->m_name);
}

TEST_CASE("a name with [brackets, unbalanced [, a backslash \\ and ]=] in it") {
  mark(doctest::getContextOptions()->currentTest->m_name);
}

TEST_CASE("a name ending in a backslash \\") { mark(doctest::getContextOptions()->currentTest->m_name); }

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
