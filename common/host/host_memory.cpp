#include "host/host_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "host/cli.hpp"
#include "host/sizes.hpp"

namespace stepwise {

std::uint64_t available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

void require_host_bytes(double bytes, const std::string& what) {
  const double available = static_cast<double>(available_host_bytes());
  if (available > 0.0 && bytes > available)
    throw UsageError(what + " needs " + format_bytes(bytes) + " of host memory; " + format_bytes(available) +
                     " is available");
}

}  // namespace stepwise
