// Context helpers: constant values from TensorProtos, attribute lookups with ONNX defaults.
#include <doctest/doctest.h>

#include <cstring>

#include "io/onnx/onnx_context.hpp"

using namespace perfmodel::io::onnx_import;

TEST_CASE("tensor_values reads raw and typed payloads, not skipped ones") {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::INT64);
  t.add_dims(2);
  const int64_t raw[2] = {7, -1};
  t.set_raw_data(std::string(reinterpret_cast<const char *>(raw), sizeof raw));
  CHECK(*tensor_values(t) == std::vector<double>{7, -1});

  onnx::TensorProto f;
  f.set_data_type(onnx::TensorProto::FLOAT);
  f.add_float_data(2.5f);
  CHECK(*tensor_values(f) == std::vector<double>{2.5});

  onnx::TensorProto skipped; // dims say 4 elements, payload left in the file
  skipped.set_data_type(onnx::TensorProto::FLOAT);
  skipped.add_dims(4);
  CHECK_FALSE(tensor_values(skipped).has_value());
}

TEST_CASE("attribute helpers fall back to the ONNX defaults") {
  onnx::NodeProto n;
  auto *a = n.add_attribute();
  a->set_name("axis");
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(2);
  CHECK(attr_int(n, "axis", 0) == 2);
  CHECK(attr_int(n, "group", 1) == 1);
  CHECK_FALSE(attr_ints(n, "pads").has_value());
  CHECK(attr_string(n, "auto_pad", "NOTSET") == "NOTSET");
}
