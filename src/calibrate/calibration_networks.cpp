// The calibration networks, written as model YAML (docs/formats.md) and parsed by the model
// loader, so that they go through the same shape inference and counting as any user model.
#include "perfmodel/calibrate/calibration_networks.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/targets/cpu_eigen.hpp"

namespace perfmodel::calibrate {

namespace {

// Writes one flow-style layer line per call; a layer's input is the previous layer's output
// unless `inputs` names others (layers are referred to by name).
class NetWriter {
public:
  NetWriter(const std::string &name, const std::string &input_shape) {
    os_ << "version: 1\nname: " << name
        << "\ndtype: fp32\ninputs:\n  - {name: data, shape: " << input_shape << "}\nlayers:\n";
  }
  std::string layer(const std::string &name, const std::string &op, const std::string &attrs = "") {
    os_ << "  - {name: " << name << ", op: " << op << (attrs.empty() ? "" : ", ") << attrs << "}\n";
    return name;
  }
  // conv (no bias) -> batch norm -> activation ("" for none); returns the last layer's name.
  std::string conv_bn(const std::string &name, int out, int k, int stride, int groups,
                      const std::string &act) {
    layer(name, "conv2d",
          "out_channels: " + std::to_string(out) + ", kernel: " + std::to_string(k) +
              ", stride: " + std::to_string(stride) + ", pad: " + std::to_string(k / 2) +
              ", groups: " + std::to_string(groups) + ", bias: 0");
    const std::string bn = layer(name + "_bn", "batchnorm");
    return act.empty() ? bn : layer(name + "_" + act, act);
  }
  // Global average pool, flatten, linear to `classes`; returns the whole YAML text.
  std::string classifier(int classes) {
    layer("gap", "global_avgpool");
    layer("flat", "flatten");
    layer("fc", "linear", "out_features: " + std::to_string(classes));
    return text();
  }
  std::string text() const { return os_.str(); }

private:
  std::ostringstream os_;
};

// Bottleneck residual stages (1x1 reduce, 3x3, 1x1 expand, projection shortcut): 1x1
// convolutions whose GEMMs split columns or rows, batch norms and adds after them.
std::string residual_net() {
  NetWriter w("calib_res", "[1, 3, 176, 176]");
  w.conv_bn("stem", 40, 5, 2, 1, "relu");
  std::string x = w.layer("stem_pool", "maxpool", "kernel: 3, stride: 2, pad: 1");
  struct Stage {
    int mid, out, blocks;
  };
  const Stage stages[] = {{40, 160, 2}, {80, 320, 2}, {160, 640, 2}, {320, 1280, 1}};
  for (int s = 0; s < 4; ++s)
    for (int b = 0; b < stages[s].blocks; ++b) {
      const std::string p = "s" + std::to_string(s) + "b" + std::to_string(b);
      const int stride = b == 0 && s > 0 ? 2 : 1;
      const std::string in = x;
      w.conv_bn(p + "_a", stages[s].mid, 1, 1, 1, "relu");
      w.conv_bn(p + "_b", stages[s].mid, 3, stride, 1, "relu");
      const std::string main = w.conv_bn(p + "_c", stages[s].out, 1, 1, 1, "");
      std::string shortcut = in;
      if (b == 0) {
        w.layer(p + "_down", "conv2d",
                "out_channels: " + std::to_string(stages[s].out) + ", kernel: 1, stride: " +
                    std::to_string(stride) + ", bias: 0, inputs: [" + in + "]");
        shortcut = w.layer(p + "_down_bn", "batchnorm");
      }
      w.layer(p + "_add", "add", "inputs: [" + main + ", " + shortcut + "]");
      x = w.layer(p + "_relu", "relu");
    }
  return w.classifier(600);
}

// Inverted residual blocks (1x1 expand, depthwise 3x3, 1x1 project, ReLU6), EfficientNet-like
// widths on a 200x200 input.
std::string depthwise_net() {
  NetWriter w("calib_dw", "[1, 3, 200, 200]");
  std::string x = w.conv_bn("stem", 24, 3, 2, 1, "relu6");
  int c = 24;
  struct Block {
    int expand, out, stride, repeat;
  };
  const Block blocks[] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 40, 2, 2}, {6, 80, 2, 2},
                          {6, 112, 1, 1}, {6, 192, 2, 2}, {6, 360, 1, 1}};
  int i = 0;
  for (const Block &b : blocks) {
    for (int r = 0; r < b.repeat; ++r) {
      const std::string p = "b" + std::to_string(i) + "_" + std::to_string(r);
      const std::string in = x;
      const int ch = c * b.expand;
      if (b.expand > 1)
        w.conv_bn(p + "_exp", ch, 1, 1, 1, "relu6");
      w.conv_bn(p + "_dw", ch, 3, r == 0 ? b.stride : 1, ch, "relu6");
      x = w.conv_bn(p + "_proj", b.out, 1, 1, 1, "");
      if (r > 0)
        x = w.layer(p + "_add", "add", "inputs: [" + x + ", " + in + "]");
      c = b.out;
    }
    ++i;
  }
  w.conv_bn("head", 1000, 1, 1, 1, "relu6");
  return w.classifier(500);
}

