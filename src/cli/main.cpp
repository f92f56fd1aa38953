// perfmodel's entry point: parses the subcommand and maps errors to exit statuses
// (2 = bad input, 1 = failure at run time).
#include <cstdio>
#include <exception>

#include "cli/commands.hpp"
#include "cli/parse_errors.hpp"
#include "perfmodel/error.hpp"

int main(int argc, char **argv) {
  using namespace perfmodel;
  CLI::App app{"perfmodel: analytic performance model and roofline simulator for neural networks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("perfmodel ") + PERFMODEL_VERSION);
  cli::Runner run;
  cli::register_predict(app, run);
  cli::register_list(app, run);
  cli::register_info(app, run);
  cli::register_convert(app, run);
  cli::register_trace(app, run);
  cli::register_sweep(app, run);
  cli::register_roofline(app, run);
  cli::register_calibrate(app, run);
  cli::register_kernels(app, run);
  cli::register_measure(app, run);
  cli::register_llm(app, run);
  cli::register_plan(app, run);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::fprintf(stderr, "perfmodel: error: %s\n", cli::parse_error_message(app, e).c_str());
    return 2;
  } catch (const InputError &e) { // raised by option validators that read files
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  try {
    return run ? run() : 0;
  } catch (const InputError &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const RuntimeFailure &e) {
    std::fprintf(stderr, "perfmodel: error: %s\n", e.what());
    return 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "perfmodel: internal error: %s\n", e.what());
    return 1;
  }
}
