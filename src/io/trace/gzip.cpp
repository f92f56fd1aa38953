// gzip decompression with zlib's inflate (gzip header, concatenated members, truncation checks).
#include "perfmodel/trace/gzip.hpp"

#include <zlib.h>

#include <string>

#include "perfmodel/error.hpp"

namespace perfmodel::io {

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

std::string gunzip(std::string_view data, const std::string &file) {
  z_stream zs{};
  // 16 + MAX_WBITS: expect a gzip header and check its CRC and length trailer.
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
    throw RuntimeFailure("zlib: inflateInit2 failed");
  std::string out;
  out.reserve(data.size() * 8);
  zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  char buf[1 << 16];
  int rc = Z_OK;
  while (true) {
    zs.next_out = reinterpret_cast<Bytef *>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_STREAM_END) {
      // Another member may follow (files concatenated with cat); skip trailing zero padding.
      while (zs.avail_in > 0 && *zs.next_in == 0) {
        ++zs.next_in;
        --zs.avail_in;
      }
      if (zs.avail_in == 0)
        break;
      if (inflateReset(&zs) != Z_OK)
        break;
      continue;
    }
    if (rc == Z_OK)
      continue;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      inflateEnd(&zs);
      throw InputError(SourceLoc{file}, "truncated gzip stream: the data ends after " +
                                            std::to_string(out.size()) +
                                            " decompressed bytes, before the gzip trailer");
    }
    std::string why = zs.msg ? zs.msg : "inflate error " + std::to_string(rc);
    size_t at = data.size() - zs.avail_in;
    inflateEnd(&zs);
    throw InputError(SourceLoc{file},
                     "corrupt gzip stream at byte " + std::to_string(at) + ": " + why);
  }
  inflateEnd(&zs);
  return out;
}

} // namespace perfmodel::io