// VGG / NIN-like: 3x3 and 1x1 convolutions with separate and fused ReLUs, 2x2 and 3x3 max
// pools (ceil mode), a windowed average pool and two linear layers.
std::string plain_net() {
  NetWriter w("calib_plain", "[1, 3, 144, 144]");
  w.layer("c1", "conv2d", "out_channels: 48, kernel: 3, pad: 1");
  w.layer("r1", "relu");
  w.layer("c2", "conv2d", "out_channels: 48, kernel: 3, pad: 1");
  w.layer("r2", "relu");
  w.layer("p1", "maxpool", "kernel: 2, stride: 2");
  w.layer("c3", "conv2d", "out_channels: 112, kernel: 3, pad: 1");
  w.layer("r3", "relu");
  w.layer("c4", "conv2d", "out_channels: 112, kernel: 1, activation: relu");
  w.layer("p2", "maxpool", "kernel: 3, stride: 2, ceil_mode: true");
  w.layer("c5", "conv2d", "out_channels: 240, kernel: 3, pad: 1");
  w.layer("r5", "relu");
  w.layer("c6", "conv2d", "out_channels: 240, kernel: 3, pad: 1, activation: relu");
  w.layer("p3", "maxpool", "kernel: 2, stride: 2");
  w.layer("c7", "conv2d", "out_channels: 480, kernel: 3, pad: 1, activation: relu");
  w.layer("c8", "conv2d", "out_channels: 480, kernel: 1, activation: relu");
  w.layer("p4", "maxpool", "kernel: 3, stride: 1, ceil_mode: true");
  w.layer("c9", "conv2d", "out_channels: 800, kernel: 3, activation: relu");
  w.layer("p5", "avgpool", "kernel: 3, stride: 1");
  w.layer("flat", "flatten");
  w.layer("fc1", "linear", "out_features: 1500");
  w.layer("r10", "relu");
  w.layer("fc2", "linear", "out_features: 700");
  return w.text();
}

// Wide, high-resolution residual blocks: batch norms, ReLUs and adds over 3.8-7 MB tensors
// after 1x1 convolutions, the sizes of ResNet-50's and MobileNetV2's early streaming layers
// (3-10 MB of traffic), which the other networks' smaller planes do not reach. On a 2-core
// host the streaming fit without them predicted ResNet-50's batch norms and adds 31-33% fast
// (docs/calibration.md, "Calibration networks").
std::string wide_net() {
  NetWriter w("calib_wide", "[1, 3, 200, 200]");
  w.conv_bn("c0", 40, 3, 1, 1, "relu");
  const std::string pool = w.layer("p0", "maxpool", "kernel: 2, stride: 2");
  w.conv_bn("c1", 176, 1, 1, 1, "relu");
  const std::string main = w.conv_bn("c2", 96, 1, 1, 1, "");
  w.layer("c3", "conv2d", "out_channels: 96, kernel: 1, bias: 0, inputs: [" + pool + "]");
  const std::string shortcut = w.layer("c3_bn", "batchnorm");
  w.layer("add1", "add", "inputs: [" + main + ", " + shortcut + "]");
  const std::string x = w.layer("r1", "relu");
  w.conv_bn("c4", 144, 1, 1, 1, "relu");
  const std::string main2 = w.conv_bn("c5", 96, 1, 1, 1, "");
  w.layer("add2", "add", "inputs: [" + main2 + ", " + x + "]");
  w.layer("r2", "relu");
  return w.classifier(100);
}

} // namespace

std::vector<Graph> calibration_networks() {
  const std::pair<std::string, std::string> nets[] = {{"calib_res", residual_net()},
                                                      {"calib_dw", depthwise_net()},
                                                      {"calib_plain", plain_net()},
                                                      {"calib_wide", wide_net()}};
  std::vector<Graph> out;
  for (const auto &[name, text] : nets)
    out.push_back(io::parse_model_yaml(text, "<calibration network " + name + ">", {}));
  return out;
}

