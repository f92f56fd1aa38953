// Tests of the sweep view's four renderings (CSV exactly, JSON by schema, table and Markdown).
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "perfmodel/report/sweep_view.hpp"

using namespace perfmodel;

namespace {

SweepResult two_points() {
  SweepResult r;
  r.model = "net, \"v2\"";
  SweepPoint a;
  a.hw = "a100";
  a.dtype = DType::fp16;
  a.batch = 8;
  a.latency_seconds = 0.002;
  a.throughput_samples_per_second = 4000;
  a.flops = 8000000000;
  a.bytes = 100000000;
  a.flops_per_second = 4e12;
  a.arithmetic_intensity = 80;
  a.share_compute_bound = 0.75;
  a.share_memory_bound = 0.25;
  a.energy_joules = 0.5;
  a.energy_per_sample_joules = 0.0625;
  a.samples_per_joule = 16;
  a.average_power_watts = 250;
  a.flops_per_second_per_watt = 16e9;
  a.weights_bytes = 50000000;
  a.activation_bytes = 25000000;
  a.memory_bytes = 75000000;
  a.memory_capacity_bytes = 40e9;
  a.fits_in_memory = true;
  SweepPoint b;
  b.hw = "v100";
  b.dtype = DType::fp8;
  b.batch = 8;
  b.pass = Pass::train;
  b.skipped = "hardware 'v100' has no compute unit for fp8";
  r.points = {a, b};
  return r;
}

} // namespace

TEST_CASE("sweep CSV: raw SI numbers, units in the header, RFC 4180 quoting, skip column") {
  std::string csv = report::render_sweep_csv(two_points());
  CHECK(csv == "hw,dtype,batch,pass,latency (s),throughput (samples/s),flops (FLOP),bytes (B),"
               "flop rate (FLOP/s),arithmetic intensity (FLOP/B),compute-bound share,"
               "memory-bound share,overhead-bound share,energy (J),energy per sample (J),"
               "samples per joule (1/J),average power (W),"
               "efficiency (FLOP/s/W),memory (B),fits in memory,skipped\n"
               "a100,fp16,8,fwd,0.002,4000,8000000000,100000000,4e+12,80,0.75,0.25,0,0.5,0.0625,"
               "16,250,1.6e+10,75000000,true,\n"
               "v100,fp8,8,train,,,,,,,,,,,,,,,,,hardware 'v100' has no compute unit for fp8\n");
}

TEST_CASE("sweep JSON: perfmodel.sweep/1 with numbers or a skip reason per point") {
  auto j = nlohmann::json::parse(report::render_sweep_json(two_points()));
  CHECK(j["schema"] == "perfmodel.sweep/1");
  CHECK(j["model"] == "net, \"v2\"");
  CHECK(j["evaluated"] == 1);
  CHECK(j["skipped"] == 1);
  REQUIRE(j["points"].size() == 2);
  const auto &a = j["points"][0];
  for (const char *key :
       {"hw", "dtype", "batch", "pass", "latency_seconds", "throughput_samples_per_second", "flops",
        "bytes", "energy_joules", "memory_bytes", "fits_in_memory"})
    CHECK_MESSAGE(a.contains(key), key);
  CHECK(a["latency_seconds"] == 0.002);
  CHECK(a["flops"] == 8000000000LL);
  CHECK(a["fits_in_memory"] == true);
  CHECK_FALSE(a.contains("skipped"));
  const auto &b = j["points"][1];
  CHECK(b["pass"] == "train");
  CHECK(b["skipped"] == "hardware 'v100' has no compute unit for fp8");
  CHECK_FALSE(b.contains("latency_seconds"));
}

TEST_CASE("sweep table: human units, skip reason on its row") {
  std::string t = report::render_sweep_table(two_points());
  CHECK(t.rfind("sweep of net, \"v2\": 2 points, 1 evaluated, 1 skipped\n", 0) == 0);
  CHECK(t.find("2.00ms") != std::string::npos);
  CHECK(t.find("75%") != std::string::npos);
  CHECK(t.find("16.0GF/s/W") != std::string::npos);
  CHECK(t.find("skipped: hardware 'v100' has no compute unit for fp8") != std::string::npos);
  CHECK(std::count(t.begin(), t.end(), '\n') == 4); // title, header, two rows
}

TEST_CASE("sweep Markdown: one row per point, pipes escaped") {
  SweepResult r = two_points();
  r.points[1].skipped = "a|b";
  std::string md = report::render_sweep_md(r);
  CHECK(md.find("| hw | dtype | batch | pass |") != std::string::npos);
  CHECK(md.find("skipped: a\\|b") != std::string::npos);
  CHECK(std::count(md.begin(), md.end(), '\n') == 6); // title, blank, header, rule, 2 rows
  CHECK(report::render_sweep(r, report::Format::md) == md);
}

