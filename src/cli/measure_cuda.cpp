// `perfmodel measure --device cuda` (measure_cuda.hpp).
#include "cli/measure_cuda.hpp"

#include <cstdio>

#include "cli/cuda_backend.hpp"
#include "cli/measured_samples.hpp"
#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/calibrate/samples_csv.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/kernels/cpu/timing.hpp"
#include "perfmodel/kernels/gpu_plan/plan_model.hpp"
#include "perfmodel/onnx/load_model.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/measure_view.hpp"

namespace perfmodel::cli {

namespace {

namespace kg = kernels::cuda;
namespace gp = kernels::gpu_plan;

/// NVML's counter is updated every few to 100 ms: the timed passes last at least this long.
constexpr double kMinEnergySeconds = 1.0;

std::string device_str(const kg::DeviceInfo &d) {
  return "cuda: " + d.name + " (" + std::to_string(d.sm_count) + " SMs, compute capability " +
         std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + ")";
}

} // namespace

int run_measure_cuda(const CudaMeasureArgs &a) {
  // Bad input first (exit 2), before the plugin is looked for.
  if (!a.cpu_only_given.empty()) {
    std::string names;
    for (const std::string &n : a.cpu_only_given)
      names += (names.empty() ? "" : ", ") + n;
    throw InputError("measure --device cuda: " + names + " appl" +
                     (a.cpu_only_given.size() > 1 ? "y" : "ies") + " to --device cpu only");
  }
  if (a.model.model.empty())
    throw InputError("measure: --model is required");
  if (a.hw.empty() && !a.plan_only)
    throw InputError("measure --device cuda needs --hw naming the GPU's hardware spec (e.g. --hw "
                     "h100)");
  if (a.calibrations.size() > 1)
    throw InputError("measure --device cuda: one --calibration at most");
  const report::Format fmt = output_format(a.out);
  const auto statistic = parse_time_statistic(a.statistic);
  if (!statistic)
    throw InputError("measure: unknown --statistic '" + a.statistic + "'");
  const Graph g = io::load_model(a.model.model, load_options(a.model));
  const gp::ModelPlan plan = gp::plan_gpu_model(g, {g.dtype, a.channels_last});
  if (a.plan_only) { // the plan alone: no device, no prediction
    emit(a.out, gp::describe_plan(plan));
    return 0;
  }
  if (const auto bad = plan.unsupported(); !bad.empty())
    throw InputError("measure --device cuda: " + std::to_string(bad.size()) + " layer" +
                     (bad.size() > 1 ? "s" : "") +
                     " the GPU executor cannot run (it measures whole models only): " + bad[0] +
                     (bad.size() > 1 ? " (and " + std::to_string(bad.size() - 1) + " more)" : ""));
  const HwSpec hw = io::load_hw(a.hw);
  std::vector<Calibration> cals;
  for (const std::string &c : a.calibrations)
    cals.push_back(io::load_calibration(c));
  PredictOptions po;
  po.calibration = cals.empty() ? nullptr : &cals[0];
  const Prediction p = predict(g, hw, po); // before the run: a model it cannot predict fails fast

  kg::GpuMeasureOptions mo;
  mo.warmup = a.warmup;
  mo.iters = a.iters;
  mo.min_pass_seconds = std::max(a.min_time, kMinEnergySeconds);
  if (!a.quiet)
    mo.progress = [](size_t i, size_t n, const std::string &name) {
      std::fprintf(stderr, "measure [%zu/%zu] %s\n", i + 1, n, name.c_str());
    };
  const kg::GpuModelMeasurement m = cuda_measure_model(plan, mo);

  report::MeasurementRun run;
  run.device = device_str(m.device);
  run.executed_dtype =
      std::string(to_string(plan.dtype)) + (plan.channels_last ? ", channels-last" : "");
  run.threads = m.device.sm_count;
  run.buffers = "distinct";
  run.activation_bytes = 0; // the layers' outputs (the weights and inputs not counted)
  for (const gp::PlanTensor &t : plan.tensors)
    if (t.role == gp::TensorRole::activation && t.alias < 0)
      run.activation_bytes += double(t.storage_elements()) * double(bytes_of(t.dtype));
  run.workspace_bytes = m.workspace_bytes;
  if (!cals.empty())
    run.calibration = a.calibrations[0];
  run.min_layer_seconds = a.min_layer_us * 1e-6;
  run.statistic = *statistic;
  run.noisy_range_fraction = kernels::cpu::kNoisyRangeFraction;
  run.noisy_sd_fraction = kernels::cpu::kNoisySdFraction;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const kg::GpuLayerResult &l = m.layers[i];
    const std::string path = plan.layers[i].path + (l.algorithm.empty() ? "" : ": " + l.algorithm);
    run.layers.push_back({l.name, path, measured_stats(l.time)});
  }
  run.network = measured_stats(m.pass);
  run.timing_note = "replays of the whole pass (" + std::to_string(m.passes_timed) +
                    " passes in all, " + m.pass_how + "); each layer timed alone from " +
                    std::to_string(a.iters) + " CUDA-graph replays";
  if (m.energy_joules && *m.energy_joules > 0)
    run.energy = report::MeasuredEnergy{*m.energy_joules, m.passes_timed, m.energy_seconds,
                                        "NVML total-energy counter"};
  else
    run.energy_unavailable =
        m.energy_joules ? "the NVML energy counter did not advance" : m.nvml_status;
  const report::MeasurementView view = report::make_measurement_view(p, run);
  if (!a.save_samples.empty()) {
    std::vector<calibrate::LayerTime> times;
    for (const kg::GpuLayerResult &l : m.layers)
      times.push_back({l.name, kernels::cpu::pick(*statistic, l.time)});
    io::write_file_atomic(
        a.save_samples,
        calibrate::write_samples_csv(calibrate::samples_from_layer_times(
            g, times, "measure-cuda:", m.device.sm_count, calibrate::cache_bytes_for(hw))));
  }
  emit(a.out, report::render_measurement(view, fmt));
  return 0;
}

} // namespace perfmodel::cli
