// The interconnect's levels (include/perfmodel/interconnect.hpp).
#include "perfmodel/interconnect.hpp"

#include <cmath>

namespace perfmodel {

int64_t Interconnect::node_devices() const {
  return levels.empty() || levels.front().devices == 0 ? 1 : levels.front().devices;
}

const LinkLevel *Interconnect::level_for(int64_t group) const {
  for (const LinkLevel &l : levels)
    if (l.devices == 0 || group <= l.devices)
      return &l;
  return nullptr;
}

bool is_valid(const Interconnect &ic, std::string *error) {
  int64_t inner = 1;
  for (size_t i = 0; i < ic.levels.size(); ++i) {
    const LinkLevel &l = ic.levels[i];
    const std::string at = "interconnect level '" + l.name + "'";
    if (l.name.empty())
      return *error = "an interconnect level has no name", false;
    if (!(l.bytes_per_second > 0) || !std::isfinite(l.bytes_per_second))
      return *error = at + ": bandwidth must be positive", false;
    if (!(l.latency_seconds >= 0) || !std::isfinite(l.latency_seconds))
      return *error = at + ": latency must be >= 0", false;
    if (l.devices == 0 && i + 1 != ic.levels.size())
      return *error = at + ": only the outermost level may leave 'devices' out", false;
    if (l.devices != 0 && (l.devices < inner || l.devices % inner != 0))
      return *error = at + ": devices (" + std::to_string(l.devices) +
                      ") must be a multiple of the level inside it (" + std::to_string(inner) + ")",
             false;
    if (l.devices != 0)
      inner = l.devices;
  }
  return true;
}

} // namespace perfmodel
