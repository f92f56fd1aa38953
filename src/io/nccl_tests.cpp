// nccl-tests text output reader (perfmodel/io/nccl_tests.hpp).
#include "perfmodel/io/nccl_tests.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "perfmodel/io/files.hpp"

namespace perfmodel::io {

namespace {

struct Field {
  std::string text;
  int column; // 1-based
};

std::vector<Field> split(const std::string &line) {
  std::vector<Field> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
      ++i;
    if (i >= line.size())
      break;
    const size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
      ++i;
    out.push_back({line.substr(b, i - b), int(b) + 1});
  }
  return out;
}

bool starts_with(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }

std::string trim_hash(const std::string &line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == '#' || line[i] == ' '))
    ++i;
  return line.substr(i);
}

double number(const Field &f, const std::string &file, int line, const char *what) {
  const char *s = f.text.c_str();
  char *end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  if (end == s || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw InputError(SourceLoc{file, line, f.column},
                     std::string(what) + " must be a number, not '" + f.text + "'");
  if (v < 0)
    throw InputError(SourceLoc{file, line, f.column},
                     std::string(what) + " must be >= 0, not '" + f.text + "'");
  return v;
}

// A row: size count type redop [root] then (time algbw busbw #wrong) out-of-place and in-place.
NcclTestsRow parse_row(const std::vector<Field> &f, const std::string &file, int line,
                       size_t line_length) {
  const bool has_root = f.size() == 13;
  if (f.size() != 13 && f.size() != 12)
    throw InputError(SourceLoc{file, line, f.size() < 12 ? int(line_length) + 1 : f[13].column},
                     "an nccl-tests row has 13 fields (size count type redop root, then time "
                     "algbw busbw #wrong out-of-place and in-place), this one " +
                         std::to_string(f.size()) + (f.size() < 12 ? " (cut short?)" : ""));
  NcclTestsRow r;
  r.line = line;
  r.bytes = number(f[0], file, line, "size");
  // a whole number that converts to int64_t exactly (at most 2^53)
  const double count = number(f[1], file, line, "count");
  if (!(count <= 9007199254740992.0) || count != std::floor(count))
    throw InputError(SourceLoc{file, line, f[1].column},
                     "count must be a whole number of at most 2^53, not '" + f[1].text + "'");
  r.count = int64_t(count);
  r.type = f[2].text;
  r.redop = f[3].text;
  const size_t b = has_root ? 5 : 4;
  auto wrong = [&](const Field &w) {
    if (w.text == "N/A") // nccl-tests -c 0: not checked
      return;
    if (number(w, file, line, "#wrong") != 0)
      throw InputError(SourceLoc{file, line, w.column},
                       "this row reports " + w.text +
                           " wrong elements: its times are not of a correct run");
  };
  r.seconds_out = number(f[b], file, line, "time") * 1e-6;
  r.algbw_out = number(f[b + 1], file, line, "algbw") * 1e9;
  r.busbw_out = number(f[b + 2], file, line, "busbw") * 1e9;
  wrong(f[b + 3]);
  r.seconds_in = number(f[b + 4], file, line, "time") * 1e-6;
  r.algbw_in = number(f[b + 5], file, line, "algbw") * 1e9;
  r.busbw_in = number(f[b + 6], file, line, "busbw") * 1e9;
  wrong(f[b + 7]);
  return r;
}

} // namespace

