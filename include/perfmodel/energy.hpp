// Energy of a layer: the component model and boda's power-x-time figure.
#pragma once

#include "perfmodel/cost.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/roofline.hpp"

namespace perfmodel {

/// Component model:
///   E = static_watts * t + e_flop(unit) * flops + e_byte(DRAM) * bytes
/// with t the layer's time, e_flop of the compute unit the layer runs on and e_byte of the
/// outermost memory level (compulsory traffic is DRAM traffic in this model).
double component_energy_joules(const HwSpec &hw, const LayerCost &cost, const LayerTiming &t);

/// boda's figure: energy = power * time (power is assumed, not measured).
inline double power_time_energy_joules(double watts, double seconds) { return watts * seconds; }

/// Rates over a span of work: F/s, B/s, energy and F/s/W (boda's "FWD TOTALS" block).
struct Rates {
  double seconds = 0;
  double flops_per_second = 0;
  double bytes_per_second = 0;
  double energy_joules = 0;
  double watts = 0;                     // energy / seconds
  double flops_per_second_per_watt = 0; // flops / energy
  double picojoules_per_flop = 0;
};
Rates make_rates(double flops, double bytes, double seconds, double energy_joules);

} // namespace perfmodel
