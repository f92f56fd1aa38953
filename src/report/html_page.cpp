// The HTML report's building blocks: escaping, tables from Grids, share bars, and the page's
// inline style sheet and sortable-table script.
#include <cmath>
#include <fmt/format.h>

#include "report/html.hpp"

namespace perfmodel::report::html {

namespace {

// The length of the UTF-8 sequence starting at s[i] (1 to 4), or 0 when it is not valid UTF-8
// (a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF, or cut short).
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n = 0;
  unsigned lo = 0x80, hi = 0xBF; // the range of the second byte
  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0)
      lo = 0xA0;
    if (c == 0xED)
      hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0)
      lo = 0x90;
    if (c == 0xF4)
      hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size())
    return 0;
  if (b(i + 1) < lo || b(i + 1) > hi)
    return 0;
  for (size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF)
      return 0;
  return n;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

bool numeric(const ColumnSpec &c) {
  return c.unit.kind != Unit::Kind::text && c.unit.kind != Unit::Kind::flag;
}

// The raw value of a numeric cell for sorting ("" when the cell has none).
std::string sort_value(const Value &v) {
  if (const auto *d = std::get_if<double>(&v))
    return num(*d);
  if (const auto *i = std::get_if<int64_t>(&v))
    return std::to_string(*i);
  if (const auto *b = std::get_if<bool>(&v))
    return *b ? "1" : "0";
  return "";
}

} // namespace

std::string esc(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    const size_t n = utf8_length(s, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7F)
        out += kReplacement;
      else
        out += c;
    }
    ++i;
  }
  return out;
}

std::string num(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "0"; }

std::string_view bound_color(std::string_view bound) {
  if (bound == "compute")
    return "#3566d6";
  if (bound == "memory")
    return "#e0801b";
  if (bound == "overhead")
    return "#8a94a6";
  return "#c3c8d1";
}

std::string table(const Grid &g, const TableOptions &o) {
  std::vector<size_t> shown;
  for (size_t i = 0; i < g.columns.size(); ++i)
    if (visible(g, i, Format::table))
      shown.push_back(i);
  std::string s = "<div class=\"wrap\"><table";
  if (!o.id.empty())
    s += " id=\"" + esc(o.id) + "\"";
  if (o.sortable)
    s += " class=\"sortable\"";
  s += ">\n<thead><tr>";
  for (size_t i : shown) {
    const ColumnSpec &c = g.columns[i];
    s += fmt::format("<th data-key=\"{}\" data-type=\"{}\"{}>{}</th>", esc(c.key),
                     numeric(c) ? "num" : "text", numeric(c) ? " class=\"n\"" : "", esc(c.header));
  }
  s += "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < g.rows.size(); ++r) {
    s += fmt::format("<tr data-i=\"{}\">", r);
    for (size_t i : shown) {
      const ColumnSpec &c = g.columns[i];
      const Value &v = g.rows[r][i];
      const std::string text = format_cell(c, v, Format::table, g.style);
      if (c.key == o.bound_key && !text.empty()) {
        s += "<td><span class=\"pill b-" + esc(text) + "\">" + esc(text) + "</span></td>";
      } else if (c.key == o.name_key) {
        const auto *whole = std::get_if<std::string>(&v); // the title holds the uncut name
        s += "<td class=\"name\" title=\"" + esc(whole ? *whole : text) + "\">" + esc(text) +
             "</td>";
      } else if (numeric(c)) {
        const std::string sv = sort_value(v);
        s += "<td class=\"n\"" + (sv.empty() ? std::string() : " data-v=\"" + sv + "\"") + ">" +
             esc(text) + "</td>";
      } else {
        s += "<td>" + esc(text) + "</td>";
      }
    }
    s += "</tr>\n";
  }
  s += "</tbody>\n";
  if (!g.text_rows.empty()) {
    s += "<tfoot>\n";
    for (const auto &row : g.text_rows) {
      s += "<tr>";
      for (size_t k = 0; k < row.size() && k < shown.size(); ++k)
        s += std::string(numeric(g.columns[shown[k]]) ? "<td class=\"n\">" : "<td>") + esc(row[k]) +
             "</td>";
      s += "</tr>\n";
    }
    s += "</tfoot>\n";
  }
  return s + "</table></div>\n";
}