std::vector<NcclTestsRun> parse_nccl_tests(const std::string &text, const std::string &file) {
  std::vector<NcclTestsRun> runs;
  std::optional<Collective> next_collective;
  bool open = false; // a run whose closing line has not come
  int rank_lines = 0;
  std::istringstream in(text);
  std::string line;
  int no = 0;
  auto close_check = [&](int at) {
    if (open)
      throw InputError(SourceLoc{file, at, 1},
                       "the nccl-tests run started at line " +
                           std::to_string(runs.back().header.line) +
                           " ends without its '# Avg bus bandwidth' line (truncated?)");
  };
  while (std::getline(in, line)) {
    ++no;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    const auto f = split(line);
    if (f.empty())
      continue;
    if (f[0].text[0] == '#') {
      const std::string body = trim_hash(line);
      if (starts_with(body, "Collective test starting:")) {
        close_check(no);
        const std::string name = trim_hash(body.substr(25));
        next_collective = parse_collective(split(name).empty() ? "" : split(name)[0].text);
      } else if (starts_with(body, "nThread")) {
        close_check(no);
        NcclTestsRun r;
        r.header = SourceLoc{file, no, 1};
        r.collective = next_collective;
        next_collective.reset();
        const auto h = split(body);
        // nThread and nGpus: whole numbers from 1 to 2^20 each (so their product, the ranks,
        // cannot overflow); anything else is an error at the number.
        const size_t body_at = line.find(body);
        auto count = [&](const Field &v, const std::string &name) {
          char *end = nullptr;
          errno = 0;
          const long long n = std::strtoll(v.text.c_str(), &end, 10);
          if (errno || end == v.text.c_str() || *end || n < 1 || n > (1 << 20))
            throw InputError(
                SourceLoc{file, no, int(body_at == std::string::npos ? 0 : body_at) + v.column},
                name + " '" + v.text + "' is not a count from 1 to 1048576");
          return int64_t(n);
        };
        int64_t threads = 1, gpus = 1;
        for (size_t i = 0; i + 1 < h.size(); ++i) {
          if (h[i].text == "nThread")
            threads = count(h[i + 1], "nThread");
          if (h[i].text == "nGpus")
            gpus = count(h[i + 1], "nGpus");
        }
        r.ranks = threads * gpus;
        runs.push_back(r);
        open = true;
        rank_lines = 0;
      } else if (open && starts_with(body, "Rank") && runs.back().rows.empty()) {
        // the rank lines count the ranks (MPI runs: nGpus is per process)
        if (!rank_lines)
          runs.back().ranks = 0;
        ++rank_lines;
        ++runs.back().ranks;
      } else if (open && starts_with(body, "Avg bus bandwidth")) {
        if (runs.back().rows.empty())
          throw InputError(SourceLoc{file, no, 1}, "the nccl-tests run started at line " +
                                                       std::to_string(runs.back().header.line) +
                                                       " has no rows");
        open = false;
      }
      continue;
    }
    if (!open)
      throw InputError(SourceLoc{file, no, 1},
                       runs.empty() ? "not nccl-tests output: a row before the '# nThread ...' "
                                      "header line"
                                    : "a row after its run's '# Avg bus bandwidth' line");
    runs.back().rows.push_back(parse_row(f, file, no, line.size()));
  }
  if (runs.empty())
    throw InputError(SourceLoc{file, no > 0 ? 1 : 0, no > 0 ? 1 : 0},
                     "not nccl-tests output: no '# nThread ... nGpus ...' header line");
  close_check(no + 1);
  return runs;
}

std::vector<NcclTestsRun> read_nccl_tests(const std::string &path) {
  return parse_nccl_tests(read_file(path), path);
}

Collective run_collective(const NcclTestsRun &r, std::optional<Collective> given, int64_t n) {
  if (r.collective) {
    if (given && *given != *r.collective)
      throw InputError(r.header, "this run is " + std::string(to_string(*r.collective)) +
                                     " (its 'Collective test starting' line), not " +
                                     std::string(to_string(*given)));
    return *r.collective;
  }
  if (given)
    return *given;
  const NcclTestsRow *big = &r.rows.front();
  for (const auto &row : r.rows)
    if (row.algbw_out > big->algbw_out)
      big = &row;
  const double ratio = big->algbw_out > 0 ? big->busbw_out / big->algbw_out : 0;
  const bool reduces = big->redop != "none";
  auto near = [&](double f) { return std::abs(ratio - f) <= 0.02 * f; };
  if (near(bus_factor(Collective::all_reduce, n)) && reduces && n > 1)
    return Collective::all_reduce;
  if (near(bus_factor(Collective::reduce_scatter, n)) && reduces && n > 1)
    return Collective::reduce_scatter;
  if (near(1) && !reduces)
    return Collective::send_recv;
  throw InputError(r.header, "cannot tell which collective this run measured (no 'Collective "
                             "test starting' line; busbw / algbw " +
                                 std::to_string(ratio).substr(0, 5) + " for " + std::to_string(n) +
                                 " ranks): give --collective");
}

} // namespace perfmodel::io
