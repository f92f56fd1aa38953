// What the hardware spec allows a fitted efficiency parameter to be (docs/calibration.md,
// "Physical bounds"): the fit (fit_solve.cpp) gives these to Ceres as parameter bounds, and
// reports the parameters that end on one (ClassCalibration::at_bound).
#pragma once

#include <string>

#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"

namespace perfmodel::calibrate {

/// Winograd F(2x2, 3x3) computes a 2x2 output tile of a 3x3 convolution with 16 multiplies
/// where the direct method does 36 (Lavin and Gray, "Fast Algorithms for Convolutional Neural
/// Networks", CVPR 2016): 2.25x fewer. Counted at the direct method's FLOPs, such a kernel
/// runs up to 2.25x above the hardware's peak. Larger tiles (F(4x4, 3x3): 4x) and FFT methods
/// save more at a cost in accuracy; they are not assumed: a fit that needs them ends on the
/// bound and says so.
constexpr double kWinogradSavings = 2.25;

/// How far above the hardware's peak a class's counted FLOP rate can go through an algorithm
/// that does fewer operations than the direct method counts: kWinogradSavings for the `conv`
/// class (dense convolutions that are not 1x1: the class that holds the 3x3 and 5x5 stride-1
/// convolutions Winograd applies to), 1 for every other class (1x1 and depthwise convolutions,
/// GEMMs and streaming classes: no such algorithm in the libraries timed).
double algorithmic_savings(OpClass c);

/// A limit the spec sets on one parameter: its value (0: the spec gives none) and what it is,
/// in words for reports ("the spec's fp32 simt peak 1.57e+13 FLOP/s x 2.25 (Winograd)").
struct SpecLimit {
  double value = 0;
  std::string what;
};

/// The most a class's peak FLOP rate can be: the spec's fastest unit for `dtype` (for a GEMM-like
/// class also its matrix units; an fp32 GEMM-like class also its tf32 matrix units, which
/// cuDNN uses for fp32 convolutions by default in PyTorch), times algorithmic_savings(c). No
/// limit when the spec has no unit for the dtype.
SpecLimit peak_limit(const HwSpec &hw, OpClass c, DType dtype);

/// The most memory level `level` can stream: the spec's bandwidth of that level (none when the
/// spec has no such level or no bandwidth for it).
SpecLimit bandwidth_limit(const HwSpec &hw, size_t level);

/// The most any target term's rate (bytes per second) can be: the spec's fastest memory level,
/// no bytes move faster than that (none when the spec gives no bandwidth).
SpecLimit term_rate_limit(const HwSpec &hw);

/// "bytes_per_second[<level name>]": how reports and the YAML name one level's bandwidth.
std::string bandwidth_parameter(const std::vector<MemoryLevelCapacity> &levels, size_t level);

} // namespace perfmodel::calibrate
