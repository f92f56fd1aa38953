// Writer and reader of the fit-sample CSV (fixed columns, RFC 4180 quoting of the source).
#include "perfmodel/calibrate/samples_csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <sstream>

#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/calibrate/fit.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/layout.hpp"
#include "perfmodel/printable.hpp"

namespace perfmodel::calibrate {

namespace {

constexpr const char *kHeader =
    "op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,lowered_bytes,reuse_bytes,"
    "cross_core_bytes,images,plane,epilogue_sweeps,weight_bytes,strided_lowered_bytes,"
    "parallel_units,conv_batch,conv_in_channels,conv_out_channels,conv_in_h,conv_in_w,conv_out_h,"
    "conv_out_w,conv_kernel_h,conv_kernel_w,conv_stride_h,conv_stride_w,conv_dilation_h,"
    "conv_dilation_w,conv_groups,channel_elements,layout,time (s),source";
// The layouts the reader takes, by field count: each appends columns before "time (s),source"
// to the one before, and a file in an older layout reads the missing columns at their
// defaults. 12: up to lowered_bytes; then reuse_bytes (13: 0), cross_core_bytes (14: 0),
// images (15: 1), plane (16: 0), epilogue_sweeps (17: 0), weight_bytes (18: 0),
// strided_lowered_bytes (19: 0); 34: parallel_units (0) and the 14 conv_* columns (no
// geometry); 36: channel_elements (0) and layout (nchw). A new column goes at the end of kHeader's features, with its layout here (the
// last + 1), its value in write_samples_csv and its read in parse_samples_csv (`if (has(N))`).
constexpr size_t kLayouts[] = {12, 13, 14, 15, 16, 17, 18, 19, 34, 36};
constexpr size_t header_fields(const char *h) {
  size_t n = 1;
  for (; *h; ++h)
    n += *h == ',';
  return n;
}
static_assert(header_fields(kHeader) == kLayouts[std::size(kLayouts) - 1],
              "the newest layout is kHeader's");
// The ConvGeometry fields in their column order (conv_batch ... conv_groups).
constexpr int64_t ConvGeometry::*kConvFields[] = {
    &ConvGeometry::batch,      &ConvGeometry::in_channels, &ConvGeometry::out_channels,
    &ConvGeometry::in_h,       &ConvGeometry::in_w,        &ConvGeometry::out_h,
    &ConvGeometry::out_w,      &ConvGeometry::kernel_h,    &ConvGeometry::kernel_w,
    &ConvGeometry::stride_h,   &ConvGeometry::stride_w,    &ConvGeometry::dilation_h,
    &ConvGeometry::dilation_w, &ConvGeometry::groups};
constexpr int64_t kMaxCount = int64_t{1} << 50; // the tensor cap (graph.cpp)

// The shortest text that reads back as `v` exactly (a time written with fewer digits would fit
// another sample than the one measured).
std::string exact(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

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

// The conv_* columns from field `at` on: all 0 is no geometry; else every field at least 1 and
// the input and output tensors within the tensor cap (the GPU rules multiply them in int64).
template <class Fields, class Bad, class Count>
std::optional<ConvGeometry> conv_columns(const Fields &f, size_t at, const Bad &bad,
                                         const Count &count) {
  ConvGeometry c;
  bool any = false;
  for (size_t j = 0; j < std::size(kConvFields); ++j)
    any = (c.*kConvFields[j] = count(at + j)) != 0 || any;
  if (!any)
    return std::nullopt;
  for (size_t j = 0; j < std::size(kConvFields); ++j)
    if (c.*kConvFields[j] == 0)
      throw bad(at + j, "expected a conv geometry of counts from 1 (or all 0: none)");
  auto within_cap = [](std::initializer_list<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims)
      if (__builtin_mul_overflow(n, d, &n) || n > kMaxCount)
        return false;
    return true;
  };
  if (!within_cap({c.batch, c.in_channels, c.in_h, c.in_w}) ||
      !within_cap({c.batch, c.out_channels, c.out_h, c.out_w}))
    throw bad(at, "expected a conv geometry whose input and output have at most 2^50 elements");
  return c;
}

} // namespace

std::string write_samples_csv(const std::vector<Sample> &samples) {
  std::string out = std::string(kHeader) + "\n";
  char buf[512];
  for (const Sample &s : samples) {
    const GemmShape g = s.gemm.value_or(GemmShape{0, 0, 0, 0});
    std::snprintf(buf, sizeof buf,
                  "%s,%s,%s,%.17g,%.17g,%lld,%lld,%lld,%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                  "%.17g,%.17g,%.17g,",
                  std::string(to_string(s.op_class)).c_str(),
                  std::string(to_string(s.dtype)).c_str(), std::string(to_string(s.pass)).c_str(),
                  s.flops, s.bytes, (long long)g.m, (long long)g.n, (long long)g.k,
                  (long long)g.groups, s.lowered_bytes, s.reuse_bytes, s.cross_core_bytes, s.images,
                  s.plane_elements, s.epilogue_sweeps, s.weight_bytes, s.strided_lowered_bytes,
                  s.parallel_units);
    out += buf;
    for (auto field : kConvFields) // all 0: no geometry
      out += std::to_string(s.conv ? (*s.conv).*field : 0) + ",";
    std::snprintf(buf, sizeof buf, "%.17g,", s.channel_elements);
    out += buf + std::string(to_string(s.layout)) + ",";
    out += exact(s.seconds) + "," + quoted(s.source) + "\n";
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
  if (std::find(std::begin(kLayouts), std::end(kLayouts), columns) == std::end(kLayouts))
    throw InputError(SourceLoc{file, 1, 1}, std::string("expected the header '") + kHeader + "'");
  // Whether the file's layout has the columns of the layout with n fields (kLayouts).
  auto has = [&](size_t n) { return columns >= n; };
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
    // Counts (GEMM dimensions, conv geometry, parallel units): whole numbers up to 2^50 (the
    // tensor cap), so the conversion to int64 is defined and products of two stay exact.
    auto count = [&](size_t i) {
      const double v = num(i);
      if (v != std::trunc(v) || v > double(kMaxCount))
        throw bad(i, "expected a whole number from 0 to 2^50");
      return static_cast<int64_t>(v);
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
    const GemmShape g{count(5), count(6), count(7), count(8)};
    if (g.m > 0 && g.n > 0 && g.k > 0 && g.groups > 0)
      s.gemm = g;
    s.lowered_bytes = num(9);
    size_t at = 10; // the next column
    if (has(13))
      s.reuse_bytes = num(at++);
    if (has(14))
      s.cross_core_bytes = num(at++);
    if (has(15) && !((s.images = num(at++)) >= 1))
      throw bad(at - 1, "expected at least 1 image");
    if (has(16))
      s.plane_elements = num(at++);
    if (has(17))
      s.epilogue_sweeps = num(at++);
    if (has(18))
      s.weight_bytes = num(at++);
    if (has(19))
      s.strided_lowered_bytes = num(at++);
    if (has(34)) {
      s.parallel_units = double(count(at++));
      s.conv = conv_columns(f, at, bad, count);
      at += std::size(kConvFields);
    }
    if (has(36)) {
      s.channel_elements = double(count(at++));
      const auto l = parse_layout(f[at].first);
      if (!l)
        throw bad(at, std::string("expected a layout (") + std::string(layout_choices_text()) + ")");
      s.layout = *l;
      ++at;
    }
    s.seconds = num(at);
    if (!(s.seconds > 0) || !std::isnormal(s.seconds)) // a denormal time gives infinite rates
      throw bad(at, "expected a positive time");
    s.source = f[at + 1].first;
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
