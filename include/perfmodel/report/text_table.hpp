// A plain-text table with columns padded to their widest cell (two spaces between columns).
#pragma once

#include <string>
#include <vector>

namespace perfmodel::report {

class TextTable {
public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  /// Header, then rows; trailing spaces trimmed; a row shorter than the header is padded.
  std::string str() const;

private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

} // namespace perfmodel::report
