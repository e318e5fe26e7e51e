// The main of GPU test executables. Without a GPU, running a test case exits with 77,
// which CTest reports as skipped; listing the test cases (CTest discovery at build
// time) works everywhere.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "device.hpp"

namespace {

bool only_lists(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--list", 0) == 0 || argument.rfind("-l", 0) == 0 || argument == "--help" || argument == "-h" ||
        argument == "-?" || argument.rfind("--count", 0) == 0 || argument == "-c")
      return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (!only_lists(argc, argv) && stepwise::cuda_device_count() == 0) {
    std::printf("skipped: no CUDA-capable GPU found (GPU tests need one)\n");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
