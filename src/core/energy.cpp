// Energy: the component model and the rates of a block of work.
#include "perfmodel/energy.hpp"

namespace perfmodel {

double component_energy_joules(const HwSpec &hw, const LayerCost &cost, const LayerTiming &t) {
  const double flops = static_cast<double>(cost.total.flops);
  const double bytes = static_cast<double>(cost.total.bytes());
  return hw.static_watts * t.seconds + t.unit.energy_per_flop_joules * flops +
         hw.dram().energy_per_byte_joules * bytes;
}

Rates make_rates(double flops, double bytes, double seconds, double energy_joules) {
  Rates r;
  r.seconds = seconds;
  r.energy_joules = energy_joules;
  if (seconds > 0) {
    r.flops_per_second = flops / seconds;
    r.bytes_per_second = bytes / seconds;
    r.watts = energy_joules / seconds;
  }
  if (energy_joules > 0)
    r.flops_per_second_per_watt = flops / energy_joules;
  if (flops > 0)
    r.picojoules_per_flop = energy_joules / flops * 1e12;
  return r;
}

} // namespace perfmodel
