// Tests of gzip decompression: members, truncation and corruption.
#include "perfmodel/trace/gzip.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

#include "perfmodel/error.hpp"

using namespace perfmodel;

namespace {

std::string gzip(const std::string &s) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, s.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(s.data()));
  zs.avail_in = static_cast<uInt>(s.size());
  zs.next_out = reinterpret_cast<Bytef *>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

} // namespace

TEST_CASE("gunzip inflates one and several members") {
  std::string text(200000, 'x');
  for (size_t i = 0; i < text.size(); i += 7)
    text[i] = static_cast<char>('a' + i % 26);
  std::string z = gzip(text);
  CHECK(io::is_gzip(z));
  CHECK_FALSE(io::is_gzip(text));
  CHECK(io::gunzip(z, "f") == text);
  CHECK(io::gunzip(z + gzip("tail"), "f") == text + "tail");
}

TEST_CASE("gunzip rejects truncated and corrupt streams") {
  std::string z = gzip(std::string(5000, 'q') + "end");
  try {
    io::gunzip(z.substr(0, z.size() - 6), "t.gz");
    FAIL("no error");
  } catch (const InputError &e) {
    CHECK(std::string(e.what()).find("t.gz: error: truncated gzip stream") == 0);
  }
  std::string bad = z;
  bad[12] = static_cast<char>(bad[12] ^ 0x5a);
  bad[13] = static_cast<char>(bad[13] ^ 0xa5);
  CHECK_THROWS_AS(io::gunzip(bad, "c.gz"), InputError);
}
