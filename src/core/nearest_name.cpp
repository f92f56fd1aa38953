// Case-insensitive names and the nearest known name (see nearest_name.hpp).
#include "perfmodel/nearest_name.hpp"

#include <algorithm>

namespace perfmodel {

std::string ascii_lower(const std::string &s) {
  std::string r = s;
  for (auto &c : r)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return r;
}

bool iequals(const std::string &a, const std::string &b) {
  return a.size() == b.size() && ascii_lower(a) == ascii_lower(b);
}

size_t edit_distance(const std::string &a_in, const std::string &b_in) {
  const std::string a = ascii_lower(a_in), b = ascii_lower(b_in);
  const size_t n = a.size(), m = b.size();
  // Three rows of the dynamic programme: i-2, i-1 and i (the transposition looks two back).
  std::vector<size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j)
    prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(cur);
  }
  return prev[m];
}

std::optional<std::string> nearest_name(const std::string &typed,
                                        const std::vector<std::string> &known) {
  if (typed.empty())
    return std::nullopt;
  const std::string lower = ascii_lower(typed);
  const size_t limit = std::max<size_t>(1, typed.size() / 3);
  std::optional<std::string> best;
  size_t best_d = 0;
  for (const auto &k : known) {
    if (iequals(k, typed))
      return std::nullopt;
    const size_t d = edit_distance(typed, k);
    const bool prefix = ascii_lower(k).rfind(lower, 0) == 0;
    if (d > limit && !prefix)
      continue;
    // A prefix counts as its own distance but never loses to a name beyond the limit.
    if (!best || d < best_d) {
      best = k;
      best_d = d;
    }
  }
  return best;
}

std::string did_you_mean(const std::string &typed, const std::vector<std::string> &known) {
  const auto n = nearest_name(typed, known);
  return n ? " (did you mean '" + *n + "'?)" : "";
}

} // namespace perfmodel
