// The fit summary of a calibration (what `perfmodel calibrate --format table|csv|json|md` prints):
// one row per op class x dtype with its fitted rates and how well it reproduces its samples.
//
// Sample (perfmodel calibrate --from-measurements test/data/measurements.csv --hw v100 --format
// table):
//   calibration for v100: measurements:test/data/measurements.csv, 12 samples, MAPE 3.10%
//   class  dtype  samples  peak      m/n/k half  tile   bw l1     bw l2    bw dram   lower  overlap
//   overhead  MAPE   max gemm   fp32   6        14.2TF/s  12/9/30     64x32  13.1TB/s  2.9TB/s
//   820GB/s   0      0.41     4.9us     2.80%  6.1%
#pragma once

#include <string>

#include "perfmodel/calibration.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

/// Table/csv/md: the summary rows; json: the whole calibration ("perfmodel.calibration/1").
std::string render_calibration(const Calibration &cal, Format f);

} // namespace perfmodel::report
