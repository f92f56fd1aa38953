// `perfmodel info --hw H`: compute ceilings, memory levels and ridge points of a hardware spec.
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/report/hw_view.hpp"

namespace perfmodel::cli {

void register_info(CLI::App &app, Runner &run) {
  struct Args {
    std::string hw;
    OutputOptions out;
  };
  auto a = std::make_shared<Args>();
  CLI::App *cmd = app.add_subcommand("info", "Show a hardware spec: ceilings and ridge points");
  cmd->footer("Example:\n  perfmodel info --hw a100 --format md");
  cmd->add_option("--hw", a->hw, "Hardware: a .yaml path or a name in hw_specs/")->required();
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] {
    run = [a] {
      const HwSpec hw = io::load_hw(a->hw);
      emit(a->out, report::render_hw(hw, output_format(a->out)));
      return 0;
    };
  });
}

} // namespace perfmodel::cli
