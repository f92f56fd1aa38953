// One-line messages for CLI11's parse errors, with "did you mean" for a mistyped command or option.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace perfmodel::cli {

/// The message for `e`, thrown by `app.parse`. When arguments were left unparsed (CLI11 throws
/// RequiredError or ExtrasError for them), names the first one: an unknown command of `app`, an
/// unknown option of the command in use, or an unexpected argument, with the nearest known
/// name (perfmodel::nearest_name) where one is close. Otherwise CLI11's own message.
std::string parse_error_message(const CLI::App &app, const CLI::ParseError &e);

} // namespace perfmodel::cli