std::string share_bar(const std::vector<Segment> &segments) {
  double total = 0;
  for (const Segment &g : segments)
    total += std::max(0.0, g.value);
  std::string bar = "<div class=\"bar\">", legend = "<div class=\"legend\">";
  for (const Segment &g : segments) {
    const double share = total > 0 ? std::max(0.0, g.value) / total : 0;
    const std::string title =
        esc(g.label) + " " + esc(pct(share)) + (g.detail.empty() ? "" : " (" + esc(g.detail) + ")");
    if (share > 0)
      bar += fmt::format("<span style=\"width:{}%;background:{}\" title=\"{}\"></span>",
                         num(100 * share), esc(g.color), title);
    legend += fmt::format("<span><i style=\"background:{}\"></i>{} <b>{}</b>{}</span>",
                          esc(g.color), esc(g.label), esc(pct(share)),
                          g.detail.empty() ? "" : " <small>" + esc(g.detail) + "</small>");
  }
  return bar + "</div>" + legend + "</div>\n";
}

std::string_view stylesheet() {
  return R"css(
:root{--fg:#1c2330;--muted:#5d6878;--faint:#8b95a5;--line:#e4e8ee;--panel:#f6f8fb;
--accent:#2f6fde;--compute:#3566d6;--memory:#e0801b;--overhead:#8a94a6;--none:#c3c8d1}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:#fff;font:15px/1.5 system-ui,-apple-system,"Segoe UI",
Roboto,"Noto Sans","Liberation Sans","DejaVu Sans",Arial,sans-serif;-webkit-font-smoothing:antialiased}
main{max-width:1320px;margin:0 auto;padding:28px 32px 64px}
header{padding-bottom:16px}
.kicker{font-size:12px;font-weight:600;letter-spacing:.09em;text-transform:uppercase;color:var(--accent)}
h1{font-size:30px;line-height:1.2;margin:6px 0 6px;font-weight:650;letter-spacing:-.015em}
h1 .on{color:var(--faint);font-weight:400}
.sub{margin:0;color:var(--muted)}
nav{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid var(--line);
margin:0 -32px;padding:9px 32px;font-size:14px}
nav a{color:var(--muted);text-decoration:none;margin-right:20px;font-weight:500}
nav a:hover{color:var(--accent)}
section{margin-top:38px;scroll-margin-top:56px}
h2{font-size:20px;margin:0 0 2px;font-weight:650;letter-spacing:-.01em}
h3{font-size:15px;margin:22px 0 6px;font-weight:600}
p.note,.note{color:var(--muted);font-size:13.5px;margin:2px 0 14px;max-width:80em}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin:18px 0}
.card{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:12px 16px}
.card .k{font-size:11.5px;font-weight:600;letter-spacing:.06em;text-transform:uppercase;color:var(--muted)}
.card .v{font-size:25px;font-weight:650;font-variant-numeric:tabular-nums;margin:2px 0;white-space:nowrap}
.card .d{font-size:12.5px;color:var(--muted)}
.bar{display:flex;height:16px;border-radius:5px;overflow:hidden;background:var(--line);margin:8px 0 8px}
.bar span{display:block;height:100%}
.legend{display:flex;flex-wrap:wrap;gap:4px 22px;font-size:13.5px;color:var(--fg)}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
.legend small{color:var(--muted);font-size:12.5px}
ul.assume{margin:10px 0 0;padding:0;list-style:none;font-size:13px;color:var(--muted)}
ul.assume li{padding:1px 0}
.wrap{overflow-x:auto;border:1px solid var(--line);border-radius:8px}
table{border-collapse:collapse;width:100%;font-size:12.5px;font-variant-numeric:tabular-nums}
th,td{padding:4px 9px;text-align:left;white-space:nowrap;border-bottom:1px solid var(--line)}
tbody tr:last-child td{border-bottom:0}
th{position:sticky;top:0;background:#fbfcfd;font-weight:600;color:var(--muted);font-size:12px;
letter-spacing:.02em;border-bottom:1px solid #d5dbe3}
.n{text-align:right}
td.name{max-width:290px;overflow:hidden;text-overflow:ellipsis}
tbody tr:nth-child(even){background:#fafbfc}
tbody tr:hover{background:#eef3fc}
tfoot td{color:var(--muted);font-weight:600;background:#fbfcfd;border-top:1px solid #d5dbe3}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th:hover{color:var(--accent)}
th[aria-sort]{color:var(--fg)}
th[aria-sort=descending]::after{content:" \25BE"}
th[aria-sort=ascending]::after{content:" \25B4"}
.pill{display:inline-block;min-width:66px;text-align:center;padding:0 8px;border-radius:999px;
font-size:11.5px;font-weight:600;color:#fff;line-height:18px}
.b-compute{background:var(--compute)}.b-memory{background:var(--memory)}
.b-overhead{background:var(--overhead)}.b-none{background:var(--none);color:var(--fg)}
figure{margin:12px 0 0}
figure svg{display:block;width:100%;height:auto}
figcaption{font-size:13px;color:var(--muted);margin-top:4px}
svg text{font-family:inherit}
svg .tick{font-size:11.5px;fill:#6b7585}
svg .axis{font-size:12.5px;fill:#4a5464;font-weight:500}
svg .grid{stroke:#edf0f4}
svg .lbl{font-size:11.5px;fill:#1c2330;paint-order:stroke;stroke:#fff;stroke-width:3px}
svg circle.pt:hover,svg rect.pb:hover{stroke:#1c2330;stroke-width:1.5}
.two{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:28px;align-items:start}
@media (max-width:900px){.two{grid-template-columns:1fr}}
footer{margin-top:48px;padding-top:14px;border-top:1px solid var(--line);font-size:12.5px;color:var(--faint)}
)css";
}

std::string_view script() {
  // Sorting: a header click sorts its table (numbers largest first, text A-Z; a second click
  // reverses); the fragment #sort=KEY[:asc|desc] sorts the layer table on load and on change.
  // Missing values sort last; ties keep the rows' original order (data-i).
  return R"js(
(function(){
function cellValue(td,num){
  var v=td.getAttribute('data-v');
  if(num)return v===null||v===''?NaN:parseFloat(v);
  return td.textContent.toLowerCase();
}
function sortTable(table,key,dir){
  var ths=table.tHead.rows[0].cells,col=-1,i;
  for(i=0;i<ths.length;i++)if(ths[i].getAttribute('data-key')===key)col=i;
  if(col<0)return false;
  var th=ths[col],num=th.getAttribute('data-type')==='num';
  if(dir!=='asc'&&dir!=='desc')dir=num?'desc':'asc';
  var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
  rows.sort(function(a,b){
    var x=cellValue(a.cells[col],num),y=cellValue(b.cells[col],num),c=0;
    if(num&&(isNaN(x)||isNaN(y)))c=isNaN(x)?(isNaN(y)?0:1):-1;
    else{c=x<y?-1:x>y?1:0;if(dir==='desc')c=-c;}
    return c||(a.getAttribute('data-i')-b.getAttribute('data-i'));
  });
  for(i=0;i<rows.length;i++)body.appendChild(rows[i]);
  for(i=0;i<ths.length;i++)ths[i].removeAttribute('aria-sort');
  th.setAttribute('aria-sort',dir==='asc'?'ascending':'descending');
  return true;
}
function fromHash(){
  var m=/^#sort=([A-Za-z0-9_]+)(?::(asc|desc))?$/.exec(location.hash),t=document.getElementById('layers');
  if(m&&t&&sortTable(t,m[1],m[2]))return true;
  return false;
}
var tables=document.querySelectorAll('table.sortable');
Array.prototype.forEach.call(tables,function(t){
  Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th){
    th.addEventListener('click',function(){
      var key=th.getAttribute('data-key'),cur=th.getAttribute('aria-sort'),num=th.getAttribute('data-type')==='num';
      var dir=cur?(cur==='descending'?'asc':'desc'):(num?'desc':'asc');
      sortTable(t,key,dir);
      if(t.id==='layers'&&history.replaceState)try{history.replaceState(null,'','#sort='+key+':'+dir);}catch(e){}
    });
  });
});
fromHash();
window.addEventListener('hashchange',function(){
  if(fromHash()){var t=document.getElementById('layers-section');if(t)t.scrollIntoView();}
});
})();
)js";
}

} // namespace perfmodel::report::html
