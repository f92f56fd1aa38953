// Reads an .onnx file into ONNX's ModelProto without the bulk of the weights: the file is
// memory-mapped, and large initializer payloads are skipped at the protobuf wire level.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace perfmodel::io::onnx_import {

/// Initializer payloads larger than this are not copied (only their size is checked); smaller
/// ones (shape constants, Clip bounds, indices) stay so ONNX shape inference can read them.
constexpr int64_t kKeepPayloadBytes = 64 * 1024;

struct OnnxFile {
  std::string path; // as given (used in error messages)
  std::string dir;  // folder of the file: external data locations are relative to it
  onnx::ModelProto model;
  int64_t file_bytes = 0;
  int64_t skipped_bytes = 0; // initializer payload bytes left in the file
};

/// Maps `path`, strips initializer payloads over kKeepPayloadBytes, parses the rest, validates
/// payload sizes against dims and checks external data files (existence and size, never their
/// content except small integer tensors shape inference needs). Throws InputError("path: ...").
OnnxFile read_onnx_file(const std::string &path);

/// Same on bytes already in memory (tests); `path` names them in errors, `dir` resolves external
/// data.
OnnxFile parse_onnx_bytes(const uint8_t *data, size_t size, const std::string &path,
                          const std::string &dir);

/// Bytes per element of an ONNX TensorProto data type; 0 for strings and unknown types.
int64_t onnx_element_bytes(int32_t data_type);

} // namespace perfmodel::io::onnx_import
