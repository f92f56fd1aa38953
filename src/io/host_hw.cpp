// This CPU's id and the shipped hardware spec measured on it.
#include "perfmodel/io/host_hw.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/resources.hpp"

namespace perfmodel::io {

std::string read_cpuinfo() {
  std::ifstream in("/proc/cpuinfo");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::map<std::string, std::string> cpuinfo_fields(const std::string &cpuinfo,
                                                  const std::vector<std::string> &keys) {
  std::map<std::string, std::string> out;
  std::istringstream in(cpuinfo);
  for (std::string line; std::getline(in, line) && out.size() < keys.size();) {
    const auto colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    if (std::find(keys.begin(), keys.end(), key) == keys.end() || out.count(key))
      continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    out[key] = value;
  }
  return out;
}

std::optional<CpuId> parse_cpu_id(const std::string &cpuinfo) {
  const auto f = cpuinfo_fields(cpuinfo, {"vendor_id", "cpu family", "model"});
  if (f.size() != 3)
    return std::nullopt;
  const std::string &family = f.at("cpu family"), &model = f.at("model");
  try {
    size_t used_f = 0, used_m = 0;
    const int fam = std::stoi(family, &used_f), mod = std::stoi(model, &used_m);
    if (used_f != family.size() || used_m != model.size())
      return std::nullopt;
    return CpuId{f.at("vendor_id"), fam, mod};
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

std::optional<CpuId> this_cpu_id() { return parse_cpu_id(read_cpuinfo()); }

std::string describe(const CpuId &id) {
  return id.vendor + " family " + std::to_string(id.family) + " model " + std::to_string(id.model);
}

std::string hw_for_cpu(const std::optional<CpuId> &id) {
  if (!id)
    throw InputError(
        "cannot read this CPU's vendor_id, cpu family and model from /proc/cpuinfo: pass --hw");
  for (const std::string &name : list_resources("hw_specs", {".yaml", ".yml"}))
    if (load_hw(name).cpu_id == id)
      return name;
  throw InputError("no hardware spec in hw_specs/ has the cpu_id of this CPU (" + describe(*id) +
                   "): pass --hw (perfmodel list hw), or write one measured here "
                   "(docs/hardware.md, \"CPU specs\")");
}

HwSpec load_hw_or_for_cpu(const std::string &hw, const std::optional<CpuId> &id) {
  return load_hw(hw.empty() ? hw_for_cpu(id) : hw);
}

std::string cpu_mismatch(const HwSpec &hw, const std::optional<CpuId> &here) {
  if (!hw.cpu_id || !here || *hw.cpu_id == *here)
    return "";
  return "hardware spec " + hw.name + " was measured on " + describe(*hw.cpu_id) +
         ", this CPU is " + describe(*here);
}

} // namespace perfmodel::io
