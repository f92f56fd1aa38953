// perfmodel._perfmodel: the Python module's native part. Each function turns its arguments into
// a call of the library the CLI uses (perfmodel/app/commands.hpp, report views) and returns the
// CLI's `--format json` text for the same arguments; python/perfmodel/ wraps the text in result
// objects. The GIL is released while the library computes (arguments are converted to C++
// values first); bad input raises perfmodel.InputError (a ValueError) with the CLI's one line,
// failures perfmodel.RuntimeFailure (a RuntimeError).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfmodel/app/commands.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/extrapolation.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/resources.hpp"
#include "perfmodel/name_choice.hpp"
#include "perfmodel/onnx/load_model.hpp"
#include "perfmodel/printable.hpp"
#include "perfmodel/report/hw_view.hpp"
#include "perfmodel/report/kernels_view.hpp"
#include "perfmodel/report/llm_sweep_view.hpp"
#include "perfmodel/report/sweep_view.hpp"

namespace py = pybind11;
using namespace perfmodel;

namespace {

/// A hardware argument: a path or shipped name, or (text set) the hardware YAML's fields as
/// YAML/JSON text that `spec` names in messages.
struct HwArg {
  std::string spec;
  std::optional<std::string> text;
};

HwSpec load_hw_arg(const HwArg &a) {
  return a.text ? io::parse_hw_yaml(*a.text, a.spec) : io::load_hw(a.spec);
}

/// A model argument: a path or shipped name, or ONNX bytes that `spec` names in messages.
struct ModelArg {
  std::string spec;
  const uint8_t *data = nullptr; // ONNX bytes (owned by the Python bytes object held meanwhile)
  size_t size = 0;
};

ModelArg model_arg(const std::string &spec, const std::optional<py::bytes> &bytes) {
  ModelArg m{spec, nullptr, 0};
  if (bytes) {
    char *p = nullptr;
    Py_ssize_t n = 0;
    if (PyBytes_AsStringAndSize(bytes->ptr(), &p, &n) != 0)
      throw py::error_already_set();
    m.data = reinterpret_cast<const uint8_t *>(p);
    m.size = static_cast<size_t>(n);
  }
  return m;
}

Graph load_model_arg(const ModelArg &m, const io::ModelLoadOptions &o) {
  return m.data ? io::load_onnx_bytes(m.data, m.size, m.spec, o) : io::load_model(m.spec, o);
}

/// A name among `choices` (any case, aliases), or an InputError that names the argument.
std::string choice(const std::vector<NameChoice> &choices, const std::string &what,
                   const std::string &argument, const std::string &typed) {
  const auto name = canonical_name(choices, typed);
  if (!name)
    throw InputError(argument + ": " + unknown_name_message(what, choices, typed));
  return *name;
}

DType dtype_arg(const std::string &argument, const std::string &typed) {
  return *parse_dtype(choice(dtype_choices(), "data type", argument, typed));
}

Pass pass_arg(const std::string &typed) {
  return *parse_pass(choice(pass_choices(), "pass", "pass_", typed));
}

Layout layout_arg(const std::string &typed) {
  return *parse_layout(choice(layout_choices(), "layout", "layout", typed));
}

Fusion fusion_arg(const std::string &typed) {
  const auto f = parse_fusion(typed);
  if (!f)
    throw InputError("fusion: unknown fusion '" + typed + "' (none or inference)");
  return *f;
}

io::ModelLoadOptions load_options(std::optional<int64_t> batch, const std::string &dtype,
                                  const std::map<std::string, int64_t> &dims) {
  io::ModelLoadOptions o;
  if (batch && *batch < 1)
    throw InputError("batch: must be at least 1, got " + std::to_string(*batch));
  o.batch = batch;
  if (!dtype.empty())
    o.dtype = dtype_arg("dtype", dtype);
  for (const auto &[name, value] : dims) {
    if (value < 1)
      throw InputError("dims: " + name + " must be at least 1, got " + std::to_string(value));
    o.dims[name] = value;
  }
  return o;
}

/// The JSON text and the calibration's extrapolation warnings (one line per class).
using JsonAndWarnings = std::pair<std::string, std::vector<std::string>>;

struct PredictArgs {
  ModelArg model;
  HwArg hw;
  std::optional<int64_t> batch;
  std::string dtype, pass, fusion, calibration;
  bool calibration_other_hardware = false;
  std::optional<double> power, runtime;
  std::map<std::string, int64_t> dims;
  std::string layout;
};

// As `perfmodel predict --format json`: the hardware, then the pass and fusion, then the model.
JsonAndWarnings run_predict(const PredictArgs &a) {
  const HwSpec hw = load_hw_arg(a.hw);
  app::PredictRequest r;
  r.pass = pass_arg(a.pass);
  r.fusion = fusion_arg(a.fusion);
  Graph g = load_model_arg(a.model, load_options(a.batch, a.dtype, a.dims));
  g.layout = layout_arg(a.layout);
  if (a.power && !(*a.power > 0))
    throw InputError("power: must be greater than 0");
  if (a.runtime && !(*a.runtime > 0))
    throw InputError("runtime: must be greater than 0");
  r.power_watts = a.power;
  r.runtime_seconds = a.runtime;
  r.calibration = a.calibration;
  r.calibration_other_hardware = a.calibration_other_hardware;
  app::Rendered out = app::predict(std::move(g), hw, r, report::Format::json, {});
  return {std::move(out.text), extrapolation_warnings(out.extrapolated)};
}

// As `perfmodel report -o FILE`: the HTML page (written atomically to `output` when given),
// the extrapolation warnings and the measured names that match no layer.
struct ReportResult {
  std::string html;
  std::vector<std::string> warnings;
  std::vector<std::string> unmatched;
};
ReportResult py_report(const std::string &model, const std::optional<py::bytes> &model_bytes,
                       const HwArg &hw, std::optional<int64_t> batch, const std::string &dtype,
                       const std::string &pass, const std::string &fusion,
                       const std::string &calibration, bool calibration_other_hardware,
                       std::optional<double> power, const std::string &measured,
                       const std::string &trace, int top, int trace_top,
                       const std::string &output) {
  const ModelArg m = model_arg(model, model_bytes);
  py::gil_scoped_release unlocked;
  const HwSpec h = load_hw_arg(hw);
  app::PredictRequest r;
  r.pass = pass_arg(pass);
  r.fusion = fusion_arg(fusion);
  if (power && !(*power > 0))
    throw InputError("power: must be greater than 0");
  if (top < 0 || trace_top < 0)
    throw InputError(std::string(top < 0 ? "top" : "trace_top") + ": must be at least 0");
  r.power_watts = power;
  r.calibration = calibration;
  r.calibration_other_hardware = calibration_other_hardware;
  app::ReportPage page = app::report(load_model_arg(m, load_options(batch, dtype, {})), h, r,
                                     app::ReportRequest{measured, trace, top, trace_top});
  if (!output.empty())
    io::write_file_atomic(output, page.html);
  return {std::move(page.html), extrapolation_warnings(page.extrapolated),
          std::move(page.unmatched_measurements)};
}

JsonAndWarnings py_predict(const std::string &model, const std::optional<py::bytes> &model_bytes,
                           const HwArg &hw, std::optional<int64_t> batch, const std::string &dtype,
                           const std::string &pass, const std::string &fusion,
                           const std::string &calibration, bool calibration_other_hardware,
                           std::optional<double> power, std::optional<double> runtime,
                           const std::map<std::string, int64_t> &dims, const std::string &layout) {
  const PredictArgs a{
      model_arg(model, model_bytes), hw,    batch,   dtype, pass,  fusion, calibration,
      calibration_other_hardware,    power, runtime, dims,  layout};
  py::gil_scoped_release unlocked;
  return run_predict(a);
}

JsonAndWarnings py_sweep(const std::string &model, const std::optional<py::bytes> &model_bytes,
                         const std::vector<HwArg> &hw, const std::vector<int64_t> &batches,
                         const std::vector<std::string> &dtypes,
                         const std::vector<std::string> &passes, const std::string &fusion,
                         const std::string &calibration, bool calibration_other_hardware,
                         const std::string &sort, const std::map<std::string, int64_t> &dims) {
  const ModelArg m = model_arg(model, model_bytes);
  py::gil_scoped_release unlocked;
  app::check_sweep_sort(sort);
  app::SweepRequest r;
  for (const HwArg &h : hw)
    r.spec.hardware.push_back(load_hw_arg(h));
  for (int64_t b : batches)
    if (b < 1)
      throw InputError("batch: must be at least 1, got " + std::to_string(b));
  r.spec.batches = batches;
  for (const std::string &d : dtypes)
    r.spec.dtypes.push_back(dtype_arg("dtype", d));
  r.spec.passes.clear();
  for (const std::string &p : passes)
    r.spec.passes.push_back(pass_arg(p));
  r.spec.fusion = fusion_arg(fusion);
  r.calibration = calibration;
  r.calibration_other_hardware = calibration_other_hardware;
  r.sort = sort;
  if (!calibration.empty() && r.spec.hardware.size() != 1)
    throw InputError("--calibration fits one device: give exactly one --hw with it");
  const Graph g = load_model_arg(m, load_options(std::nullopt, "", dims));
  const app::SweepRun run = app::sweep(g, std::move(r));
  return {report::render_sweep(run.shown(), report::Format::json),
          extrapolation_warnings(run.result.extrapolated)};
}

std::string py_trace(const std::string &file, const std::optional<HwArg> &hw,
                     const std::string &calibration, const std::optional<HwArg> &predict_on,
                     const std::string &target_calibration, bool calibration_other_hardware,
                     const std::string &view, const std::string &sort, int top) {
  py::gil_scoped_release unlocked;
  app::TraceRequest r;
  r.file = file;
  if (hw)
    r.hw_spec = load_hw_arg(*hw);
  r.calibration = calibration;
  if (predict_on)
    r.predict_on_spec = load_hw_arg(*predict_on);
  r.target_calibration = target_calibration;
  r.calibration_other_hardware = calibration_other_hardware;
  r.view = choice(
      {{"overview"}, {"operators"}, {"kernels"}, {"attainment", {"efficiency"}}, {"all"}, {"none"}},
      "view", "view", view);
  r.sort = sort;
  if (top < 0)
    throw InputError("top: must be at least 0, got " + std::to_string(top));
  r.top = top;
  return report::render_trace(app::trace(r), report::Format::json);
}

std::string py_kernels(const std::string &input, const HwArg &hw, const std::string &calibration,
                       bool calibration_other_hardware) {
  py::gil_scoped_release unlocked;
  const HwSpec spec = load_hw_arg(hw);
  return report::render_kernels(app::kernels(spec, calibration, calibration_other_hardware, input),
                                report::Format::json);
}

std::string py_llm(const std::string &model, const HwArg &hw, int64_t batch, int64_t prompt,
                   int64_t generate, const std::string &dtype, const std::string &kv_dtype,
                   const std::string &attention, const std::string &calibration,
                   bool calibration_other_hardware, bool per_layer) {
  py::gil_scoped_release unlocked;
  const HwSpec spec = load_hw_arg(hw);
  llm::ServeOptions o;
  o.batch = batch;
  o.prompt = prompt;
  o.generate = generate;
  o.dtype = dtype_arg("dtype", dtype);
  if (!kv_dtype.empty())
    o.kv_dtype = dtype_arg("kv_dtype", kv_dtype);
  o.attention = choice({{"flash"}, {"eager"}}, "attention", "attention", attention) == "eager"
                    ? llm::Attention::eager
                    : llm::Attention::flash;
  return app::llm(model, spec, o, calibration, calibration_other_hardware, report::Format::json,
                  per_layer);
}

// `sweep` of a language model: the axes as lists (values below 1 refused, but the batch's:
// skipped points, as on the command line).
std::string py_llm_sweep(const std::string &model, const std::vector<HwArg> &hw,
                         const std::vector<int64_t> &batches, const std::vector<int64_t> &prompts,
                         const std::vector<int64_t> &generates, const std::vector<int64_t> &tps,
                         const std::vector<int64_t> &pps, const std::vector<int64_t> &gpus,
                         const std::vector<std::string> &dtypes, const std::string &kv_dtype,
                         const std::string &attention, const std::string &calibration,
                         bool calibration_other_hardware, const std::string &comm_calibration,
                         const std::string &sort) {
  py::gil_scoped_release unlocked;
  app::LlmSweepRequest r;
  r.model = model;
  for (const HwArg &h : hw)
    r.spec.hardware.push_back(load_hw_arg(h));
  r.spec.batches = batches;
  for (auto [name, axis] : {std::pair{"prompt", &prompts},
                            {"generate", &generates},
                            {"tp", &tps},
                            {"pp", &pps},
                            {"gpus", &gpus}})
    for (int64_t v : *axis)
      if (v < 1)
        throw InputError(std::string(name) + ": must be at least 1, got " + std::to_string(v));
  r.spec.prompts = prompts;
  r.spec.generates = generates;
  r.spec.tps = tps;
  r.spec.pps = pps;
  r.spec.gpus = gpus;
  if (!dtypes.empty()) {
    r.spec.dtypes.clear();
    for (const std::string &d : dtypes)
      r.spec.dtypes.push_back(dtype_arg("dtype", d));
  }
  if (!kv_dtype.empty())
    r.spec.serve.kv_dtype = dtype_arg("kv_dtype", kv_dtype);
  r.spec.serve.attention =
      choice({{"flash"}, {"eager"}}, "attention", "attention", attention) == "eager"
          ? llm::Attention::eager
          : llm::Attention::flash;
  r.calibration = calibration;
  r.calibration_other_hardware = calibration_other_hardware;
  r.comm_calibration = comm_calibration;
  r.sort = sort;
  return report::render_llm_sweep(app::llm_sweep(std::move(r)).shown(), report::Format::json);
}

std::string py_hardware(const HwArg &hw) {
  py::gil_scoped_release unlocked;
  return report::render_hw(load_hw_arg(hw), report::Format::json);
}

std::string py_list(const std::string &what, const std::string &model) {
  py::gil_scoped_release unlocked;
  return app::list(what, model, report::Format::json);
}

/// Seconds per call of the C++ predict that predict() runs (model and hardware loaded, the
/// prediction rendered as JSON), over `calls` calls: the benchmark's baseline
/// (scripts/bench_python.py) for the cost the Python layer adds.
double time_predict_call(const std::string &model, const std::string &hw, int calls) {
  PredictArgs a{ModelArg{model, nullptr, 0},
                HwArg{hw, std::nullopt},
                std::nullopt,
                "",
                "fwd",
                "none",
                "",
                false,
                std::nullopt,
                std::nullopt,
                {}};
  py::gil_scoped_release unlocked;
  const auto start = std::chrono::steady_clock::now();
  size_t sink = 0;
  for (int i = 0; i < calls; ++i)
    sink += run_predict(a).first.size();
  const std::chrono::duration<double> d = std::chrono::steady_clock::now() - start;
  return sink ? d.count() / calls : 0.0;
}

} // namespace

