// Writer and reader of the fit-sample CSV (fixed columns, RFC 4180 quoting of the source).
#include "perfmodel/calibrate/samples_csv.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/printable.hpp"

namespace perfmodel::calibrate {

namespace {

constexpr const char *kHeader =
    "op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,lowered_bytes,reuse_bytes,"
    "cross_core_bytes,images,plane,epilogue_sweeps,weight_bytes,strided_lowered_bytes,time (s),"
    "source";
constexpr size_t kColumns = 19;
// Files written before reuse_bytes (12 columns) or cross_core_bytes (13) read them as 0, before
// images (14) 1 image, before plane (15) no plane, before epilogue_sweeps (16) no epilogue,
// before weight_bytes (17) no cold weights, before strided_lowered_bytes (18) no strided gather.
constexpr size_t kColumnsBeforeReuse = 12;

// Splits one CSV line (no embedded newlines in these files) into fields with start columns.
std::vector<std::pair<std::string, int>> fields_of(const std::string &line) {
  std::vector<std::pair<std::string, int>> out;
  std::string cur;
  int start = 1;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"')
        cur += '"', ++i;
      else if (ch == '"')
        quoted = false;
      else
        cur += ch;
    } else if (ch == '"' && cur.empty()) {
      quoted = true;
    } else if (ch == ',') {
      out.emplace_back(cur, start);
      cur.clear();
      start = int(i) + 2;
    } else if (ch != '\r') {
      cur += ch;
    }
  }
  out.emplace_back(cur, start);
  return out;
}

std::string quoted(const std::string &s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char ch : s)
    out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

} // namespace

std::string write_samples_csv(const std::vector<Sample> &samples) {
  std::string out = std::string(kHeader) + "\n";
  char buf[512];
  for (const Sample &s : samples) {
    const GemmShape g = s.gemm.value_or(GemmShape{0, 0, 0, 0});
    std::snprintf(buf, sizeof buf,
                  "%s,%s,%s,%.17g,%.17g,%lld,%lld,%lld,%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                  "%.17g,%.17g,%.9g,",
                  std::string(to_string(s.op_class)).c_str(),
                  std::string(to_string(s.dtype)).c_str(), std::string(to_string(s.pass)).c_str(),
                  s.flops, s.bytes, (long long)g.m, (long long)g.n, (long long)g.k,
                  (long long)g.groups, s.lowered_bytes, s.reuse_bytes, s.cross_core_bytes, s.images,
                  s.plane_elements, s.epilogue_sweeps, s.weight_bytes, s.strided_lowered_bytes,
                  s.seconds);
    out += buf + quoted(s.source) + "\n";
  }
  return out;
}

std::vector<Sample> parse_samples_csv(const std::string &text, const std::string &file) {
  require_utf8(text, file, "sample CSV files are UTF-8");
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  const bool header = std::getline(in, line) && (++lineno, line.rfind("op_class,", 0) == 0);
  const size_t columns = header ? fields_of(line).size() : 0;
  if (columns < kColumnsBeforeReuse || columns > kColumns)
    throw InputError(SourceLoc{file, 1, 1}, std::string("expected the header '") + kHeader + "'");
  // reuse, cross_core_bytes, images, plane, epilogue_sweeps, weight_bytes,
  // strided_lowered_bytes
  const size_t r = columns - kColumnsBeforeReuse;
  std::vector<Sample> out;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line == "\r")
      continue;
    const auto f = fields_of(line);
    if (f.size() != columns)
      throw InputError(SourceLoc{file, lineno, 1}, "expected " + std::to_string(columns) +
                                                       " fields, found " +
                                                       std::to_string(f.size()));
    auto bad = [&](size_t i, const std::string &what) {
      return InputError(SourceLoc{file, lineno, f[i].second}, what + ", not '" + f[i].first + "'");
    };
    auto num = [&](size_t i) {
      char *end = nullptr;
      const double v = std::strtod(f[i].first.c_str(), &end);
      if (f[i].first.empty() || *end || !std::isfinite(v) || v < 0)
        throw bad(i, "expected a non-negative number");
      return v;
    };
    Sample s;
    auto c = parse_op_class(f[0].first);
    if (!c)
      throw bad(0, "unknown op class");
    s.op_class = *c;
    auto d = parse_dtype(f[1].first);
    if (!d)
      throw bad(1, "unknown dtype");
    s.dtype = *d;
    auto p = parse_kernel_part(f[2].first);
    if (!p)
      throw bad(2, "unknown pass");
    s.pass = *p;
    s.flops = num(3);
    s.bytes = num(4);
    // GEMM dimensions: whole numbers up to 2^50 (the tensor cap), so the conversion to int64
    // is defined and products of two stay exact.
    auto dim = [&](size_t i) {
      const double v = num(i);
      if (v != std::trunc(v) || v > 0x1p50)
        throw bad(i, "expected a whole number from 0 to 2^50");
      return static_cast<int64_t>(v);
    };
    const GemmShape g{dim(5), dim(6), dim(7), dim(8)};
    if (g.m > 0 && g.n > 0 && g.k > 0 && g.groups > 0)
      s.gemm = g;
    s.lowered_bytes = num(9);
    if (r >= 1)
      s.reuse_bytes = num(10);
    if (r >= 2)
      s.cross_core_bytes = num(11);
    if (r >= 3 && !((s.images = num(12)) >= 1))
      throw bad(12, "expected at least 1 image");
    if (r >= 4)
      s.plane_elements = num(13);
    if (r >= 5)
      s.epilogue_sweeps = num(14);
    if (r >= 6)
      s.weight_bytes = num(15);
    if (r >= 7)
      s.strided_lowered_bytes = num(16);
    s.seconds = num(10 + r);
    if (!(s.seconds > 0) || !std::isnormal(s.seconds)) // a denormal time gives infinite rates
      throw bad(10 + r, "expected a positive time");
    s.source = f[11 + r].first;
    out.push_back(s);
  }
  return out;
}

std::vector<Sample> read_samples_csv(const std::string &path) {
  return parse_samples_csv(io::read_file(path), path);
}

std::string write_residuals_csv(const Calibration &cal, const std::vector<Sample> &samples) {
  std::string out = "op_class,dtype,source,flops,bytes,measured (s),predicted (s),error,fitted\n";
  char buf[256];
  for (const Sample &s : samples) {
    std::snprintf(buf, sizeof buf, "%s,%s,", std::string(to_string(s.op_class)).c_str(),
                  std::string(to_string(s.dtype)).c_str());
    out += buf + quoted(s.source);
    std::snprintf(buf, sizeof buf, ",%.17g,%.17g,%.9g,", s.flops, s.bytes, s.seconds);
    out += buf;
    if (const ClassCalibration *cc = cal.find_for_pass(s.op_class, s.dtype, s.pass)) {
      const double pred = model_seconds(cal, cc->params, s.features());
      std::snprintf(buf, sizeof buf, "%.9g,%.6g", pred, (pred - s.seconds) / s.seconds);
      out += buf;
    } else {
      out += ",";
    }
    out += held_out(s) ? ",0\n" : ",1\n";
  }
  return out;
}

} // namespace perfmodel::calibrate
