// Pieces every generated gnuplot script shares: string escaping, number format, terminals.
//
// Every user-supplied string (layer, model and hardware names, file names) reaches a script
// only through gp_quote(): a single-quoted gnuplot string, in which gnuplot expands neither
// backquotes (shell commands), nor @macros, nor backslash escapes, and a quote is written ''.
// Scripts refer to their data file and image by base name and are run from their folder, so a
// kept script renders the same way by hand (`cd DIR && gnuplot NAME.gp`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace perfmodel::report::plot {

enum class ImageKind { svg, png, pdf };

/// The image type for a path, by its extension (.svg, .png, .pdf, case-insensitive).
std::optional<ImageKind> image_kind(std::string_view path);
std::string_view extension_of(ImageKind k); // "svg"

/// A gnuplot single-quoted string literal holding `s` as plain text: quotes doubled, control
/// characters and invalid UTF-8 replaced (a newline would end the command), and "]]>" broken
/// up (gnuplot's SVG terminal writes text unescaped there, and XML forbids it).
std::string gp_quote(std::string_view s);

/// `s` made safe for a `#` comment line of a script or data file (no line breaks).
std::string gp_comment(std::string_view s);

/// A number as gnuplot reads it ("%.6g"; NaN for missing values, which gnuplot skips).
std::string gp_num(double v);

/// The `set terminal` line for an image type; text is never "enhanced" (no markup in names).
std::string terminal_line(ImageKind k, int width_px, int height_px);

/// Colour `i` of a fixed palette of distinct colours (as '#rrggbb').
std::string_view palette_color(size_t i);

/// The generated files of one plot, before they are written.
struct PlotScript {
  std::string script; // the gnuplot commands
  std::string data;   // the data file the script reads
};

/// Base names of the files beside an image: `out/roofline.svg` -> roofline.gp, roofline.dat.
struct PlotPaths {
  std::string dir;                                   // "." when the image path has no folder
  std::string image_name;                            // roofline.svg
  std::string script_name;                           // roofline.gp
  std::string data_name;                             // roofline.dat
  std::string in_dir(const std::string &name) const; // dir + "/" + name
};
PlotPaths plot_paths(const std::string &image_path);

/// The script preamble: terminal, output (`outfile`, which the runner overrides with a
/// temporary name), the data file variable and the title.
std::string script_header(const PlotPaths &paths, ImageKind kind, int width_px, int height_px,
                          std::string_view what, std::string_view title);

} // namespace perfmodel::report::plot
