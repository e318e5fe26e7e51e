// Exercise 08-2, solved: walk the output rows and the offsets together, as the merge does. Before
// row r is emitted, every object whose offset is <= r has been passed (ties: the offset first), so
// the row belongs to the last of them, and its rank is r minus that object's offset.
#include "02_expansion.hpp"

namespace stepwise::join::exercises {

OutputColumns expand(const std::vector<std::int32_t>& offsets) {
  OutputColumns columns;
  if (offsets.empty()) return columns;
  const std::int32_t total = offsets.back();
  const auto objects = static_cast<std::int32_t>(offsets.size()) - 1;
  std::int32_t next = 0;  // the objects passed so far: row r belongs to object next - 1
  for (std::int32_t row = 0; row < total; ++row) {
    while (next < objects && offsets[static_cast<std::size_t>(next)] <= row) ++next;
    columns.objects.push_back(next - 1);
    columns.ranks.push_back(row - offsets[static_cast<std::size_t>(next - 1)]);
  }
  return columns;
}

}  // namespace stepwise::join::exercises
