// A roofline of several passes (a language model's prefill and decode step): the points of
// each tagged with its phase, the ceilings either uses, the data's phase column and the plot's
// marker shapes.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/llm/config.hpp"
#include "perfmodel/llm/graph.hpp"
#include "perfmodel/report/plot/roofline_plot.hpp"
#include "perfmodel/report/roofline_view.hpp"

using namespace perfmodel;

namespace {

// The tiny Llama's prefill of 16 tokens and decode step at KV 32, batch 2, on an H100 (the
// graphs stay alive: the predictions point into them).
struct Passes {
  llm::LlmConfig c = llm::read_llm_config(PERFMODEL_TEST_DATA "/llm/tiny-llama.json");
  HwSpec hw = io::load_hw("h100");
  llm::PassShape ps{llm::Phase::prefill, 2, 16, 0}, ds{llm::Phase::decode, 2, 1, 32};
  Graph pg = llm::build_graph(c, ps, DType::fp16), dg = llm::build_graph(c, ds, DType::fp16);
  Prediction pp = predict(pg, hw, {}, llm::pass_costs(pg, c, ps, llm::Attention::flash));
  Prediction dp = predict(dg, hw, {}, llm::pass_costs(dg, c, ds, llm::Attention::flash));
  report::RooflineData data() const {
    return report::make_phase_roofline({{{"prefill", 16, 0, 0}, &pp}, {{"decode", 1, 32, 0}, &dp}},
                                       hw);
  }
};

} // namespace

TEST_CASE("roofline of phases: each pass's layers in order, tagged; times summed") {
  const Passes p;
  const report::RooflineData d = p.data();
  REQUIRE(d.points.size() == p.pp.layers.size() + p.dp.layers.size());
  CHECK(d.points.front().phase == "prefill");
  CHECK(d.points.back().phase == "decode");
  CHECK(d.points[p.pp.layers.size()].phase == "decode");
  CHECK(d.points[p.pp.layers.size()].name == p.dp.layers.front().layer->name);
  REQUIRE(d.phases.size() == 2);
  CHECK(d.phases[0].seconds == doctest::Approx(p.pp.totals.predicted_seconds));
  CHECK(d.phases[1].context == 32);
  CHECK(d.total_seconds ==
        doctest::Approx(p.pp.totals.predicted_seconds + p.dp.totals.predicted_seconds));
  const std::string title = d.title();
  CHECK(title.substr(title.find(" on ")) ==
        " on h100, batch 2, fp16, prefill 16 + decode at KV 32");
  // the decode step's linear layers read the weights for 2 tokens: far lower AI than prefill's
  const auto ai = [&](const std::string &phase) {
    for (const auto &pt : d.points)
      if (pt.phase == phase && pt.name == "layers.0.mlp.up_proj")
        return pt.arithmetic_intensity;
    return 0.0;
  };
  CHECK(ai("decode") > 0);
  CHECK(ai("prefill") > 4 * ai("decode"));
  // a ridge per used ceiling and memory level, as for one pass
  size_t used = 0;
  for (const auto &ce : d.ceilings)
    used += ce.selected ? 1 : 0;
  CHECK(d.ridges.size() == used * d.diagonals.size());
}

TEST_CASE("roofline of phases: the data leads with the phase; one graph's has none") {
  const Passes p;
  const report::RooflineData d = p.data();
  const auto j = nlohmann::json::parse(report::render_roofline(d, report::Format::json));
  CHECK(j["schema"] == "perfmodel.roofline/1");
  REQUIRE(j["phases"].size() == 2);
  CHECK(j["phases"][1]["phase"] == "decode");
  CHECK(j["phases"][1]["context"] == 32);
  CHECK(j["layers"][0]["phase"] == "prefill");
  CHECK(j["layers"].back()["phase"] == "decode");
  const std::string csv = report::render_roofline(d, report::Format::csv);
  CHECK(csv.rfind("phase,layer,", 0) == 0);
  // a single pass's roofline keeps its columns
  const report::RooflineData one = report::make_roofline(p.pp, p.hw);
  const auto j1 = nlohmann::json::parse(report::render_roofline(one, report::Format::json));
  CHECK_FALSE(j1.contains("phases"));
  CHECK_FALSE(j1["layers"][0].contains("phase"));
  CHECK(report::render_roofline(one, report::Format::csv).rfind("layer,", 0) == 0);
}

TEST_CASE("roofline of phases: a marker shape per phase, in the key; labels per phase") {
  const Passes p;
  const report::RooflineData d = p.data();
  report::plot::RooflinePlotOptions o;
  o.label_top = 1;
  const auto ps = report::plot::roofline_plot(d, report::plot::plot_paths("r.svg"),
                                              report::plot::ImageKind::svg, o);
  const std::string &s = ps.script;
  CHECK(s.find("keyentry with points pt 7 ps 1.5 lc rgb '#000000' title 'prefill (16 tokens)'") !=
        std::string::npos);
  CHECK(s.find("keyentry with points pt 5 ps 1.5 lc rgb '#000000' title 'decode (one step at KV "
               "32)'") != std::string::npos);
  CHECK(s.find("with points pt 5 ps variable") != std::string::npos); // decode: squares
  CHECK(s.find("with points pt 7 ps variable") != std::string::npos); // prefill: circles
  CHECK(s.find(" 'prefill layers.") != std::string::npos);            // a label per phase
  CHECK(s.find(" 'decode ") != std::string::npos);
  CHECK(ps.data.find("(decode)") != std::string::npos); // block comments name the phase
}