bool network_sample_fitted(OpClass c) {
  return c == OpClass::elementwise || c == OpClass::norm || c == OpClass::pool ||
         c == OpClass::reduce || c == OpClass::depthwise || c == OpClass::depthwise_strided;
}

bool held_out(const Sample &s) {
  return s.source.rfind("network:", 0) == 0 && !network_sample_fitted(s.op_class);
}

std::vector<Sample> fitted_samples(const std::vector<Sample> &samples) {
  std::vector<Sample> out;
  for (const Sample &s : samples)
    if (!held_out(s))
      out.push_back(s);
  return out;
}

std::vector<std::string> held_out_report(const Calibration &cal,
                                         const std::vector<Sample> &samples) {
  struct Tally {
    std::vector<double> errors;
    double measured = 0, predicted = 0;
  };
  std::map<std::pair<int, int>, Tally> by_class;
  for (const Sample &s : samples) {
    const ClassCalibration *cc = held_out(s) ? cal.find(s.op_class, s.dtype) : nullptr;
    if (!cc)
      continue;
    Tally &t = by_class[{int(s.op_class), int(s.dtype)}];
    const double pred = model_seconds(cal, cc->params, s.features());
    t.errors.push_back(pred / s.seconds - 1);
    t.measured += s.seconds;
    t.predicted += pred;
  }
  std::vector<std::string> out;
  for (auto &[key, t] : by_class) {
    std::sort(t.errors.begin(), t.errors.end());
    const size_t n = t.errors.size();
    const double median = n % 2 ? t.errors[n / 2] : (t.errors[n / 2 - 1] + t.errors[n / 2]) / 2;
    char line[200];
    std::snprintf(line, sizeof line,
                  "held out: %s/%s, %zu network layers: median error %+.1f%%, their sum %+.1f%% "
                  "(predicted - measured)",
                  std::string(to_string(OpClass(key.first))).c_str(),
                  std::string(to_string(DType(key.second))).c_str(), n, 100 * median,
                  100 * (t.predicted / t.measured - 1));
    out.push_back(line);
  }
  return out;
}

std::vector<Sample> samples_from_layer_times(const Graph &g, const std::vector<LayerTime> &times,
                                             const std::string &prefix, int threads,
                                             double cache_bytes) {
  std::vector<Sample> out;
  // Timed inside passes of the CPU executor: each layer's inputs are as far out as the layers
  // before left them, and partly in the cache of the core that wrote them.
  const std::vector<LayerCost> costs = graph_cost(g, Pass::fwd);
  const GraphSchedule schedule = cpu_eigen::schedule_for(g, costs, threads, cache_bytes, true);
  for (const LayerTime &t : times) {
    const auto it = std::find_if(g.layers.begin(), g.layers.end(),
                                 [&](const Layer &l) { return l.name == t.name; });
    if (it == g.layers.end() || !(t.seconds > 0))
      continue;
    const LayerSchedule &at = schedule.layers[size_t(it - g.layers.begin())];
    Sample s = sample_from_layer(g, *it, KernelPart::fwd, t.seconds, prefix + g.name + ":" + t.name,
                                 at.reuse_bytes, at.cross_core_bytes, schedule.weights_cached);
    if (s.flops > 0 || s.bytes > 0) // views (flatten, reshape) move nothing
      out.push_back(std::move(s));
  }
  return out;
}

std::vector<Sample> recount_network_samples(const std::vector<Sample> &samples, int threads,
                                            double cache_bytes) {
  const std::string prefix = "network:";
  std::map<std::string, Sample> recounted; // by source
  for (const Graph &g : calibration_networks()) {
    std::vector<LayerTime> times;
    for (const Sample &s : samples)
      if (s.source.rfind(prefix + g.name + ":", 0) == 0)
        times.push_back({s.source.substr(prefix.size() + g.name.size() + 1), s.seconds});
    for (Sample &s : samples_from_layer_times(g, times, prefix, threads, cache_bytes))
      recounted[s.source] = std::move(s);
  }
  std::vector<Sample> out;
  for (const Sample &s : samples) {
    if (s.source.rfind(prefix, 0) != 0) {
      out.push_back(s);
      continue;
    }
    const auto it = recounted.find(s.source);
    if (it == recounted.end())
      throw InputError(SourceLoc{s.source, 0, 0}, "no layer of this build's calibration "
                                                  "networks has this name: its sample cannot "
                                                  "be recounted");
    out.push_back(it->second);
  }
  return out;
}

} // namespace perfmodel::calibrate
