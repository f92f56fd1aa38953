// Machine fingerprints from /proc/cpuinfo and the ISO 8601 timestamp of a calibration.
#include "calibrate/fingerprint.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <vector>

namespace perfmodel::calibrate {

std::string isa_hash(const std::string &flags) {
  std::istringstream in(flags);
  std::vector<std::string> words;
  for (std::string w; in >> w;)
    words.push_back(w);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  uint64_t h = 1469598103934665603ull;
  bool first = true;
  for (const auto &w : words) {
    if (!first)
      h = (h ^ uint64_t(' ')) * 1099511628211ull;
    first = false;
    for (unsigned char ch : w)
      h = (h ^ ch) * 1099511628211ull;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a:%016llx", static_cast<unsigned long long>(h));
  return buf;
}

DeviceFingerprint cpu_fingerprint_from(const std::string &cpuinfo, int threads) {
  DeviceFingerprint f;
  f.kind = "cpu";
  f.name = "unknown cpu";
  f.cores = threads;
  std::istringstream in(cpuinfo);
  std::string flags;
  bool have_name = false, have_flags = false;
  for (std::string line; std::getline(in, line) && !(have_name && have_flags);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (key == "model name" && !have_name) {
      f.name = value;
      have_name = true;
    } else if (key == "flags" && !have_flags) {
      flags = value;
      have_flags = true;
    }
  }
  f.isa_hash = have_flags ? isa_hash(flags) : "";
  return f;
}

DeviceFingerprint this_cpu(int threads) {
  std::ifstream in("/proc/cpuinfo");
  std::stringstream ss;
  ss << in.rdbuf();
  return cpu_fingerprint_from(ss.str(), threads);
}

std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string fingerprint_mismatch(const DeviceFingerprint &cal, const DeviceFingerprint &here) {
  if (cal.kind != here.kind)
    return "calibrated on a " + cal.kind + ", running on a " + here.kind;
  if (cal.name != here.name)
    return "calibrated on '" + cal.name + "', this is '" + here.name + "'";
  if (cal.cores != here.cores)
    return "calibrated with " + std::to_string(cal.cores) + " threads, running with " +
           std::to_string(here.cores);
  if (!cal.isa_hash.empty() && !here.isa_hash.empty() && cal.isa_hash != here.isa_hash)
    return "the ISA flags differ (" + cal.isa_hash + " vs " + here.isa_hash + ")";
  return "";
}

std::string host_mismatch(const DeviceFingerprint &cal, const DeviceFingerprint &here) {
  if (cal.kind == here.kind && cal.isa_hash.empty())
    return "";
  return fingerprint_mismatch(cal, here);
}

} // namespace perfmodel::calibrate