TEST_CASE("sort: best first by the key, ties in axis order, skipped points last") {
  SweepResult r = two_points();
  SweepPoint c = r.points[0];
  c.hw = "h100";
  c.latency_seconds = 0.001;
  c.samples_per_joule = 32;
  c.average_power_watts = 250;                    // ties with a100
  r.points.insert(r.points.begin(), r.points[1]); // a skipped point first
  r.points.push_back(c);
  // skipped (v100), a100, h100

  SweepResult s = r;
  REQUIRE(report::sort_sweep(s, "latency"));
  CHECK(s.points[0].hw == "h100");
  CHECK(s.points[1].hw == "a100");
  CHECK(s.points[2].hw == "v100"); // skipped: last

  s = r;
  REQUIRE(report::sort_sweep(s, "samples_per_joule")); // the most samples per joule first
  CHECK(s.points[0].hw == "h100");

  s = r;
  REQUIRE(report::sort_sweep(s, "power")); // a tie keeps the axis order
  CHECK(s.points[0].hw == "a100");
  CHECK(s.points[1].hw == "h100");

  s = r;
  CHECK_FALSE(report::sort_sweep(s, "speed"));
  CHECK(s.points[0].hw == "v100"); // unchanged

  const auto keys = report::sweep_sort_keys();
  for (const std::string &k : keys) {
    SweepResult t = r;
    CHECK_MESSAGE(report::sort_sweep(t, k), k);
    CHECK(t.points.back().skipped);
  }
  CHECK(std::find(keys.begin(), keys.end(), "samples_per_joule") != keys.end());
}

TEST_CASE("sweep streamed in chunks: the same text as one piece, the table aligned throughout") {
  // 10,001 points: three chunks of 4096 and a partial one; the widest cell in the last chunk.
  SweepResult r = two_points();
  const SweepPoint a = r.points[0], b = r.points[1];
  r.points.clear();
  for (int i = 0; i < 10001; ++i) {
    r.points.push_back(i % 7 == 3 ? b : a);
    r.points.back().batch = i + 1;
  }
  r.points.back().hw = "a-very-long-hardware-name";
  for (report::Format f :
       {report::Format::table, report::Format::csv, report::Format::json, report::Format::md}) {
    std::string streamed;
    size_t pieces = 0;
    report::write_sweep(r, f, [&](std::string_view s) {
      streamed += s;
      ++pieces;
    });
    CHECK(pieces >= 3);
    const auto lines = std::count(streamed.begin(), streamed.end(), '\n');
    if (f == report::Format::csv || f == report::Format::md) {
      CHECK(lines == (f == report::Format::csv ? 10002 : 10005)); // one header (and rule)
      // every point's line as a sweep of that point alone prints it (unpadded formats)
      std::vector<std::string> got;
      for (size_t at = 0, nl; (nl = streamed.find('\n', at)) != std::string::npos; at = nl + 1)
        got.push_back(streamed.substr(at, nl - at));
      const size_t head = f == report::Format::csv ? 1 : 4;
      for (size_t i : {size_t(0), size_t(3), size_t(4095), size_t(4096), size_t(8192), size_t(10000)}) {
        SweepResult one = r;
        one.points = {r.points[i]};
        const std::string alone = report::render_sweep(one, f);
        const size_t end = alone.rfind('\n', alone.size() - 2);
        CHECK(got[head + i] == alone.substr(end + 1, alone.size() - end - 2));
      }
    }
  }
  // JSON: one document, every point in order
  const auto j = nlohmann::json::parse(report::render_sweep_json(r));
  REQUIRE(j["points"].size() == 10001);
  CHECK(j["points"][10000]["batch"] == 10001);
  CHECK(j["points"][10000]["hw"] == "a-very-long-hardware-name");
  CHECK(j["evaluated"].get<int64_t>() + j["skipped"].get<int64_t>() == 10001);
  // table: the column after "hw" starts at the same offset on the first row and the last
  const std::string t = report::render_sweep_table(r);
  std::vector<std::string> rows;
  for (size_t at = 0, nl; (nl = t.find('\n', at)) != std::string::npos; at = nl + 1)
    rows.push_back(t.substr(at, nl - at));
  REQUIRE(rows.size() == 10003); // title, header, points
  const size_t col = rows[1].find("dtype");
  CHECK(col == std::string("a-very-long-hardware-name").size() + 2);
  CHECK(rows[2].substr(col, 4) == "fp16");
  CHECK(rows.back().substr(col, 4) == "fp16");
}
