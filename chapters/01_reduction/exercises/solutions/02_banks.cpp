// Exercise 01-2, solved: count the distinct words of each bank, keep the largest count.
#include <algorithm>
#include <array>
#include <set>

#include "02_banks.hpp"

namespace stepwise::reduction::exercises {

unsigned warp_conflict_degree(const std::vector<unsigned>& words) {
  std::array<std::set<unsigned>, 32> per_bank;  // the distinct words of each bank
  for (unsigned word : words) per_bank[word % 32].insert(word);
  std::size_t degree = 0;
  for (const std::set<unsigned>& bank : per_bank) degree = std::max(degree, bank.size());
  return static_cast<unsigned>(degree);
}

}  // namespace stepwise::reduction::exercises
