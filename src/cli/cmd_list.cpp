// `perfmodel list hw|models|ops`: what is shipped, and the op vocabulary with counting rules.
#include <memory>

#include "cli/arg_checks.hpp"
#include "cli/commands.hpp"
#include "perfmodel/app/commands.hpp"

namespace perfmodel::cli {

namespace {

struct ListArgs {
  std::string what;
  std::string model; // list ops: the ops one model uses
  OutputOptions out;
};

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
      emit(a->out, app::list(a->what, a->model, output_format(a->out)));
      return 0;
    };
  });
}

} // namespace perfmodel::cli
