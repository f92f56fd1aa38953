// `sweep` of a language model as a library function (perfmodel/app/commands.hpp).
#include <algorithm>

#include "perfmodel/app/commands.hpp"
#include "perfmodel/io/calibration_for.hpp"
#include "perfmodel/io/comm_calibration_yaml.hpp"
#include "perfmodel/llm/config.hpp"
#include "perfmodel/report/llm_sweep_view.hpp"

namespace perfmodel::app {

void check_llm_sweep_sort(const std::string &key) {
  const std::vector<std::string> keys = report::llm_sweep_sort_keys();
  if (key.empty() || std::find(keys.begin(), keys.end(), key) != keys.end())
    return;
  std::string list;
  for (const std::string &k : keys)
    list += (list.empty() ? "" : ", ") + k;
  throw InputError("--sort '" + key + "' is not a sort key of a language model's sweep (" + list +
                   ")");
}

LlmSweepRun llm_sweep(LlmSweepRequest r) {
  check_llm_sweep_sort(r.sort);
  if (!r.calibration.empty() && r.spec.hardware.size() != 1)
    throw InputError("--calibration fits one device: give exactly one --hw with it");
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config(r.model));
  std::optional<Calibration> cal;
  if (!r.calibration.empty()) {
    cal = io::load_calibration_for(r.calibration, r.spec.hardware[0], r.calibration_other_hardware);
    r.spec.serve.calibration = &*cal;
    r.spec.serve.calibration_name = r.calibration;
  }
  std::optional<CommCalibration> comm;
  if (!r.comm_calibration.empty()) {
    comm = io::read_comm_calibration_yaml(r.comm_calibration);
    for (const HwSpec &hw : r.spec.hardware)
      if (comm->hw != hw.name)
        throw InputError("--comm-calibration " + r.comm_calibration + " was fitted on '" +
                         comm->hw + "', not on --hw " + hw.name);
    r.spec.comm = &*comm;
  }
  LlmSweepRun run;
  run.result = llm::run_llm_sweep(c, r.spec);
  run.result.options.calibration = nullptr; // (the calibration dies here; the views ask whether)
  run.result.options.calibration_name = r.calibration;
  if (!r.sort.empty() && r.keep_axes_order)
    run.sorted = run.result;
  if (!r.sort.empty())
    report::sort_llm_sweep(run.sorted ? *run.sorted : run.result, r.sort);
  return run;
}

} // namespace perfmodel::app
