// Writes a plot's script and data beside the image and runs gnuplot on them (no shell).
#pragma once

#include <string>
#include <vector>

#include "perfmodel/report/plot/gnuplot.hpp"

namespace perfmodel::report::plot {

/// The gnuplot executable: $PERFMODEL_GNUPLOT when set (a path or a name), else `gnuplot`,
/// searched on $PATH. "" when none is found.
std::string find_gnuplot();

struct RenderOutcome {
  bool rendered = false;   // the image was written
  bool kept_files = false; // the script and data file are still beside the image
  std::string script_path; // dir/name.gp
  std::string data_path;   // dir/name.dat
  std::string message;     // what to tell the user (how to render, where the files are)
};

/// Writes paths.script_name and paths.data_name into paths.dir (atomically), then runs
/// `gnuplot -e "outfile='<tmp>'" <script>` from paths.dir, renames the temporary image onto
/// paths.image_name and removes the script and data unless `keep_script`. Without gnuplot the
/// files are kept and the outcome says how to render them. Throws RuntimeFailure when gnuplot
/// fails (its message included; the files are kept for inspection).
RenderOutcome render_plot(const PlotPaths &paths, const PlotScript &plot, bool keep_script,
                          int timeout_seconds = 120);

/// Runs `argv` (argv[0] an executable path) in folder `dir` without a shell; returns its exit
/// status (-1 when killed after `timeout_seconds`) and stores its stderr in `err`.
int run_program(const std::vector<std::string> &argv, const std::string &dir, std::string &err,
                int timeout_seconds);

} // namespace perfmodel::report::plot
