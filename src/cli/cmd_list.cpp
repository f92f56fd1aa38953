// `perfmodel list hw|models|ops`: what is shipped, and the op vocabulary with counting rules.
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "perfmodel/io/host_hw.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/resources.hpp"
#include "perfmodel/onnx/load_model.hpp"
#include "perfmodel/ops.hpp"
#include "perfmodel/report/text_table.hpp"
#include "perfmodel/report/json_text.hpp"

namespace perfmodel::cli {

namespace {

struct ListArgs {
  std::string what;
  std::string model; // list ops: the ops one model uses
  OutputOptions out;
};

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

Table list_table(const ListArgs &a) {
  Table t;
  if (a.what == "hw") {
    // "cpu": the CPU a CPU spec was measured on; "(this CPU)" marks the spec calibrate and
    // measure default to here (io::hw_for_cpu).
    // "folder": where the name was found (docs/lookup.md), the first of the search order.
    t.header = {"name", "kind", "cpu", "description", "folder"};
    const auto here = io::this_cpu_id();
    for (const auto &r : io::find_resources("hw_specs", {".yaml", ".yml"})) {
      const HwSpec hw = io::read_hw_yaml(r.path);
      const std::string cpu =
          !hw.cpu_id ? "" : io::describe(*hw.cpu_id) + (hw.cpu_id == here ? " (this CPU)" : "");
      t.rows.push_back({r.name, hw.kind, cpu, hw.description, r.folder});
    }
  } else if (a.what == "models") {
    t.header = {"name", "file"};
    for (const auto &r : io::find_resources("models", {".yaml", ".yml", ".onnx"}))
      t.rows.push_back({r.name, r.path});
  } else if (!a.model.empty()) {
    const Graph g = io::load_model(a.model, {});
    std::map<std::string, std::pair<int, const Layer *>> used;
    for (const auto &l : g.layers) {
      auto &e = used[l.op_name];
      if (!e.second)
        e.second = &l;
      e.first++;
    }
    t.header = {"op", "layers", "kind", "rule"};
    for (const auto &[name, e] : used) {
      const Layer &l = *e.second;
      const std::string fn = l.attrs.get_string("function", "");
      std::string rule;
      for (const auto &info : op_registry())
        if (info.kind == l.op && info.function == fn) {
          rule = std::string(info.rule);
          break;
        }
      t.rows.push_back({name, std::to_string(e.first), std::string(to_string(l.op)), rule});
    }
  } else {
    t.header = {"op", "kind", "rule"};
    for (const auto &info : op_registry())
      t.rows.push_back(
          {std::string(info.name), std::string(to_string(info.kind)), std::string(info.rule)});
  }
  return t;
}

std::string render(const Table &t, report::Format f) {
  std::ostringstream s;
  switch (f) {
  case report::Format::table: {
    report::TextTable tt(t.header);
    for (const auto &r : t.rows)
      tt.add(r);
    return tt.str();
  }
  case report::Format::csv:
    for (size_t i = 0; i < t.header.size(); ++i)
      s << (i ? "," : "") << t.header[i];
    s << "\n";
    for (const auto &r : t.rows) {
      for (size_t i = 0; i < r.size(); ++i)
        s << (i ? "," : "") << report::csv_field(r[i]);
      s << "\n";
    }
    return s.str();
  case report::Format::md:
    return report::md_table(t.header, t.rows);
  case report::Format::json: {
    nlohmann::ordered_json j;
    j["schema"] = "perfmodel.list/1";
    j["items"] = nlohmann::ordered_json::array();
    for (const auto &r : t.rows) {
      nlohmann::ordered_json item;
      for (size_t i = 0; i < t.header.size(); ++i)
        item[t.header[i]] = r[i];
      j["items"].push_back(item);
    }
    return perfmodel::report::json_text(j);
  }
  }
  return "";
}

} // namespace

void register_list(CLI::App &app, Runner &run) {
  auto a = std::make_shared<ListArgs>();
  CLI::App *cmd = app.add_subcommand("list", "List shipped hardware, models, or the known ops");
  cmd->footer(
      "Examples:\n  perfmodel list hw\n  perfmodel list models\n  perfmodel list ops\n"
      "  perfmodel list ops --model resnet50.onnx   (the ops one model uses, with their rules)");
  cmd->add_option("what", a->what, "hw, models or ops")
      ->required()
      ->transform(one_of("what", {{"hw"}, {"models"}, {"ops"}}));
  cmd->add_option("--model,-m", a->model, "With `ops`: list the ops this model uses");
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] {
    run = [a] {
      emit(a->out, render(list_table(*a), output_format(a->out)));
      return 0;
    };
  });
}

} // namespace perfmodel::cli