PYBIND11_MODULE(_perfmodel, m) {
  m.doc() = "perfmodel's native part: the library the CLI uses; see the perfmodel package.";
  // The messages are escaped as the CLI prints them (perfmodel::printable: control bytes and
  // bytes that are not UTF-8 as escapes), so a message always decodes and stays one line.
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  static py::exception<RuntimeFailure> runtime_failure(m, "RuntimeFailure", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const InputError &e) {
      PyErr_SetString(input_error.ptr(), printable(e.what()).c_str());
    } catch (const RuntimeFailure &e) {
      PyErr_SetString(runtime_failure.ptr(), printable(e.what()).c_str());
    }
  });

  py::class_<HwArg>(m, "HwArg")
      .def(py::init([](std::string spec, std::optional<std::string> text) {
             return HwArg{std::move(spec), std::move(text)};
           }),
           py::arg("spec"), py::arg("text") = std::nullopt);

  m.def("predict", &py_predict, py::arg("model"), py::arg("model_bytes"), py::arg("hw"),
        py::arg("batch"), py::arg("dtype"), py::arg("pass_"), py::arg("fusion"),
        py::arg("calibration"), py::arg("calibration_other_hardware"), py::arg("power"),
        py::arg("runtime"), py::arg("dims"), py::arg("layout"));
  m.def(
      "report",
      [](const std::string &model, const std::optional<py::bytes> &model_bytes, const HwArg &hw,
         std::optional<int64_t> batch, const std::string &dtype, const std::string &pass,
         const std::string &fusion, const std::string &calibration,
         bool calibration_other_hardware, std::optional<double> power,
         const std::string &measured, const std::string &trace, int top, int trace_top,
         const std::string &output) {
        ReportResult r = py_report(model, model_bytes, hw, batch, dtype, pass, fusion,
                                   calibration, calibration_other_hardware, power, measured,
                                   trace, top, trace_top, output);
        return py::make_tuple(std::move(r.html), std::move(r.warnings), std::move(r.unmatched));
      },
      py::arg("model"), py::arg("model_bytes"), py::arg("hw"), py::arg("batch"),
      py::arg("dtype"), py::arg("pass_"), py::arg("fusion"), py::arg("calibration"),
      py::arg("calibration_other_hardware"), py::arg("power"), py::arg("measured"),
      py::arg("trace"), py::arg("top"), py::arg("trace_top"), py::arg("output"));
  m.def("sweep", &py_sweep, py::arg("model"), py::arg("model_bytes"), py::arg("hw"),
        py::arg("batches"), py::arg("dtypes"), py::arg("passes"), py::arg("fusion"),
        py::arg("calibration"), py::arg("calibration_other_hardware"), py::arg("sort"),
        py::arg("dims"));
  m.def("trace", &py_trace, py::arg("file"), py::arg("hw"), py::arg("calibration"),
        py::arg("predict_on"), py::arg("target_calibration"), py::arg("calibration_other_hardware"),
        py::arg("view"), py::arg("sort"), py::arg("top"));
  m.def("kernels", &py_kernels, py::arg("input"), py::arg("hw"), py::arg("calibration"),
        py::arg("calibration_other_hardware"));
  m.def("llm", &py_llm, py::arg("model"), py::arg("hw"), py::arg("batch"), py::arg("prompt"),
        py::arg("generate"), py::arg("dtype"), py::arg("kv_dtype"), py::arg("attention"),
        py::arg("calibration"), py::arg("calibration_other_hardware"), py::arg("per_layer"));
  m.def("llm_sweep", &py_llm_sweep, py::arg("model"), py::arg("hw"), py::arg("batches"),
        py::arg("prompts"), py::arg("generates"), py::arg("tps"), py::arg("pps"), py::arg("gpus"),
        py::arg("dtypes"), py::arg("kv_dtype"), py::arg("attention"), py::arg("calibration"),
        py::arg("calibration_other_hardware"), py::arg("comm_calibration"), py::arg("sort"));
  m.def("hardware", &py_hardware, py::arg("hw"));
  m.def("list", &py_list, py::arg("what"), py::arg("model") = "");
  m.def("set_share_root", &io::set_share_root, py::arg("root"));
  m.def("time_predict_call", &time_predict_call, py::arg("model"), py::arg("hw"), py::arg("calls"));
  m.attr("version") = PERFMODEL_VERSION;
}
