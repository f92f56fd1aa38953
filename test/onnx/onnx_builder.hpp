// Test helper: builds small ONNX models in memory with ONNX's protobuf classes, so the tests
// need no binary fixtures.
#pragma once

#include <onnx/onnx_pb.h>

#include <cctype>

#include <string>
#include <vector>

#include "perfmodel/onnx/onnx_file.hpp"
#include "perfmodel/onnx/onnx_import.hpp"

namespace perfmodel::test {

class OnnxBuilder {
public:
  explicit OnnxBuilder(int opset = 13) {
    m_.set_ir_version(8);
    m_.set_producer_name("perfmodel-test");
    m_.add_opset_import()->set_version(opset);
    g_ = m_.mutable_graph();
    g_->set_name("test");
  }

  /// dims: numbers ("3") or symbols ("batch").
  void input(const std::string &name, const std::vector<std::string> &dims,
             int type = onnx::TensorProto::FLOAT) {
    auto *v = g_->add_input();
    v->set_name(name);
    auto *tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(type);
    auto *sh = tt->mutable_shape();
    for (const auto &d : dims) {
      auto *dim = sh->add_dim();
      if (!d.empty() && (std::isdigit(static_cast<unsigned char>(d[0])) != 0))
        dim->set_dim_value(std::stoll(d));
      else if (!d.empty())
        dim->set_dim_param(d);
    }
  }

  void output(const std::string &name) { g_->add_output()->set_name(name); }

  /// A float initializer holding real (zero) data.
  onnx::TensorProto &init(const std::string &name, const std::vector<int64_t> &dims) {
    auto *t = g_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims)
      t->add_dims(d), n *= d;
    t->set_raw_data(std::string(static_cast<size_t>(n) * 4, '\0'));
    return *t;
  }

  onnx::TensorProto &init_i64(const std::string &name, const std::vector<int64_t> &values,
                              bool scalar = false) {
    auto *t = g_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    if (!scalar)
      t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values)
      t->add_int64_data(v);
    return *t;
  }

  /// A Constant node holding a float scalar (opset 13 style).
  void constant(const std::string &name, float value) {
    auto &n = node("Constant", {}, {name});
    auto *a = n.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    a->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
    a->mutable_t()->add_float_data(value);
  }

  onnx::NodeProto &node(const std::string &op, const std::vector<std::string> &ins,
                        const std::vector<std::string> &outs, const std::string &name = "") {
    auto *n = g_->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? op + "_" + std::to_string(g_->node_size()) : name);
    for (const auto &i : ins)
      n->add_input(i);
    for (const auto &o : outs)
      n->add_output(o);
    return *n;
  }

  static void attr(onnx::NodeProto &n, const std::string &key, int64_t v) {
    auto *a = n.add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void attr(onnx::NodeProto &n, const std::string &key, const std::vector<int64_t> &v) {
    auto *a = n.add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v)
      a->add_ints(x);
  }
  static void attr(onnx::NodeProto &n, const std::string &key, const std::string &v) {
    auto *a = n.add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  }

  std::string bytes() const { return m_.SerializeAsString(); }
  onnx::ModelProto &model() { return m_; }

  Graph load(const io::ModelLoadOptions &opts = {}, const std::string &dir = ".",
             io::OnnxImportReport *rep = nullptr, bool portable = false) const {
    const std::string b = bytes();
    auto f = io::onnx_import::parse_onnx_bytes(reinterpret_cast<const uint8_t *>(b.data()),
                                               b.size(), "test.onnx", dir);
    io::OnnxImportOptions o;
    o.warnings = nullptr;
    o.batch_portable = portable;
    return io::import_onnx(std::move(f), opts, o, rep);
  }

private:
  onnx::ModelProto m_;
  onnx::GraphProto *g_;
};

} // namespace perfmodel::test
