// A small XML well-formedness check for the SVG tests (tags nest, attributes are quoted,
// entities are complete, no stray '<', '&' or "]]>" in text). Not a validator.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace perfmodel::test {

/// "" when `x` is well-formed, else what is wrong and where (byte offset).
inline std::string xml_problem(const std::string &x) {
  std::vector<std::string> stack;
  size_t i = 0, n = x.size();
  bool root_seen = false;
  auto err = [&](const std::string &what) { return what + " at byte " + std::to_string(i); };
  auto entity_ok = [&](size_t at) { // x[at] == '&'
    size_t semi = x.find(';', at);
    if (semi == std::string::npos || semi - at > 10 || semi == at + 1)
      return false;
    for (size_t k = at + 1; k < semi; ++k)
      if (!std::isalnum(static_cast<unsigned char>(x[k])) && x[k] != '#')
        return false;
    return true;
  };
  while (i < n) {
    if (x[i] != '<') {
      if (x[i] == '&' && !entity_ok(i))
        return err("bare '&'");
      if (x.compare(i, 3, "]]>") == 0)
        return err("']]>' in text");
      if (stack.empty() && !std::isspace(static_cast<unsigned char>(x[i])))
        return err("text outside the root element");
      ++i;
      continue;
    }
    auto skip_to = [&](const char *end) {
      size_t e = x.find(end, i);
      if (e == std::string::npos)
        return false;
      i = e + std::char_traits<char>::length(end);
      return true;
    };
    if (x.compare(i, 4, "<!--") == 0) {
      if (!skip_to("-->"))
        return err("unterminated comment");
    } else if (x.compare(i, 9, "<![CDATA[") == 0) {
      if (!skip_to("]]>"))
        return err("unterminated CDATA");
    } else if (x.compare(i, 2, "<?") == 0) {
      if (!skip_to("?>"))
        return err("unterminated processing instruction");
    } else if (x.compare(i, 2, "<!") == 0) { // DOCTYPE (no internal subset expected)
      if (!skip_to(">"))
        return err("unterminated declaration");
    } else {
      bool closing = x.compare(i, 2, "</") == 0;
      i += closing ? 2 : 1;
      size_t s = i;
      while (i < n && (std::isalnum(static_cast<unsigned char>(x[i])) || x[i] == ':' ||
                       x[i] == '-' || x[i] == '_' || x[i] == '.'))
        ++i;
      std::string name = x.substr(s, i - s);
      if (name.empty())
        return err("'<' without a tag name");
      bool self_closing = false;
      while (true) { // attributes
        while (i < n && std::isspace(static_cast<unsigned char>(x[i])))
          ++i;
        if (i >= n)
          return err("unterminated tag <" + name);
        if (x[i] == '>') {
          ++i;
          break;
        }
        if (x.compare(i, 2, "/>") == 0 && !closing) {
          i += 2;
          self_closing = true;
          break;
        }
        if (closing)
          return err("junk in </" + name + ">");
        size_t a = i;
        while (i < n && x[i] != '=' && !std::isspace(static_cast<unsigned char>(x[i])) &&
               x[i] != '>')
          ++i;
        if (i == a || i >= n || x[i] != '=')
          return err("attribute without a value in <" + name);
        ++i;
        if (i >= n || (x[i] != '"' && x[i] != '\''))
          return err("unquoted attribute in <" + name);
        char q = x[i++];
        size_t e = x.find(q, i);
        if (e == std::string::npos)
          return err("unterminated attribute in <" + name);
        for (size_t k = i; k < e; ++k) {
          if (x[k] == '<')
            return err("'<' in an attribute of <" + name);
          if (x[k] == '&' && !entity_ok(k))
            return err("bare '&' in an attribute of <" + name);
        }
        i = e + 1;
      }
      if (closing) {
        if (stack.empty() || stack.back() != name)
          return err("mismatched </" + name + ">");
        stack.pop_back();
      } else if (!self_closing) {
        if (stack.empty() && root_seen)
          return err("second root element <" + name);
        stack.push_back(name);
        root_seen = true;
      } else if (stack.empty()) {
        root_seen = true;
      }
    }
  }
  if (!stack.empty())
    return "unclosed <" + stack.back() + "> at the end";
  if (!root_seen)
    return "no root element";
  return "";
}

} // namespace perfmodel::test
