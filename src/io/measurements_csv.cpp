// The measurement CSV reader: RFC 4180 fields, named columns, per-row validation with
// file:line:col.
#include "perfmodel/io/measurements_csv.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include "perfmodel/epilogue.hpp"
#include "perfmodel/io/files.hpp"
#include "perfmodel/printable.hpp"

namespace perfmodel::io {

namespace {

struct Field {
  std::string text;
  int column = 1; // 1-based character column where the field starts
};

// Splits CSV text into records of fields; quoted fields may hold commas, quotes and newlines.
// Each record remembers the line it starts on.
struct Record {
  int line = 1;
  std::vector<Field> fields;
};

std::vector<Record> split_csv(const std::string &text, const std::string &file) {
  std::vector<Record> records;
  Record rec;
  Field field;
  int line = 1, col = 1;
  bool quoted = false, field_started = false;
  auto end_field = [&] {
    rec.fields.push_back(field);
    field = Field{};
    field_started = false;
  };
  auto end_record = [&] {
    end_field();
    const bool blank = rec.fields.size() == 1 && rec.fields[0].text.empty();
    if (!blank)
      records.push_back(rec);
    rec = Record{};
  };
  rec.line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (!field_started) {
      field.column = col;
      field_started = true;
      if (ch == '"') {
        quoted = true;
        ++col;
        continue;
      }
    }
    if (quoted) {
      if (ch == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field.text += '"';
          ++i;
          col += 2;
          continue;
        }
        quoted = false;
      } else {
        field.text += ch;
        if (ch == '\n') {
          ++line;
          col = 0;
        }
      }
      ++col;
      continue;
    }
    if (ch == ',') {
      end_field();
    } else if (ch == '\n' || ch == '\r') {
      if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
        ++i;
      end_record();
      ++line;
      col = 0;
      rec.line = line;
    } else {
      field.text += ch;
    }
    ++col;
  }
  if (quoted)
    throw InputError(SourceLoc{file, line, col}, "unterminated quoted field");
  if (field_started || !rec.fields.empty())
    end_record();
  return records;
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

} // namespace

const std::vector<std::string> &measurement_columns() {
  static const std::vector<std::string> cols = {
      "op",       "dtype",      "pass",         "m",
      "n",        "k",          "batch",        "c",
      "h",        "w",          "out_channels", "kernel_h",
      "kernel_w", "stride_h",   "stride_w",     "pad_h",
      "pad_w",    "dilation_h", "dilation_w",   "groups",
      "seconds",  "bias",       "activation",   "layout"};
  return cols;
}

