// Data types of tensors and compute units, and their element sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perfmodel {

/// Element types. tf32 is fp32 storage computed on tensor cores; int64 is for indices.
enum class DType { fp64, fp32, tf32, fp16, bf16, fp8, int8, int32, int64, boolean };

/// Bytes per stored element (tf32 is stored as fp32).
int64_t bytes_of(DType t);
std::string_view to_string(DType t);
/// Parses "fp32", "float32", "float", "half", "fp16", ... ; nullopt when unknown.
std::optional<DType> parse_dtype(std::string_view s);

} // namespace perfmodel
