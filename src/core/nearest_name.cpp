// Edit distance and the nearest known name, for "did you mean" suggestions.
#include "perfmodel/nearest_name.hpp"

#include <algorithm>
#include <cctype>

namespace perfmodel {

std::string ascii_lower(std::string_view s) {
  std::string r(s);
  for (auto &c : r)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return r;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ascii_lower(a) == ascii_lower(b);
}

namespace {

char fold(char c) { return char(std::tolower(static_cast<unsigned char>(c))); }

// The letters that identify a name: no leading dashes, no '-' or '_' separators, lower case.
std::string key(std::string_view s) {
  std::string k;
  for (char c : s)
    if (c != '-' && c != '_')
      k.push_back(fold(c));
  return k;
}

} // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  // Three rows of the dynamic programme: i-2, i-1 and i.
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j)
    prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const bool same = fold(a[i - 1]) == fold(b[j - 1]);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]))
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::optional<std::string> nearest_name(std::string_view typed,
                                        const std::vector<std::string> &candidates) {
  const std::string t = key(typed);
  std::optional<std::string> best;
  std::size_t best_d = 0;
  for (const auto &c : candidates) {
    const std::string k = key(c);
    if (k.empty() || t.empty())
      continue;
    const std::size_t d = edit_distance(t, k);
    const std::size_t longer = std::max(t.size(), k.size());
    const std::size_t shorter = std::min(t.size(), k.size());
    const bool prefix = shorter >= 3 && (t.rfind(k, 0) == 0 || k.rfind(t, 0) == 0);
    if (d > std::max<std::size_t>(1, longer / 3) && !prefix)
      continue;
    if (!best || d < best_d) {
      best = c;
      best_d = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string> &candidates) {
  const auto n = nearest_name(typed, candidates);
  return n ? " (did you mean '" + *n + "'?)" : std::string();
}

} // namespace perfmodel
