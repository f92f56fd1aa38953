// `llm` as a library function (perfmodel/app/commands.hpp).
#include "perfmodel/app/commands.hpp"
#include "perfmodel/io/calibration_for.hpp"
#include "perfmodel/llm/config.hpp"
#include "perfmodel/report/llm_view.hpp"

namespace perfmodel::app {

std::string llm(const std::string &model, const HwSpec &hw, llm::ServeOptions options,
                const std::string &calibration, bool calibration_other_hardware, report::Format f,
                bool per_layer) {
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config(model));
  std::optional<Calibration> cal;
  if (!calibration.empty())
    cal = io::load_calibration_for(calibration, hw, calibration_other_hardware);
  options.calibration = cal ? &*cal : nullptr;
  options.calibration_name = calibration;
  options.layer_tables = per_layer; // else the figures alone (far faster)
  const llm::ServeResult r = llm::serve(c, hw, options);
  return report::render_llm(c, hw, r, f, per_layer);
}

} // namespace perfmodel::app
