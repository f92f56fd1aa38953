// The GPU architectures' CTA tile sets (include/perfmodel/targets/gpu/arch.hpp).
#include "perfmodel/targets/gpu/arch.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace perfmodel::gpu {

namespace {

// The SIMT kernels' tiles (cuBLAS's sgemm and cuDNN's scudnn kernels are named by them:
// volta_sgemm_128x64, volta_scudnn_128x128, ..., down to 32x32 for small products).
const std::vector<CtaTile> kSimtTiles = {{128, 128}, {128, 64}, {64, 128}, {64, 64},
                                         {128, 32},  {32, 128}, {32, 32}};

// The batch norm's one-read limit per channel (GpuArch::bn_single_read_bytes), bracketed by
// the kernels the traces run (docs/gpu_model.md, "Which batch-norm kernel runs"): the V100's
// at 25 KB (fwd 32x*x14x14) and 12.5 KB (bwd 7x7) but not 50 KB (bwd 14x14): 32 KiB; the
// H200's at 100 KB (fwd 28x28) and 50 KB (bwd 14x14) but not 200 KB (bwd 28x28): 128 KiB.
// Turing is taken as Volta, Ampere (sm80, whose kernels the H200 ran) as Hopper.
constexpr double kBnSingleReadOld = 32768, kBnSingleReadNew = 131072;

// The ratios are the hardware specs' dense fp16 tensor peak over their fp16 SIMT peak
// (hw_specs/*.yaml): V100 125 / 31.4, T4 65 / 16.3 (Turing: 2x fp32), A100 312 / 78,
// H100 and H200 989 / 133.8.
const GpuArch kVolta{"volta",
                     {{256, 128}, {128, 256}, {128, 128}, {128, 64}, {64, 128}, {64, 64}},
                     kSimtTiles,
                     125.0 / 31.4,
                     kBnSingleReadOld};
const GpuArch kTuring{"turing",
                      {{256, 128}, {128, 256}, {128, 128}, {128, 64}, {64, 128}, {64, 64}},
                      kSimtTiles,
                      65.0 / 16.3,
                      kBnSingleReadOld};
const GpuArch kAmpere{
    "ampere",
    {{256, 128}, {128, 256}, {128, 128}, {256, 64}, {64, 256}, {128, 64}, {64, 128}, {64, 64}},
    kSimtTiles,
    312.0 / 78.0,
    kBnSingleReadNew};
const GpuArch kHopper{
    "hopper",
    {{256, 128}, {128, 256}, {128, 128}, {256, 64}, {64, 256}, {128, 64}, {64, 128}, {64, 64}},
    kSimtTiles,
    989.0 / 133.8,
    kBnSingleReadNew};

std::string lower(std::string_view s) {
  std::string l(s);
  for (char &c : l)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return l;
}

// Whether `name` holds `family` (a letter and digits: "v100", "t4") not followed by a digit.
bool names(const std::string &name, std::string_view family) {
  for (size_t at = name.find(family); at != std::string::npos; at = name.find(family, at + 1)) {
    const size_t end = at + family.size();
    const bool starts = at == 0 || !std::isalnum(static_cast<unsigned char>(name[at - 1]));
    if (starts && (end == name.size() || !std::isdigit(static_cast<unsigned char>(name[end]))))
      return true;
  }
  return false;
}

} // namespace

const GpuArch &arch_for(std::string_view raw) {
  const std::string name = lower(raw);
  for (std::string_view f : {"v100", "titan v", "gv100"})
    if (names(name, f))
      return kVolta;
  for (std::string_view f : {"t4", "rtx 20", "tu102", "tu104"})
    if (names(name, f))
      return kTuring;
  for (std::string_view f : {"a100", "a10", "a30", "a40", "ga100", "rtx 30", "rtx a"})
    if (names(name, f))
      return kAmpere;
  return kHopper;
}

bool tensor_dtype(DType dtype) {
  return dtype == DType::fp16 || dtype == DType::bf16 || dtype == DType::tf32 ||
         dtype == DType::fp8 || dtype == DType::int8;
}

int resident_ctas(const CtaTile &t) {
  const int area = std::max(1, t.m * t.n);
  return std::clamp(128 * 128 / area, 1, 4);
}

} // namespace perfmodel::gpu
