// Tests of running gnuplot: SVG is well-formed XML, PNG has its signature and size, PDF its
// header, a hostile layer name renders as text, failures keep an earlier image.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "perfmodel/report/plot/render.hpp"
#include "perfmodel/report/plot/roofline_plot.hpp"
#include "../core/sweep_fixtures.hpp"
#include "xml_check.hpp"

using namespace perfmodel;
using namespace perfmodel::report::plot;

namespace {

/// A fresh folder under /tmp, removed with everything in it at the end of the test.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/perfmodel-plot-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  operator const std::string &() const { return path; }
};

std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool exists(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

report::RooflineData data() {
  static Graph g = test::tiny_net(4);
  static HwSpec hw = test::tiny_gpu();
  return report::make_roofline(predict(g, hw, PredictOptions{}), hw, {{"conv", 1e-4}});
}

/// The render tests need gnuplot; without it they say so (visibly) and check nothing else.
bool have_gnuplot() {
  if (!find_gnuplot().empty())
    return true;
  MESSAGE("SKIPPED: gnuplot is not installed (apt-get install gnuplot-nox)");
  return false;
}

uint32_t be32(const std::string &s, size_t at) {
  return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 |
         uint32_t(uint8_t(s[at + 2])) << 8 | uint32_t(uint8_t(s[at + 3]));
}

} // namespace

TEST_CASE("the XML check accepts well-formed and rejects broken documents") {
  CHECK(test::xml_problem("<?xml version='1.0'?><svg a=\"1\"><g><t>x &amp; y</t></g><p/></svg>")
            .empty());
  CHECK_FALSE(test::xml_problem("<svg><g></svg>").empty());
  CHECK_FALSE(test::xml_problem("<svg>a ]]> b</svg>").empty());
  CHECK_FALSE(test::xml_problem("<svg>a & b</svg>").empty());
  CHECK_FALSE(test::xml_problem("<svg a=1></svg>").empty());
  CHECK_FALSE(test::xml_problem("<svg>a < b</svg>").empty());
  CHECK_FALSE(test::xml_problem("<svg></svg><svg></svg>").empty());
  CHECK_FALSE(test::xml_problem("").empty());
}

TEST_CASE("SVG output is well-formed XML, the files are removed unless kept") {
  if (!have_gnuplot())
    return;
  TempDir tmp;
  const std::string &dir = tmp.path;
  PlotPaths paths = plot_paths(dir + "/roof.svg");
  RenderOutcome o = render_plot(paths, roofline_plot(data(), paths, ImageKind::svg), false);
  CHECK(o.rendered);
  std::string svg = slurp(dir + "/roof.svg");
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(test::xml_problem(svg) == "");
  CHECK_FALSE(exists(dir + "/roof.gp"));
  CHECK_FALSE(exists(dir + "/roof.dat"));
  o = render_plot(paths, roofline_plot(data(), paths, ImageKind::svg), true);
  CHECK(o.kept_files);
  CHECK(exists(dir + "/roof.gp"));
  CHECK(exists(dir + "/roof.dat"));
  CHECK(o.message.find("script " + dir + "/roof.gp") != std::string::npos);
}

TEST_CASE("PNG output has the PNG signature and the requested size; PDF its header") {
  if (!have_gnuplot())
    return;
  TempDir tmp;
  const std::string &dir = tmp.path;
  PlotPaths paths = plot_paths(dir + "/roof.png");
  RooflinePlotOptions opts;
  opts.width_px = 640;
  opts.height_px = 480;
  REQUIRE(render_plot(paths, roofline_plot(data(), paths, ImageKind::png, opts), false).rendered);
  std::string png = slurp(dir + "/roof.png");
  REQUIRE(png.size() > 24);
  CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  CHECK(png.compare(12, 4, "IHDR") == 0);
  CHECK(be32(png, 16) == 640);
  CHECK(be32(png, 20) == 480);
  PlotPaths pdf = plot_paths(dir + "/roof.pdf");
  REQUIRE(render_plot(pdf, roofline_plot(data(), pdf, ImageKind::pdf), false).rendered);
  CHECK(slurp(dir + "/roof.pdf").rfind("%PDF-", 0) == 0);
}

