// A sweep's points in chunks (report/points_writer.hpp).
#include "report/points_writer.hpp"

#include <algorithm>

#include "perfmodel/report/json_text.hpp"

namespace perfmodel::report {

namespace {

// Every line of `text` indented by `by` spaces.
std::string indented(const std::string &text, size_t by) {
  std::string out(by, ' ');
  for (char c : text) {
    out += c;
    if (c == '\n')
      out.append(by, ' ');
  }
  return out;
}

} // namespace

void write_points(size_t count, const std::function<Grid(size_t at, size_t n)> &grid_of,
                  const Json &head, const std::string &title, Format f,
                  const std::function<void(std::string_view)> &out) {
  const auto for_each_chunk = [&](const auto &each) {
    for (size_t at = 0; at < count; at += kPointsChunk)
      each(grid_of(at, std::min(kPointsChunk, count - at)), at == 0);
  };
  switch (f) {
  case Format::csv:
    for_each_chunk([&](const Grid &g, bool first) { out(csv(g, first)); });
    return;
  case Format::md:
    out("**" + md_cell(title) + "**\n\n");
    for_each_chunk([&](const Grid &g, bool first) { out(markdown(g, first)); });
    return;
  case Format::json: {
    // json_text's layout, written a point at a time: the head without "points", then each
    // point object at its depth (4 spaces), then the closing brackets.
    std::string text = json_text(head);
    text.erase(text.size() - 3); // "\n}\n"
    out(text + ",\n  \"points\": [");
    bool any = false;
    for_each_chunk([&](const Grid &g, bool) {
      std::string piece;
      for (size_t i = 0; i < g.rows.size(); ++i) {
        const std::string row = json_text(json_row(g, i));
        piece += (any ? ",\n" : "\n") + indented(row.substr(0, row.size() - 1), 4);
        any = true;
      }
      out(piece);
    });
    out(any ? "\n  ]\n}\n" : "]\n}\n");
    return;
  }
  case Format::table:
    break;
  }
  out(title + "\n");
  std::vector<size_t> w;
  for_each_chunk([&](const Grid &g, bool first) { widen_table(g, first, w); });
  for_each_chunk([&](const Grid &g, bool first) { out(table_lines(g, first, w)); });
}

} // namespace perfmodel::report
