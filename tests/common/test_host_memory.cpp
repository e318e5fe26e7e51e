#include <doctest/doctest.h>

#include <string>

#include "host/cli.hpp"
#include "host/host_memory.hpp"

TEST_CASE("host memory: what is available is read, and a run larger than it is refused naming the input") {
  const double available = static_cast<double>(stepwise::available_host_bytes());
  REQUIRE(available > 0.0);
  CHECK_NOTHROW(stepwise::require_host_bytes(1024.0, "--n 256"));
  try {
    stepwise::require_host_bytes(4.0 * available + 1.0, "--n 2^60");
    FAIL("a run four times larger than the available memory was accepted");
  } catch (const stepwise::UsageError& error) {
    const std::string message = error.what();
    CHECK(message.rfind("--n 2^60 needs ", 0) == 0);
    CHECK(message.find("of host memory;") != std::string::npos);
    CHECK(message.find("is available") != std::string::npos);
  }
}
