// ONNX file reading: mmap, a wire-level pass that drops big initializer payloads, protobuf
// parse of what is left, payload size checks and external-data checks.
#include "perfmodel/onnx/onnx_file.hpp"

#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "perfmodel/error.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/printable.hpp"

namespace perfmodel::io::onnx_import {

namespace {

using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;

// Field numbers of onnx.proto (proto2) the stripping pass needs.
constexpr uint32_t kModelGraph = 7, kGraphInitializer = 5;
constexpr uint32_t kTensorDataFields[] = {4, 5, 6, 7, 9, 10, 11}; // float..uint64, raw
constexpr uint32_t kTensorRawData = 9, kTensorFloatData = 4, kTensorDoubleData = 10;

enum class Level { model, graph, tensor };

struct Stripper {
  const std::string &path;
  std::vector<int64_t> payload_bytes; // per initializer, in file order: bytes of its data field
  std::vector<uint32_t> payload_field;
  int64_t skipped = 0;

  [[noreturn]] void fail(const std::string &what) const {
    throw InputError(SourceLoc{path}, "not a valid ONNX model: " + what);
  }

  static void append_varint(std::string &out, uint64_t v) {
    uint8_t buf[10];
    uint8_t *end = CodedOutputStream::WriteVarint64ToArray(v, buf);
    out.append(reinterpret_cast<const char *>(buf), static_cast<size_t>(end - buf));
  }

  // Copies one message, descending into ModelProto.graph and GraphProto.initializer and
  // leaving out large tensor payloads.
  void copy(const uint8_t *p, size_t n, Level level, std::string &out) {
    CodedInputStream in(p, static_cast<int>(n));
    in.SetRecursionLimit(INT_MAX);
    for (;;) {
      const int tag_start = in.CurrentPosition();
      const uint32_t tag = in.ReadTag();
      if (tag == 0) {
        if (static_cast<size_t>(in.CurrentPosition()) != n)
          fail("bad field tag");
        return;
      }
      const uint32_t field = tag >> 3, wire = tag & 7;
      bool ok = true;
      uint64_t v64;
      uint32_t len = 0;
      switch (wire) {
      case 0:
        ok = in.ReadVarint64(&v64);
        break;
      case 1:
        ok = in.Skip(8);
        break;
      case 5:
        ok = in.Skip(4);
        break;
      case 2:
        ok = in.ReadVarint32(&len);
        break;
      default:
        fail("unsupported wire type " + std::to_string(wire));
      }
      if (!ok)
        fail("the file is truncated");
      if (wire != 2) {
        out.append(reinterpret_cast<const char *>(p + tag_start),
                   static_cast<size_t>(in.CurrentPosition() - tag_start));
        continue;
      }
      const int body = in.CurrentPosition();
      if (static_cast<uint64_t>(body) + len > n)
        fail("the file is truncated");
      in.Skip(static_cast<int>(len));
      const bool descend = (level == Level::model && field == kModelGraph) ||
                           (level == Level::graph && field == kGraphInitializer);
      if (descend) {
        if (level == Level::graph) {
          payload_bytes.push_back(0);
          payload_field.push_back(0);
        }
        std::string sub;
        copy(p + body, len, level == Level::model ? Level::graph : Level::tensor, sub);
        append_varint(out, tag);
        append_varint(out, sub.size());
        out += sub;
        continue;
      }
      if (level == Level::tensor &&
          std::find(std::begin(kTensorDataFields), std::end(kTensorDataFields), field) !=
              std::end(kTensorDataFields)) {
        payload_bytes.back() += len;
        payload_field.back() = field;
        if (len > kKeepPayloadBytes) {
          skipped += len;
          continue;
        }
      }
      out.append(reinterpret_cast<const char *>(p + tag_start),
                 static_cast<size_t>(body + len - tag_start));
    }
  }
};

std::string join(const std::string &dir, const std::string &rel) {
  return dir.empty() || dir == "." ? rel : dir + "/" + rel;
}

// External data: the file must exist and hold offset + numel x element size bytes; small
// integer tensors are read (shape inference needs their values), nothing else.
void check_external(onnx::TensorProto &t, const std::string &path, const std::string &dir,
                    int64_t need) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &kv : t.external_data()) {
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset")
      offset = std::stoll(kv.value());
    else if (kv.key() == "length")
      length = std::stoll(kv.value());
  }
  const std::string what = "initializer '" + t.name() + "': external data";
  if (location.empty())
    throw InputError(SourceLoc{path}, what + " has no location");
  if (location[0] == '/' || location.find("..") != std::string::npos)
    throw InputError(SourceLoc{path}, what + " location '" + location +
                                          "' must be a relative path inside the model's folder");
  const std::string file = join(dir, location);
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    throw InputError(SourceLoc{path}, what + " file '" + file + "' not found");
  if (length >= 0 && need >= 0 && length != need)
    throw InputError(SourceLoc{path}, what + " length " + std::to_string(length) +
                                          " differs from the " + std::to_string(need) +
                                          " bytes its dims need");
  const int64_t bytes = need >= 0 ? need : length;
  if (bytes >= 0 && offset + bytes > st.st_size)
    throw InputError(SourceLoc{path}, what + " needs bytes " + std::to_string(offset) + ".." +
                                          std::to_string(offset + bytes) + " of '" + file +
                                          "', which has " + std::to_string(st.st_size));
  const bool integer =
      t.data_type() == onnx::TensorProto::INT64 || t.data_type() == onnx::TensorProto::INT32;
  if (integer && bytes >= 0 && bytes <= kKeepPayloadBytes) {
    std::string data(static_cast<size_t>(bytes), '\0');
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    const ssize_t got = fd >= 0 ? ::pread(fd, data.data(), data.size(), offset) : -1;
    if (fd >= 0)
      ::close(fd);
    if (got != static_cast<ssize_t>(bytes))
      throw InputError(SourceLoc{path}, what + " cannot be read");
    t.set_raw_data(std::move(data));
    t.clear_external_data();
    t.set_data_location(onnx::TensorProto::DEFAULT);
  }
}