std::vector<MeasurementRow> parse_measurements_csv(const std::string &text,
                                                   const std::string &file) {
  require_utf8(text, file, "measurement CSV files are UTF-8");
  const std::vector<Record> records = split_csv(text, file);
  if (records.empty())
    throw InputError(SourceLoc{file, 1, 1}, "empty measurement file (no header)");
  std::map<std::string, size_t> index; // known column -> field index
  for (size_t i = 0; i < records[0].fields.size(); ++i) {
    const std::string name = trim(records[0].fields[i].text);
    for (const auto &c : measurement_columns())
      if (c == name) {
        if (index.count(name))
          throw InputError(SourceLoc{file, records[0].line, records[0].fields[i].column},
                           "duplicate column '" + name + "'");
        index[name] = i;
      }
  }
  if (!index.count("op")) {
    // calibrate --save-runs writes runs of microbenchmark cases, not kernel shapes: say so.
    const auto &f = records[0].fields;
    if (f.size() >= 2 && trim(f[0].text) == "case" && trim(f[1].text) == "round")
      throw InputError(SourceLoc{file, records[0].line, 1},
                       "this is calibrate --save-runs output (microbenchmark runs and host "
                       "probes), not a measurement CSV: those have one kernel per row, header "
                       "op,dtype,pass,m,n,k,... (docs/calibration.md, \"Measurement CSV\")");
    throw InputError(SourceLoc{file, records[0].line, 1}, "the header has no 'op' column");
  }

  std::vector<MeasurementRow> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    const Record &rec = records[r];
    MeasurementRow row;
    row.loc = SourceLoc{file, rec.line, 0};
    // The cell of a column, with its location; "" when the column or the cell is missing.
    auto cell = [&](const std::string &name, SourceLoc *where) -> std::string {
      *where = SourceLoc{file, rec.line, 1};
      auto it = index.find(name);
      if (it == index.end() || it->second >= rec.fields.size())
        return "";
      where->column = rec.fields[it->second].column;
      return trim(rec.fields[it->second].text);
    };
    SourceLoc at;
    const std::string op = cell("op", &at);
    if (op == "gemm")
      row.op = KernelOp::gemm;
    else if (op == "conv2d")
      row.op = KernelOp::conv2d;
    else
      throw InputError(at, op.empty() ? "missing op (gemm or conv2d)"
                                      : "unknown op '" + op + "' (gemm or conv2d)");
    const std::string dt = cell("dtype", &at);
    row.dtype_loc = at;
    if (!dt.empty()) {
      auto d = parse_dtype(dt);
      if (!d || !(*d == DType::fp32 || *d == DType::fp16 || *d == DType::bf16 ||
                  *d == DType::tf32 || *d == DType::int8))
        throw InputError(at, "unknown dtype '" + dt + "' (fp32, fp16, bf16, tf32 or int8)");
      row.dtype = *d;
    }
    const std::string ps = cell("pass", &at);
    if (!ps.empty()) {
      auto p = parse_kernel_part(ps);
      if (!p)
        throw InputError(at, "unknown pass '" + ps +
                                 "' (fwd, bwd_data or bwd_weight; bwd_filter is read as "
                                 "bwd_weight)");
      if (row.op == KernelOp::gemm && *p != KernelPart::fwd)
        throw InputError(at, "pass '" + ps + "' applies to conv2d rows only");
      row.pass = *p;
    }
    // An integer cell: empty -> `fallback` (nullopt = required), else a whole number >= min;
    // a `flag` is min or min + 1.
    auto integer = [&](const std::string &name, std::optional<int64_t> fallback, int64_t min,
                       bool flag = false) -> int64_t {
      SourceLoc where;
      const std::string s = cell(name, &where);
      if (s.empty()) {
        if (!fallback)
          throw InputError(where, op + " needs a value for '" + name + "'");
        return *fallback;
      }
      int64_t v = 0;
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec != std::errc() || end != s.data() + s.size())
        throw InputError(where, "'" + name + "' must be a whole number, not '" + s + "'");
      if (flag && (v < min || v > min + 1))
        throw InputError(where, "'" + name + "' must be " + std::to_string(min) + " or " +
                                    std::to_string(min + 1));
      if (v < min)
        throw InputError(where, "'" + name + "' must be at least " + std::to_string(min));
      return v;
    };
    row.batch = integer("batch", 1, 1);
    if (row.op == KernelOp::gemm) {
      row.m = integer("m", std::nullopt, 1);
      row.n = integer("n", std::nullopt, 1);
      row.k = integer("k", std::nullopt, 1);
    } else {
      row.c = integer("c", std::nullopt, 1);
      row.h = integer("h", std::nullopt, 1);
      row.w = integer("w", std::nullopt, 1);
      row.out_channels = integer("out_channels", std::nullopt, 1);
      row.kernel_h = integer("kernel_h", std::nullopt, 1);
      row.kernel_w = integer("kernel_w", std::nullopt, 1);
      row.stride_h = integer("stride_h", 1, 1);
      row.stride_w = integer("stride_w", 1, 1);
      row.pad_h = integer("pad_h", 0, 0);
      row.pad_w = integer("pad_w", 0, 0);
      row.dilation_h = integer("dilation_h", 1, 1);
      row.dilation_w = integer("dilation_w", 1, 1);
      row.groups = integer("groups", 1, 1);
      SourceLoc g;
      cell("groups", &g);
      if (row.c % row.groups || row.out_channels % row.groups)
        throw InputError(g, "groups (" + std::to_string(row.groups) +
                                ") must divide c and out_channels");
      row.bias = integer("bias", 0, 0, /*flag=*/true) == 1;
      row.activation = cell("activation", &at);
      if (row.activation == "none")
        row.activation.clear();
      if (!row.activation.empty() && !fused_clamp(row.activation))
        throw InputError(at, "unknown activation '" + row.activation +
                                 "' (none, relu or relu6: the ones a GEMM epilogue fuses)");
      // The output size (in + 2 pad - dilation (kernel - 1) - 1) / stride + 1 in checked
      // arithmetic: huge pads or dilations overflow the plain formula (undefined behaviour that
      // may wrap to a plausible size). nullopt on overflow.
      auto out_size = [](int64_t in, int64_t pad, int64_t dil, int64_t k,
                         int64_t stride) -> std::optional<int64_t> {
        int64_t padded, reach, span;
        if (__builtin_mul_overflow(pad, 2, &padded) ||
            __builtin_add_overflow(in, padded, &padded) ||
            __builtin_mul_overflow(dil, k - 1, &reach) ||
            __builtin_sub_overflow(padded, reach, &span) ||
            __builtin_sub_overflow(span, 1, &span))
          return std::nullopt;
        return span / stride + 1;
      };
      const auto oh = out_size(row.h, row.pad_h, row.dilation_h, row.kernel_h, row.stride_h);
      const auto ow = out_size(row.w, row.pad_w, row.dilation_w, row.kernel_w, row.stride_w);
      if (!oh || !ow)
        throw InputError(SourceLoc{file, rec.line, 1},
                         "the output size overflows 64-bit integers (pad, dilation or kernel "
                         "too large)");
      if (*oh < 1 || *ow < 1)
        throw InputError(SourceLoc{file, rec.line, 1},
                         "the kernel does not fit the padded input (output " +
                             std::to_string(*oh) + "x" + std::to_string(*ow) + ")");
    }
    const std::string lay = cell("layout", &at);
    if (!lay.empty()) {
      const auto l = parse_layout(lay);
      if (!l)
        throw InputError(at, "unknown layout '" + lay + "' (nchw, nhwc or channels-last)");
      if (row.op == KernelOp::gemm && *l != Layout::nchw)
        throw InputError(at, "layout '" + lay + "' applies to conv2d rows only");
      row.layout = *l;
    }
    const std::string sec = cell("seconds", &at);
    if (!sec.empty()) {
      double v = 0;
      auto [end, ec] = std::from_chars(sec.data(), sec.data() + sec.size(), v);
      // A positive normal number: a denormal time makes every rate derived from it infinite.
      if (ec != std::errc() || end != sec.data() + sec.size() || !std::isnormal(v) || v <= 0)
        throw InputError(at, "'seconds' must be a positive number, not '" + sec + "'");
      row.seconds = v;
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<MeasurementRow> read_measurements_csv(const std::string &path) {
  return parse_measurements_csv(read_file(path), path);
}

std::string measurements_csv_header() {
  std::string s;
  for (const auto &c : measurement_columns())
    s += (s.empty() ? "" : ",") + c;
  return s + "\n";
}

std::string measurements_csv_line(const MeasurementRow &r) {
  std::ostringstream o;
  const bool conv = r.op == KernelOp::conv2d;
  auto n = [&](int64_t v, bool used) {
    o << ',';
    if (used)
      o << v;
  };
  o << (conv ? "conv2d" : "gemm") << ',' << to_string(r.dtype) << ','
    << (conv ? to_string(r.pass) : "fwd");
  n(r.m, !conv);
  n(r.n, !conv);
  n(r.k, !conv);
  n(r.batch, true);
  for (int64_t v : {r.c, r.h, r.w, r.out_channels, r.kernel_h, r.kernel_w, r.stride_h, r.stride_w,
                    r.pad_h, r.pad_w, r.dilation_h, r.dilation_w, r.groups})
    n(v, conv);
  o << ',';
  if (r.seconds) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", *r.seconds);
    o << buf;
  }
  n(r.bias ? 1 : 0, conv);
  o << ',' << (conv && !r.activation.empty() ? r.activation : "");
  o << ',' << (conv && r.layout != Layout::nchw ? to_string(r.layout) : "");
  o << '\n';
  return o.str();
}

} // namespace perfmodel::io
