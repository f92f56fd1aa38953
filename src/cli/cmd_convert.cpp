// `perfmodel convert --model x.onnx -o x.yaml`: writes a model (ONNX or YAML) in the model YAML
// format (weights dropped; shapes, attributes and params kept) plus a conversion summary.
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.hpp"
#include "perfmodel/cost.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/resources.hpp"
#include "perfmodel/onnx/load_model.hpp"
#include "perfmodel/onnx/onnx_import.hpp"
#include "perfmodel/report/json_text.hpp"

namespace perfmodel::cli {

namespace {

struct Summary {
  std::string model;
  size_t layers = 0;
  int64_t params = 0, macs = 0, flops = 0;
  std::vector<std::string> unmapped, not_portable;
  std::string batch_fixed; // why no layer follows --batch ("" when they can)
};

std::string join(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v)
    s += (s.empty() ? "" : "; ") + x;
  return s;
}

std::string render(const Summary &s, report::Format f) {
  std::ostringstream o;
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"model", s.model},
      {"layers", std::to_string(s.layers)},
      {"params", std::to_string(s.params)},
      {"macs (fwd)", std::to_string(s.macs)},
      {"flops (fwd)", std::to_string(s.flops)},
      {"ops without a rule", join(s.unmapped)},
      {"layers fixed to this batch",
       s.batch_fixed.empty() ? join(s.not_portable) : "all: " + s.batch_fixed}};
  switch (f) {
  case report::Format::json: {
    nlohmann::json j = {{"schema", "perfmodel.convert/1"},
                        {"model", s.model},
                        {"layers", s.layers},
                        {"params", s.params},
                        {"macs", s.macs},
                        {"flops", s.flops},
                        {"unmapped_ops", s.unmapped},
                        {"not_portable_layers", s.not_portable},
                        {"batch_fixed", s.batch_fixed}};
    return perfmodel::report::json_text(j);
  }
  case report::Format::csv:
    o << "field,value\n";
    for (const auto &[k, v] : rows)
      o << report::csv_field(k) << ',' << report::csv_field(v) << '\n';
    return o.str();
  case report::Format::md:
    o << "| field | value |\n|---|---|\n";
    for (const auto &[k, v] : rows)
      o << "| " << report::md_cell(k) << " | " << report::md_cell(v) << " |\n";
    return o.str();
  case report::Format::table:
    for (const auto &[k, v] : rows) {
      o << k << std::string(28 - k.size(), ' ') << (v.empty() ? "-" : v) << '\n';
    }
    return o.str();
  }
  return o.str();
}

} // namespace

void register_convert(CLI::App &app, Runner &run) {
  struct Args {
    ModelOptions model;
    OutputOptions out;
  };
  auto a = std::make_shared<Args>();
  CLI::App *cmd = app.add_subcommand(
      "convert", "Convert a model (ONNX or YAML) to the model YAML format (weights dropped)");
  cmd->footer(
      "The YAML goes to -o FILE (stdout without -o); with -o a summary (layers, params, MACs,\n"
      "ops counted without a rule) is printed in --format. Reshape targets that scale with the\n"
      "batch are written with -1, so the YAML reloads at any --batch; in a fixed-batch ONNX\n"
      "export the targets whose leading dim is the batch follow it too (docs/onnx.md).\n"
      "Example:\n  perfmodel convert --model /tmp/resnet50.onnx -o models/resnet50.yaml");
  add_model_options(cmd, a->model);
  add_output_options(cmd, a->out, /*output_is_formatted=*/false); // -o takes the YAML
  cmd->callback([a, &run] {
    run = [a] {
      const io::ModelLoadOptions lo = load_options(a->model);
      const std::string path = io::resolve_resource(a->model.model, "models", {".yaml", ".onnx"});
      Summary s;
      s.model = path;
      Graph g;
      if (path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0) {
        io::OnnxImportOptions io_opts;
        io_opts.batch_portable = true;
        io::OnnxImportReport rep;
        g = io::import_onnx(path, lo, io_opts, &rep);
        s.unmapped = rep.unmapped;
        s.not_portable = rep.not_portable;
        s.batch_fixed = rep.batch_fixed;
        if (!s.batch_fixed.empty())
          std::fprintf(stderr, "%s: warning: the converted model holds batch %lld only: %s\n",
                       path.c_str(), static_cast<long long>(g.batch()), s.batch_fixed.c_str());
      } else {
        g = io::load_model(path, lo);
      }
      const std::string yaml = io::write_model_yaml(g);
      if (a->out.output.empty() || a->out.output == "-") {
        emit(a->out, yaml);
        return 0;
      }
      io::write_file_atomic(a->out.output, yaml, /*may_replace_input=*/true);
      s.layers = g.layers.size();
      s.params = g.param_count();
      for (const auto &c : graph_cost(g, Pass::fwd)) {
        s.macs += c.fwd.macs;
        s.flops += c.fwd.flops;
      }
      const std::string text = render(s, output_format(a->out));
      std::fwrite(text.data(), 1, text.size(), stdout);
      return 0;
    };
  });
}

} // namespace perfmodel::cli