TEST_CASE("a layer named with quotes and a system() call renders as text") {
  if (!have_gnuplot())
    return;
  TempDir tmp;
  const std::string &dir = tmp.path;
  // gnuplot runs in `dir`: the relative names below would be created there if anything ran.
  auto d = data();
  d.points[0].name = "q'\"`touch pw1`'); system(\"touch pw2\") #]]>";
  // With quotes not doubled this one would run: set label 1 'x' at 0,0; system(...); ...
  d.points[1].name = "x' at 0,0; system('touch pw4'); set label 99 'y";
  d.model = "m'); system('touch pw3')";
  PlotPaths paths = plot_paths(dir + "/evil.svg");
  REQUIRE(render_plot(paths, roofline_plot(d, paths, ImageKind::svg), false).rendered);
  CHECK_FALSE(exists(dir + "/pw1"));
  CHECK_FALSE(exists(dir + "/pw2"));
  CHECK_FALSE(exists(dir + "/pw3"));
  CHECK_FALSE(exists(dir + "/pw4"));
  std::string svg = slurp(dir + "/evil.svg");
  CHECK(test::xml_problem(svg) == "");
  CHECK(svg.find("q'\"`touch pw1`'); system(\"touch pw2\") #]] >") != std::string::npos);
  CHECK(svg.find("m'); system('touch pw3')") != std::string::npos);
  CHECK(svg.find("x' at 0,0; system('touch pw4'); set label 99 'y") != std::string::npos);
}

TEST_CASE("without gnuplot the script and data are written with instructions") {
  TempDir tmp;
  const std::string &dir = tmp.path;
  const char *old = std::getenv("PERFMODEL_GNUPLOT");
  std::string saved = old ? old : "";
  setenv("PERFMODEL_GNUPLOT", (dir + "/no-such-gnuplot").c_str(), 1);
  PlotPaths paths = plot_paths(dir + "/roof.svg");
  RenderOutcome o = render_plot(paths, roofline_plot(data(), paths, ImageKind::svg), false);
  if (old)
    setenv("PERFMODEL_GNUPLOT", saved.c_str(), 1);
  else
    unsetenv("PERFMODEL_GNUPLOT");
  CHECK_FALSE(o.rendered);
  CHECK(o.kept_files);
  CHECK(exists(dir + "/roof.gp"));
  CHECK(exists(dir + "/roof.dat"));
  CHECK_FALSE(exists(dir + "/roof.svg"));
  CHECK(o.message.find("gnuplot was not found") != std::string::npos);
  CHECK(o.message.find("cd " + dir + " && gnuplot roof.gp") != std::string::npos);
}

TEST_CASE("a failing gnuplot keeps the earlier image and reports its error") {
  TempDir tmp;
  const std::string &dir = tmp.path;
  { std::ofstream(dir + "/roof.svg") << "earlier"; }
  std::string fake = dir + "/fake-gnuplot";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\necho 'line 3: unexpected thing' >&2\nexit 1\n";
  }
  chmod(fake.c_str(), 0755);
  setenv("PERFMODEL_GNUPLOT", fake.c_str(), 1);
  PlotPaths paths = plot_paths(dir + "/roof.svg");
  std::string what;
  try {
    render_plot(paths, roofline_plot(data(), paths, ImageKind::svg), false);
  } catch (const RuntimeFailure &e) {
    what = e.what();
  }
  unsetenv("PERFMODEL_GNUPLOT");
  CHECK(what.find("gnuplot exited with status 1: line 3: unexpected thing") != std::string::npos);
  CHECK(what.find("kept") != std::string::npos);
  CHECK(slurp(dir + "/roof.svg") == "earlier");
  CHECK(exists(dir + "/roof.gp"));
}

TEST_CASE("run_program passes arguments verbatim, without a shell") {
  std::string err;
  int rc =
      run_program({"/bin/sh", "-c", "echo \"$0|$1\" >&2; exit 3", "a b;c", "$(x)"}, "/", err, 10);
  CHECK(rc == 3);
  CHECK(err == "a b;c|$(x)\n");
  err.clear();
  CHECK(run_program({"/bin/sh", "-c", "sleep 5"}, "/", err, 1) == -1); // timed out, killed
}
