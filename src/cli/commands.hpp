// One register_* function per subcommand; each lives in its own cmd_<name>.cpp.
#pragma once

#include "cli/common.hpp"

namespace perfmodel::cli {

void register_predict(CLI::App &app, Runner &run);
void register_list(CLI::App &app, Runner &run);
void register_info(CLI::App &app, Runner &run);
void register_convert(CLI::App &app, Runner &run);
void register_trace(CLI::App &app, Runner &run);
void register_sweep(CLI::App &app, Runner &run);
void register_roofline(CLI::App &app, Runner &run);
void register_calibrate(CLI::App &app, Runner &run);
void register_kernels(CLI::App &app, Runner &run);
void register_measure(CLI::App &app, Runner &run);
void register_llm(CLI::App &app, Runner &run);
void register_report(CLI::App &app, Runner &run);
void register_plan(CLI::App &app, Runner &run);

} // namespace perfmodel::cli
