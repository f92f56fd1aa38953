// What the training and the serving plan views share (plan_view.cpp, plan_infer_view.cpp): the
// CSV of every ranked split, the text/Markdown table of the best `top` with the dropped counts
// above it, and the frontier plot's two data blocks. `cells(i, candidate, csv)` gives a row.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "perfmodel/report/format.hpp"
#include "perfmodel/report/plot/gnuplot.hpp"
#include "perfmodel/report/text_table.hpp"

namespace perfmodel::report::plan_common {

template <class Result, class Cells>
std::string csv(const Result &r, const std::vector<std::string> &head, Cells cells) {
  std::string out;
  for (size_t i = 0; i < head.size(); ++i)
    out += (i ? "," : "") + csv_field(head[i]);
  out += "\n";
  for (size_t i = 0; i < r.ranked.size(); ++i) {
    const auto row = cells(i, r.ranked[i], true);
    for (size_t k = 0; k < row.size(); ++k)
      out += (k ? "," : "") + csv_field(row[k]);
    out += "\n";
  }
  return out;
}

// "plan: TITLE: N splits, M fit (C per device)", a line per drop reason, then the table.
template <class Result, class Cells>
std::string table(const std::string &title, const Result &r, size_t top, Format f,
                  const std::vector<std::string> &head, Cells cells) {
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.ranked.size() && i < top; ++i)
    rows.push_back(cells(i, r.ranked[i], false));
  std::string out = "plan: " + title + ": " + std::to_string(r.enumerated) + " splits, " +
                    std::to_string(r.ranked.size()) + " fit (" + si(r.capacity, "B") +
                    " per device)\n";
  for (const auto &[why, n] : r.dropped)
    out += "  dropped " + std::to_string(n) + ": " + why + "\n";
  out += "\n";
  if (f == Format::md) {
    out += md_table(head, rows);
  } else {
    TextTable t(head);
    for (auto &row : rows)
      t.add(row);
    out += t.str();
  }
  if (r.ranked.size() > top)
    out += "(" + std::to_string(r.ranked.size() - top) + " more: --top N, or --format csv|json)\n";
  return out;
}

// Block 0: x y of every ranked split; block 1: the frontier's, in increasing x.
template <class Candidate, class X>
std::string frontier_data(const std::vector<Candidate> &ranked, X x, const std::string &x_name) {
  std::string d = "# " + x_name +
                  " tokens_per_second_per_device (block 0: every fitting split; block 1: the "
                  "frontier)\n";
  for (const auto &k : ranked)
    d += plot::gp_num(x(k)) + " " + plot::gp_num(k.tokens_per_second_per_device) + "\n";
  d += "\n\n";
  std::vector<const Candidate *> front;
  for (const auto &k : ranked)
    if (k.frontier)
      front.push_back(&k);
  std::sort(front.begin(), front.end(), [&](auto *a, auto *b) { return x(*a) < x(*b); });
  for (const auto *k : front)
    d += plot::gp_num(x(*k)) + " " + plot::gp_num(k->tokens_per_second_per_device) + "\n";
  return d;
}

} // namespace perfmodel::report::plan_common
