// Parsing of sweep axes: integer lists and ranges (`1:1024:x2`, `1:64:+8`) and string lists.
#include <algorithm>
#include <charconv>
#include <set>

#include "perfmodel/sweep.hpp"

namespace perfmodel {
namespace {

constexpr int64_t kLimit = int64_t(1) << 53;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    out.push_back(s.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos)
      break;
    start = pos + 1;
  }
  return out;
}

[[noreturn]] void fail(std::string_view axis, std::string_view item, const std::string &what) {
  throw InputError(std::string(axis) + ": '" + std::string(item) + "': " + what);
}

int64_t parse_int(std::string_view axis, std::string_view item, std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '+')
    text.remove_prefix(1);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size())
    fail(axis, item, "'" + std::string(text) + "' is not an integer");
  // Bounded so that range arithmetic can never overflow.
  if (ec == std::errc::result_out_of_range || v > kLimit || v < -kLimit)
    fail(axis, item, "integer out of range");
  return v;
}

void expand_range(std::string_view axis, std::string_view item, std::vector<int64_t> &out) {
  auto parts = split(item, ':');
  if (parts.size() > 3)
    fail(axis, item, "a range is start:end[:+step|:xfactor]");
  int64_t a = parse_int(axis, item, parts[0]);
  int64_t b = parse_int(axis, item, parts[1]);
  if (a > b)
    fail(axis, item, "range start is greater than its end");
  std::string_view step = parts.size() == 3 ? trim(parts[2]) : std::string_view("+1");
  auto too_many = [&] {
    fail(axis, item, "expands to more than " + std::to_string(kMaxAxisValues) + " values");
  };
  if (!step.empty() && (step.front() == 'x' || step.front() == '*')) {
    int64_t f = parse_int(axis, item, step.substr(1));
    if (f < 2)
      fail(axis, item, "a range factor must be at least 2");
    if (a < 1)
      fail(axis, item, "a range with a factor must start at 1 or more");
    for (int64_t v = a; v <= b; v *= f) {
      out.push_back(v);
      if (v > b / f)
        break; // the next value would pass b (or overflow)
    }
  } else if (!step.empty() &&
             (step.front() == '+' || (step.front() >= '0' && step.front() <= '9'))) {
    int64_t s = parse_int(axis, item, step);
    if (s < 1)
      fail(axis, item, "a range step must be at least 1");
    if ((b - a) / s + 1 > kMaxAxisValues)
      too_many();
    for (int64_t v = a;; v += s) {
      out.push_back(v);
      if (b - v < s)
        break;
    }
  } else {
    fail(axis, item, "a range step is +N or xN, not '" + std::string(step) + "'");
  }
}

template <class T> void dedupe(std::vector<T> &v) {
  std::set<T> seen;
  std::vector<T> out;
  for (auto &x : v)
    if (seen.insert(x).second)
      out.push_back(x);
  v = std::move(out);
}

} // namespace

std::vector<int64_t> parse_int_axis(std::string_view text, std::string_view axis) {
  if (trim(text).empty())
    throw InputError(std::string(axis) + ": empty axis");
  std::vector<int64_t> out;
  for (std::string_view raw : split(text, ',')) {
    std::string_view item = trim(raw);
    if (item.empty())
      fail(axis, text, "empty item in the list");
    if (item.find(':') != std::string_view::npos)
      expand_range(axis, item, out);
    else
      out.push_back(parse_int(axis, item, item));
    if (int64_t(out.size()) > kMaxAxisValues)
      fail(axis, text, "expands to more than " + std::to_string(kMaxAxisValues) + " values");
  }
  dedupe(out);
  return out;
}

std::vector<std::string> parse_list_axis(std::string_view text, std::string_view axis) {
  if (trim(text).empty())
    throw InputError(std::string(axis) + ": empty axis");
  std::vector<std::string> out;
  for (std::string_view raw : split(text, ',')) {
    std::string_view item = trim(raw);
    if (item.empty())
      fail(axis, text, "empty item in the list");
    out.emplace_back(item);
  }
  dedupe(out);
  return out;
}

int64_t SweepResult::evaluated() const {
  return std::count_if(points.begin(), points.end(), [](auto &p) { return !p.skipped; });
}
int64_t SweepResult::skipped() const { return int64_t(points.size()) - evaluated(); }

} // namespace perfmodel
