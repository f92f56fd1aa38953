// How many CTAs a GPU's streaming kernels (elementwise, normalisation, pooling, reduction) run
// for a call, and the plane of the GPU target's parallelism factor (docs/gpu_model.md,
// "Streaming kernels").
#pragma once

#include <vector>

#include "perfmodel/calibration.hpp"

namespace perfmodel::gpu {

/// Work items (KernelFeatures::parallel_units) per CTA of each streaming class, as the kernels
/// PyTorch and cuDNN launch for them (their grids in the shared ResNet-50 V100 traces):
/// elementwise: PyTorch's vectorized_elementwise_kernel, 64 threads x 4 elements (a 25.7M
/// element relu runs 100,352 CTAs); pool: max_pool_forward_nchw / _backward_nchw, one output
/// (input gradient) per thread of 256; norm: cuDNN's training batch norm (bn_fw_tr_1C11_*,
/// bn_bw_1C11_*) runs one 512-thread CTA per channel, PyTorch's layer norm one per row;
/// reduce: PyTorch's reduce_kernel<512, 1>, 16 outputs per CTA (32x16 threads).
inline constexpr double kElementwisePerCta = 256, kPoolPerCta = 256, kNormPerCta = 1,
                        kReducePerCta = 16;

/// cuDNN's channels-last training batch norm (batchnorm_fwtr_nhwc_semiPersist,
/// batchnorm_bwtr_nhwc_semiPersist, 512 threads; the H200 AMP traces' grids, docs/gpu_model.md
/// "Channels-last batch norms"): a CTA takes a block of 64 channels and 160 (forward) or 96
/// (backward) of the N*H*W rows, and the grid stops at 2 CTAs per SM (semi-persistent: a CTA
/// then loops over more rows). One read, as the layer's counts hold.
inline constexpr double kNhwcNormChannels = 64, kNhwcNormRowsFwd = 160, kNhwcNormRowsBwd = 96,
                        kNhwcNormCtasPerSm = 2;
/// Whether the call is a batch norm (channel_elements > 0) in the nhwc layout.
bool nhwc_batch_norm(const KernelFeatures &f);
/// Its CTAs: ceil(channel_elements / rows) * ceil(channels / 64), at most 2 * sms where sms > 0
/// (sms <= 0: the uncapped count); 0 for other calls.
double nhwc_batch_norm_ctas(const KernelFeatures &f, int sms);
/// The CTAs the call launches: ceil(parallel_units / per-CTA items) for the streaming classes
/// (elementwise, norm, pool, reduce), an nhwc batch norm's nhwc_batch_norm_ctas(f, sms); 0 for
/// other classes and for calls without work items.
double streaming_ctas(const KernelFeatures &f, int sms = 0);

/// The plane of the parallelism factor plane / (plane + m_half): the call's CTAs per SM,
/// streaming_ctas / sms (0: no factor). A CTA keeps a bounded number of loads in flight, so it
/// streams at most bw / (sms * m_half) bytes per second: with u CTAs per SM the call reaches
/// bw * u / (u + m_half), and one with too few CTAs to fill the SMs (a batch norm over 64
/// channels on 80 SMs) streams below the bandwidth a large one reaches.
double streaming_plane(const KernelFeatures &f, int sms);

/// The count of the per-CTA start-up term (the target's `cta_starts_per_second`): the call's
/// CTAs per SM, streaming_plane (0: not a streaming call). Each CTA costs a fixed time besides its
/// bytes (it reads its first lines from DRAM, reduces across its threads, writes its results):
/// with u CTAs per SM and R of them resident at once an SM spends u * t_cta / R on it, so the
/// term adds u / rate, rate = R / t_cta (CTAs per SM per second). A batch norm over 960
/// channels of a 7x7 plane runs 7.3 CTAs per SM on 132 SMs, each streaming 12.5 KB.
double cta_start_count(const KernelFeatures &f, int sms);

/// Whether a class's calls (one call each, as the fit sees them) can tell the per-CTA start-up
/// time from the overhead, the bandwidth and the parallelism factor: at least
/// kCtaStartMinCalls streaming calls whose bytes per CTA and whose CTAs per SM each span a
/// factor of kCtaStartMinSpan. Calls whose CTAs all stream the same bytes (an elementwise
/// kernel's 256 elements) make the term proportional to the bytes: it is then left out.
inline constexpr int kCtaStartMinCalls = 6;
inline constexpr double kCtaStartMinSpan = 4;
/// (sms: as streaming_ctas.) The second form takes each call's CTAs (or any multiple of them:
/// only their spans count), as the target's terms give them without the SM count.
bool cta_start_visible(const std::vector<KernelFeatures> &calls, int sms = 0);
bool cta_start_visible(const std::vector<KernelFeatures> &calls,
                       const std::vector<double> &call_ctas);

/// The bytes an fp32 batch norm reads beyond the one read of its input (and, backward, of its
/// output gradient) that the layer's counts hold: cuDNN's one-read kernels
/// (bn_fw_tr_1C11_singleread, bn_bw_1C11_singleread) keep a channel on chip where its bytes
/// (forward: the input's N*H*W elements; backward: those of the input and the output gradient)
/// are at most `single_read_bytes` (GpuArch::bn_single_read_bytes), and add nothing; the
/// two-pass kernels of larger channels (bn_fw_tr_1C11_kernel_NCHW, bn_bw_1C11_kernel_new)
/// read them again: the input's bytes forward, the input's and the gradient's backward. 0 for
/// other calls, other dtypes (half precision runs cuDNN's NHWC semi-persistent kernels), nhwc
/// calls (the same kernels: one read) and calls without channel_elements.
double batch_norm_reread_bytes(const KernelFeatures &f, double single_read_bytes);

} // namespace perfmodel::gpu
