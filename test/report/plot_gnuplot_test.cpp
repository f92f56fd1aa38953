// Tests of the shared gnuplot pieces: quoting, comments, numbers, terminals, file names.
#include <doctest/doctest.h>

#include <cmath>

#include "perfmodel/report/plot/gnuplot.hpp"

using namespace perfmodel::report::plot;

TEST_CASE("gp_quote: single-quoted, quotes doubled, nothing left to interpret") {
  CHECK(gp_quote("conv1") == "'conv1'");
  CHECK(gp_quote("it's") == "'it''s'");
  CHECK(gp_quote("''") == "''''''");
  // Backquotes, macros, double quotes and backslashes are plain text in single quotes.
  CHECK(gp_quote("`rm -rf x` @m \"q\" \\n") == "'`rm -rf x` @m \"q\" \\n'");
  CHECK(gp_quote("a'); system('touch x') #") == "'a''); system(''touch x'') #'");
}

TEST_CASE("gp_quote: line breaks and control characters cannot end the command") {
  CHECK(gp_quote("a\nb\rc\td") == "'a b c d'");
  CHECK(gp_quote(std::string("x\0y", 3)) == "'x y'");
  CHECK(gp_quote("x\x7fy") == "'x y'");
}

TEST_CASE("gp_quote: UTF-8 kept, invalid bytes replaced, ']]>' broken up for SVG") {
  CHECK(gp_quote("caf\xc3\xa9") == "'caf\xc3\xa9'");
  CHECK(gp_quote("bad\xff\xc3") == "'bad?"
                                   "?'");
  CHECK(gp_quote("\xc0\xaf") == "'?"
                                "?'"); // overlong encoding of '/'
  CHECK(gp_quote("a]]>b") == "'a]] >b'");
}

TEST_CASE("gp_comment and gp_num") {
  CHECK(gp_comment("a\nb") == "a b");
  CHECK(gp_num(1.5e12) == "1.5e+12");
  CHECK(gp_num(0.25) == "0.25");
  CHECK(gp_num(1.0 / 3.0) == "0.333333");
  CHECK(gp_num(std::nan("")) == "NaN");
}

TEST_CASE("image kinds by extension") {
  CHECK(image_kind("a.svg") == ImageKind::svg);
  CHECK(image_kind("dir.x/A.PNG") == ImageKind::png);
  CHECK(image_kind("r.pdf") == ImageKind::pdf);
  CHECK_FALSE(image_kind("r.json"));
  CHECK_FALSE(image_kind("svg"));
  CHECK_FALSE(image_kind("dir.svg/r"));
  CHECK_FALSE(image_kind(""));
  CHECK(extension_of(ImageKind::png) == "png");
}

TEST_CASE("terminals: svg, pngcairo, pdfcairo, never enhanced") {
  CHECK(terminal_line(ImageKind::svg, 1200, 800).rfind("set terminal svg size 1200,800", 0) == 0);
  CHECK(terminal_line(ImageKind::png, 1200, 800).rfind("set terminal pngcairo size 1200,800", 0) ==
        0);
  CHECK(terminal_line(ImageKind::pdf, 1200, 800).rfind("set terminal pdfcairo size 12in,8in", 0) ==
        0);
  for (auto k : {ImageKind::svg, ImageKind::png, ImageKind::pdf})
    CHECK(terminal_line(k, 10, 10).find(" noenhanced") != std::string::npos);
}

TEST_CASE("plot paths: script and data beside the image, by base name") {
  PlotPaths p = plot_paths("out/dir/roof.line.svg");
  CHECK(p.dir == "out/dir");
  CHECK(p.image_name == "roof.line.svg");
  CHECK(p.script_name == "roof.line.gp");
  CHECK(p.data_name == "roof.line.dat");
  CHECK(p.in_dir(p.data_name) == "out/dir/roof.line.dat");
  PlotPaths q = plot_paths("r.png");
  CHECK(q.dir == ".");
  CHECK(q.in_dir("r.gp") == "r.gp");
  CHECK(plot_paths("/r.pdf").in_dir("r.gp") == "/r.gp");
}

TEST_CASE("script header: names only through quoted strings, output overridable") {
  PlotPaths p = plot_paths("x/it's.svg");
  std::string h = script_header(p, ImageKind::svg, 100, 100, "test", "t`id`'");
  CHECK(h.find("if (!exists(\"outfile\")) outfile = 'it''s.svg'\n") != std::string::npos);
  CHECK(h.find("datafile = 'it''s.dat'\n") != std::string::npos);
  CHECK(h.find("set title 't`id`'''\n") != std::string::npos);
}
