// Machine fingerprints from /proc/cpuinfo and the ISO 8601 timestamp of a calibration.
#include "perfmodel/calibrate/fingerprint.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <vector>

#include "perfmodel/io/host_hw.hpp"

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
  const auto fields = io::cpuinfo_fields(cpuinfo, {"model name", "flags"});
  DeviceFingerprint f;
  f.kind = "cpu";
  f.name = fields.count("model name") ? fields.at("model name") : "unknown cpu";
  f.cores = threads;
  f.isa_hash = fields.count("flags") ? isa_hash(fields.at("flags")) : "";
  f.cpu_id = io::parse_cpu_id(cpuinfo);
  return f;
}

DeviceFingerprint this_cpu(int threads) {
  return cpu_fingerprint_from(io::read_cpuinfo(), threads);
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
  if (cal.cpu_id && here.cpu_id && !(*cal.cpu_id == *here.cpu_id))
    return "calibrated on " + io::describe(*cal.cpu_id) + ", this is " + io::describe(*here.cpu_id);
  return "";
}

std::string host_mismatch(const DeviceFingerprint &cal, const DeviceFingerprint &here) {
  if (cal.kind == here.kind && cal.isa_hash.empty())
    return "";
  return fingerprint_mismatch(cal, here);
}

} // namespace perfmodel::calibrate
