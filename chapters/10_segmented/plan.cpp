#include "plan.hpp"

namespace stepwise::segmented {

const char* to_string(ValueType type) {
  switch (type) {
    case ValueType::int32:
      return "int32";
    case ValueType::float32:
      return "float32";
    case ValueType::float64:
      return "float64";
  }
  return "?";
}

std::size_t value_bytes(ValueType type) { return type == ValueType::float64 ? 8 : 4; }

}  // namespace stepwise::segmented