// Names become layer and tensor names in every output, JSON included, which must be UTF-8;
// proto2 strings are not checked by protobuf, so an ONNX file from elsewhere may hold any bytes.
void check_names_utf8(const onnx::GraphProto &g, const std::string &path) {
  const auto check = [&](const std::string &name, const std::string &what) {
    if (first_invalid_utf8(name))
      throw InputError(SourceLoc{path}, what + " '" + name + "' is not valid UTF-8");
  };
  check(g.name(), "the graph's name");
  for (const auto &v : g.input())
    check(v.name(), "graph input");
  for (const auto &v : g.output())
    check(v.name(), "graph output");
  for (const auto &v : g.value_info())
    check(v.name(), "value_info");
  for (const auto &t : g.initializer())
    check(t.name(), "initializer");
  for (int i = 0; i < g.node_size(); ++i) {
    const auto &n = g.node(i);
    const std::string node = "node " + std::to_string(i);
    check(n.name(), node + ": the name");
    check(n.op_type(), node + ": the op type");
    check(n.domain(), node + ": the domain");
    for (const auto &t : n.input())
      check(t, node + ": input");
    for (const auto &t : n.output())
      check(t, node + ": output");
  }
}

} // namespace

int64_t onnx_element_bytes(int32_t data_type) {
  switch (data_type) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return 4;
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::BOOL:
    return 1;
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    return 2;
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::COMPLEX64:
    return 8;
  case onnx::TensorProto::COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

OnnxFile parse_onnx_bytes(const uint8_t *data, size_t size, const std::string &path,
                          const std::string &dir) {
  OnnxFile f;
  f.path = path;
  f.dir = dir;
  f.file_bytes = static_cast<int64_t>(size);
  if (size == 0)
    throw InputError(SourceLoc{path}, "not a valid ONNX model: the file is empty");
  if (size > static_cast<size_t>(INT_MAX))
    throw InputError(SourceLoc{path}, "larger than 2 GB: protobuf cannot hold it; save the "
                                      "weights as ONNX external data");
  Stripper s{path, {}, {}, 0};
  std::string stripped;
  s.copy(data, size, Level::model, stripped);
  f.skipped_bytes = s.skipped;
  if (!f.model.ParseFromString(stripped))
    throw InputError(SourceLoc{path}, "not a valid ONNX model: protobuf cannot parse it");
  if (!f.model.has_graph() || f.model.graph().node_size() == 0)
    throw InputError(SourceLoc{path}, "not a valid ONNX model: it has no graph nodes");
  check_names_utf8(f.model.graph(), path);
  auto *g = f.model.mutable_graph();
  if (static_cast<size_t>(g->initializer_size()) != s.payload_bytes.size())
    throw InputError(SourceLoc{path}, "not a valid ONNX model: initializer count differs");
  for (int i = 0; i < g->initializer_size(); ++i) {
    auto &t = *g->mutable_initializer(i);
    const int64_t elem = onnx_element_bytes(t.data_type());
    int64_t n = 1;
    for (int64_t d : t.dims()) {
      if (d < 0)
        throw InputError(SourceLoc{path}, "initializer '" + t.name() + "' has a negative dim");
      if (__builtin_mul_overflow(n, d, &n))
        throw InputError(SourceLoc{path},
                         "initializer '" + t.name() + "' has more than 2^63 - 1 elements");
    }
    int64_t need = -1; // bytes its dims need; -1: not a fixed-size element type
    if (elem && __builtin_mul_overflow(n, elem, &need))
      throw InputError(SourceLoc{path},
                       "initializer '" + t.name() + "' needs more than 2^63 - 1 bytes");
    if (t.data_location() == onnx::TensorProto::EXTERNAL) {
      check_external(t, path, dir, need);
      continue;
    }
    const uint32_t field = s.payload_field[i];
    const bool fixed = field == kTensorRawData ||
                       (field == kTensorFloatData && t.data_type() == onnx::TensorProto::FLOAT) ||
                       (field == kTensorDoubleData && t.data_type() == onnx::TensorProto::DOUBLE);
    if (fixed && need >= 0 && s.payload_bytes[i] != need)
      throw InputError(SourceLoc{path}, "initializer '" + t.name() + "' holds " +
                                            std::to_string(s.payload_bytes[i]) +
                                            " bytes of data but its dims need " +
                                            std::to_string(need));
  }
  return f;
}

OnnxFile read_onnx_file(const std::string &path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw InputError(SourceLoc{path}, std::string("cannot read: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(SourceLoc{path}, "not a regular file");
  }
  io::remember_input(fd);
  const size_t size = static_cast<size_t>(st.st_size);
  void *map = size ? ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
  ::close(fd);
  if (size && map == MAP_FAILED)
    throw InputError(SourceLoc{path}, std::string("cannot map: ") + std::strerror(errno));
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  try {
    OnnxFile f = parse_onnx_bytes(static_cast<const uint8_t *>(map), size, path, dir);
    if (size)
      ::munmap(map, size);
    return f;
  } catch (...) {
    if (size)
      ::munmap(map, size);
    throw;
  }
}

} // namespace perfmodel::io::onnx_import
