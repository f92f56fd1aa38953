// Data type names and element sizes.
#include "perfmodel/dtype.hpp"

#include <array>
#include <utility>

namespace perfmodel {

int64_t bytes_of(DType t) {
  switch (t) {
  case DType::fp64:
    return 8;
  case DType::fp32:
    return 4;
  case DType::tf32:
    return 4;
  case DType::fp16:
    return 2;
  case DType::bf16:
    return 2;
  case DType::fp8:
    return 1;
  case DType::int8:
    return 1;
  case DType::int32:
    return 4;
  case DType::int64:
    return 8;
  case DType::boolean:
    return 1;
  }
  return 4;
}

std::string_view to_string(DType t) {
  switch (t) {
  case DType::fp64:
    return "fp64";
  case DType::fp32:
    return "fp32";
  case DType::tf32:
    return "tf32";
  case DType::fp16:
    return "fp16";
  case DType::bf16:
    return "bf16";
  case DType::fp8:
    return "fp8";
  case DType::int8:
    return "int8";
  case DType::int32:
    return "int32";
  case DType::int64:
    return "int64";
  case DType::boolean:
    return "bool";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view s) {
  static const std::array<std::pair<std::string_view, DType>, 18> names{{
      {"fp64", DType::fp64},
      {"float64", DType::fp64},
      {"double", DType::fp64},
      {"fp32", DType::fp32},
      {"float32", DType::fp32},
      {"float", DType::fp32},
      {"tf32", DType::tf32},
      {"fp16", DType::fp16},
      {"float16", DType::fp16},
      {"half", DType::fp16},
      {"bf16", DType::bf16},
      {"bfloat16", DType::bf16},
      {"fp8", DType::fp8},
      {"int8", DType::int8},
      {"int32", DType::int32},
      {"int64", DType::int64},
      {"bool", DType::boolean},
      {"uint8", DType::int8},
  }};
  for (const auto &[name, t] : names)
    if (name == s)
      return t;
  return std::nullopt;
}

} // namespace perfmodel
