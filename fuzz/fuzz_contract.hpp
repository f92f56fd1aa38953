// The contract every reader keeps under fuzzing (docs/reliability.md): on any bytes it either
// returns a value that passes the checks the fuzz target states, or throws perfmodel::InputError
// with a location (the file name at least) and a message. Anything else (another exception
// type, an unlocated or empty message, a failed check) aborts, so libFuzzer records the input
// as a crash; ASan and UBSan abort on memory errors and undefined behaviour. A message may quote
// bytes of the input, control bytes included: the CLI prints every message as one escaped line
// (src/cli/main.cpp), so that is not the reader's to check.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "perfmodel/error.hpp"

namespace perfmodel::fuzz {

/// The name the fuzz targets give their input in messages.
inline const std::string kFile = "fuzz.input";

[[noreturn]] inline void fail(const char *what, const std::string &detail) {
  std::fprintf(stderr, "fuzz contract broken: %s: %s\n", what, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

/// Aborts unless `ok`; `what` names the broken check.
inline void require(bool ok, const char *what) {
  if (!ok)
    fail("check failed", what);
}

inline bool finite_nonneg(double v) { return std::isfinite(v) && v >= 0; }
inline bool finite_pos(double v) { return std::isfinite(v) && v > 0; }

/// Runs `read` (which parses the input and checks what it returned) under the contract.
template <class F> void contract(F &&read) {
  try {
    read();
  } catch (const InputError &e) {
    const std::string msg = e.what();
    if (e.loc().file.empty())
      fail("InputError without a location", msg);
    if (e.message().empty())
      fail("InputError with an empty message", msg);
  } catch (const std::exception &e) {
    fail("exception other than InputError", e.what());
  } catch (...) {
    fail("exception other than InputError", "(not a std::exception)");
  }
}

} // namespace perfmodel::fuzz
