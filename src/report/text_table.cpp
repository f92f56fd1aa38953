// TextTable rendering.
#include "perfmodel/report/text_table.hpp"

#include <algorithm>

namespace perfmodel::report {

std::string TextTable::str() const {
  std::vector<size_t> w(header_.size(), 0);
  auto widen = [&](const std::vector<std::string> &r) {
    for (size_t i = 0; i < r.size() && i < w.size(); ++i)
      w[i] = std::max(w[i], r[i].size());
  };
  widen(header_);
  for (const auto &r : rows_)
    widen(r);
  std::string out;
  auto line = [&](const std::vector<std::string> &r) {
    std::string s;
    for (size_t i = 0; i < w.size(); ++i) {
      const std::string cell = i < r.size() ? r[i] : "";
      s += cell;
      if (i + 1 < w.size())
        s += std::string(w[i] - cell.size() + 2, ' ');
    }
    while (!s.empty() && s.back() == ' ')
      s.pop_back();
    out += s + "\n";
  };
  line(header_);
  for (const auto &r : rows_)
    line(r);
  return out;
}

} // namespace perfmodel::report
