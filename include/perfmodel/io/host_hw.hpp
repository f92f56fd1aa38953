// The hardware spec of the CPU this process runs on: the CPU's id from /proc/cpuinfo, and the
// shipped spec (hw_specs/) whose `cpu_id` is that id. `calibrate --device cpu` and `measure`
// default to it, so that a machine swapped under the project is not measured against the
// previous machine's spec.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/hw_spec.hpp"

namespace perfmodel::io {

/// The text of /proc/cpuinfo ("" where it cannot be read).
std::string read_cpuinfo();

/// The first processor's value of each of `keys` in /proc/cpuinfo text ("key<blanks>: value"
/// lines, both trimmed); a key that is not there is not in the map.
std::map<std::string, std::string> cpuinfo_fields(const std::string &cpuinfo,
                                                  const std::vector<std::string> &keys);

/// vendor_id, cpu family and model of the first processor in /proc/cpuinfo text; nullopt where
/// one of them is missing (no x86 cpuinfo).
std::optional<CpuId> parse_cpu_id(const std::string &cpuinfo);

/// This machine's id (reads /proc/cpuinfo).
std::optional<CpuId> this_cpu_id();

/// "AuthenticAMD family 25 model 1".
std::string describe(const CpuId &id);

/// The bare name of the first spec among the shipped ones (io::list_resources, by name) whose
/// cpu_id is `id`. Throws InputError naming the id and the way out (--hw) when none is.
std::string hw_for_cpu(const std::optional<CpuId> &id);

/// The spec `hw` names (io::load_hw), or with `hw` empty the shipped spec of the CPU `id`
/// (hw_for_cpu): the --hw default of `calibrate --device cpu` and `measure`.
HwSpec load_hw_or_for_cpu(const std::string &hw, const std::optional<CpuId> &id);

/// "" when `hw` may describe the CPU `here` (no cpu_id, or the same one), else one line saying
/// which CPU it was measured on and which this is.
std::string cpu_mismatch(const HwSpec &hw, const std::optional<CpuId> &here);

} // namespace perfmodel::io
