// ONNX model -> perfmodel Graph: reads the file, binds dims, runs ONNX shape inference, maps
// the operators (docs/onnx.md) and checks the result with perfmodel::infer_shapes.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/onnx/onnx_file.hpp"

namespace perfmodel::io {

struct OnnxImportOptions {
  /// Probe ONNX shape inference at batch+1 too and write reshape targets with -1 where a dim
  /// scales with the batch, so a converted YAML reloads at any --batch (`perfmodel convert`).
  bool batch_portable = false;
  /// Where the one-line warning about ops without a rule goes (nullptr: nowhere).
  std::FILE *warnings = stderr;
};

struct OnnxImportReport {
  std::vector<std::string> unmapped;     // op types counted as generic without a rule
  std::vector<std::string> not_portable; // layers whose shapes cannot follow --batch
  /// Why no layer can follow --batch ("" when they can): the import one batch larger failed
  /// (a fixed-batch export that the rule of docs/onnx.md does not cover), with its message.
  std::string batch_fixed;
};

/// Imports an .onnx file. Throws InputError("path: error: ...") for bad files and models.
Graph import_onnx(const std::string &path, const ModelLoadOptions &opts,
                  const OnnxImportOptions &iopts = {}, OnnxImportReport *report = nullptr);

/// Same from a parsed file (tests build models in memory).
Graph import_onnx(onnx_import::OnnxFile file, const ModelLoadOptions &opts,
                  const OnnxImportOptions &iopts = {}, OnnxImportReport *report = nullptr);

} // namespace perfmodel::io
