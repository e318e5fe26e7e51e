# Header-only dependencies: the system's packages first (Debian: doctest-dev,
# libcli11-dev, nlohmann-json3-dev), else a pinned release fetched at configure time.
include(FetchContent)

# CLI11: 2.1 (Debian bookworm's libcli11-dev, 2.1.2) up to the pinned release, both tested.
# To build against the pinned release although a package is installed:
#   -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON  (and -DFETCHCONTENT_SOURCE_DIR_CLI11=<a CLI11 checkout> offline)
find_package(CLI11 2.1 CONFIG QUIET)
if(TARGET CLI11::CLI11)
  message(STATUS "stepwise: CLI11 ${CLI11_VERSION} (${CLI11_DIR})")
else()
  message(STATUS "stepwise: CLI11 not found or not wanted, fetching v2.7.2")
  FetchContent_Declare(cli11 GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git GIT_TAG v2.7.2 GIT_SHALLOW TRUE)
  FetchContent_MakeAvailable(cli11)
endif()

find_package(nlohmann_json 3.10 CONFIG QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  message(STATUS "stepwise: nlohmann_json not installed, fetching v3.11.3")
  FetchContent_Declare(json GIT_REPOSITORY https://github.com/nlohmann/json.git GIT_TAG v3.11.3 GIT_SHALLOW TRUE)
  FetchContent_MakeAvailable(json)
endif()

if(STEPWISE_BUILD_TESTS)
  # Its test cases are registered with CTest by tests/support/discover_tests.cmake, not by
  # doctest's own doctest_discover_tests (which splits a name at `;`).
  find_package(doctest 2.4 CONFIG QUIET)
  if(NOT TARGET doctest::doctest)
    message(STATUS "stepwise: doctest not installed, fetching v2.4.11")
    FetchContent_Declare(doctest GIT_REPOSITORY https://github.com/doctest/doctest.git GIT_TAG v2.4.11 GIT_SHALLOW TRUE)
    FetchContent_MakeAvailable(doctest)
  endif()
endif()
