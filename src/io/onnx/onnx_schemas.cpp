// ONNX's schemas with the convolutions' weight rank checked (onnx_schemas.hpp).
#include "io/onnx/onnx_schemas.hpp"

#include <onnx/defs/shape_inference.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace perfmodel::io::onnx_import {

namespace {

/// Which input of an ONNX-domain convolution is its weight; -1 for any other op.
int weight_input(const std::string &op, const std::string &domain) {
  if (!(domain.empty() || domain == "ai.onnx"))
    return -1;
  if (op == "QLinearConv")
    return 3;
  if (op == "Conv" || op == "ConvInteger" || op == "ConvTranspose")
    return 1;
  return -1;
}

/// The rank libonnx's convolution inference reads from input `n`: the dims of its tensor shape
/// (none for another type that has a shape); -1 when ONNX knows no shape for it.
int seen_rank(onnx::InferenceContext &ctx, size_t n) {
  if (!onnx::hasInputShape(ctx, n))
    return -1;
  return ctx.getInputType(n)->tensor_type().shape().dim_size();
}

const std::string kRankRule = ": without kernel_shape, the kernel is the weight's dims after "
                              "the first two, one per spatial dim of the data";

// What check_weight_rank refused on this thread, for take_failed_checks.
thread_local std::vector<FailedCheck> failed_checks;

void check_weight_rank(onnx::InferenceContext &ctx, const std::string &op, int w) {
  if (ctx.getAttribute("kernel_shape"))
    return;
  const int data = seen_rank(ctx, 0), weight = seen_rank(ctx, size_t(w));
  if (data < 2 || weight < 0 || weight == data)
    return; // data of rank < 2: ONNX's own error
  std::string why = "the weight (input " + std::to_string(w) + ") has rank " +
                    std::to_string(weight) + " and the data (input 0) rank " +
                    std::to_string(data) + kRankRule;
  failed_checks.push_back({op, why});
  fail_shape_inference(why);
}

class CheckedSchemas final : public onnx::ISchemaRegistry {
public:
  const onnx::OpSchema *GetSchema(const std::string &key, const int max_inclusive_version,
                                  const std::string &domain) const override {
    const onnx::OpSchema *s = onnx::OpSchemaRegistry::Schema(key, max_inclusive_version, domain);
    const int w = weight_input(key, domain);
    if (!s || w < 0 || !s->has_type_and_shape_inference_function())
      return s;
    const std::lock_guard<std::mutex> lock(mutex_);
    std::unique_ptr<onnx::OpSchema> &checked = checked_[s];
    if (!checked) {
      checked = std::make_unique<onnx::OpSchema>(*s);
      checked->TypeAndShapeInferenceFunction(
          [inner = s->GetTypeAndShapeInferenceFunction(), key, w](onnx::InferenceContext &ctx) {
            check_weight_rank(ctx, key, w);
            inner(ctx);
          });
    }
    return checked.get();
  }

private:
  mutable std::mutex mutex_;
  // One checked copy per ONNX schema (an op at an opset version), made on first use.
  mutable std::map<const onnx::OpSchema *, std::unique_ptr<onnx::OpSchema>> checked_;
};

} // namespace

const onnx::ISchemaRegistry *checked_schemas() {
  static const CheckedSchemas schemas;
  return &schemas;
}

std::vector<FailedCheck> take_failed_checks() { return std::exchange(failed_checks, {}); }

} // namespace perfmodel::io::onnx_import
