// UTF-8 validation and the escaping of messages (perfmodel/printable.hpp).
#include <doctest/doctest.h>

#include "perfmodel/error.hpp"
#include "perfmodel/printable.hpp"

using perfmodel::first_invalid_utf8;
using perfmodel::printable;

TEST_CASE("first_invalid_utf8 finds the first byte that is not well-formed UTF-8") {
  CHECK_FALSE(first_invalid_utf8("conv1"));
  CHECK_FALSE(first_invalid_utf8("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80")); // é, 中, 😀
  CHECK(first_invalid_utf8("conv\xff") == 4u);
  CHECK(first_invalid_utf8("a\xc3") == 1u);              // truncated sequence
  CHECK(first_invalid_utf8("a\xc0\xaf") == 1u);          // overlong '/'
  CHECK(first_invalid_utf8("\xed\xa0\x80") == 0u);       // a UTF-16 surrogate
  CHECK(first_invalid_utf8("ok\xf4\x90\x80\x80") == 2u); // above U+10FFFF
  CHECK(first_invalid_utf8("\x80") == 0u);               // a lone continuation byte
}

TEST_CASE("printable escapes controls and bad bytes and keeps printable UTF-8") {
  CHECK(printable("layer 'conv1'") == "layer 'conv1'");
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(printable("a\rb\nc\td\fe") == "a\\rb\\nc\\td\\fe");
  CHECK(printable("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(printable(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(printable("del\x7f") == "del\\x7f");
  CHECK(printable("c1\xc2\x9b") == "c1\\u009b"); // CSI as a C1 control
  CHECK(printable("bad\xff\xfe") == "bad\\xff\\xfe");
  // the result is itself valid UTF-8 with no control byte
  const std::string p = printable("\x08\xc3(\xe2\x82\n\xf0\x28\x8c\x28");
  CHECK_FALSE(first_invalid_utf8(p));
  for (char c : p)
    CHECK((static_cast<unsigned char>(c) >= 0x20 && c != 0x7f));
}

TEST_CASE("require_utf8 locates the first bad byte by line and character column") {
  try {
    perfmodel::require_utf8("name: a\nlayers:\n  - name: \xc3\xa9t\xe9\n", "m.yaml", "why");
    FAIL("no error");
  } catch (const perfmodel::InputError &e) {
    // line 3, after "  - name: " (10 characters), "é" and "t": column 13
    CHECK(std::string(e.what()) == "m.yaml:3:13: error: not valid UTF-8 (byte 0xe9): why");
  }
  CHECK_NOTHROW(perfmodel::require_utf8("fine\n", "f", "why"));
}
