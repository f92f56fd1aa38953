// perfmodel's entry point: parses the subcommand and maps errors to exit statuses
// (2 = bad input, 1 = failure at run time).
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>

#include "cli/commands.hpp"
#include "cli/parse_errors.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/printable.hpp"

namespace {

// Every error message leaves through here: one line, control bytes and bytes that are not
// UTF-8 escaped (perfmodel::printable), so that a name read from a file (a carriage return, an
// ESC colour sequence, binary bytes of a protobuf string) cannot split the line or alter the
// terminal.
void print_error(const char *prefix, const std::string &message) {
  std::fprintf(stderr, "%s%s\n", prefix, perfmodel::printable(message).c_str());
}

} // namespace

int main(int argc, char **argv) {
  using namespace perfmodel;
  // Past a file size limit (ulimit -f) a write fails with EFBIG, which write_file_atomic
  // reports and cleans up after, instead of the signal killing the run mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
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

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    print_error("perfmodel: error: ", cli::parse_error_message(app, e));
    return 2;
  } catch (const InputError &e) { // raised by option validators that read files
    print_error("", e.what());
    return 2;
  }
  try {
    return run ? run() : 0;
  } catch (const InputError &e) {
    print_error("", e.what());
    return 2;
  } catch (const RuntimeFailure &e) {
    print_error("perfmodel: error: ", e.what());
    return 1;
  } catch (const std::exception &e) {
    print_error("perfmodel: internal error: ", e.what());
    return 1;
  }
}
