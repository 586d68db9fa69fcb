#include "launch_streams.hpp"

#include "launch_layout_probe.hpp"

#include <cuda.h>  // CUDA_VERSION; cupti.h brings the parameter structs (generated_cuda*_meta.h)

#include <atomic>
#include <iterator>

namespace gpuchrono::cupti {

namespace {

// 0 names the default stream of the call's API flavour; the two pseudo-handles name the same on every thread.
cudaStream_t legacy_or(cudaStream_t s) noexcept { return s ? s : cudaStreamLegacy; }
cudaStream_t per_thread_or(cudaStream_t s) noexcept { return s ? s : cudaStreamPerThread; }

CallStream on(cudaStream_t s) noexcept { return {CallStream::Kind::stream, s}; }
constexpr CallStream no_work{CallStream::Kind::no_work, nullptr};
constexpr CallStream unknown{CallStream::Kind::unknown, nullptr};

template <class Params>
const Params& as(const void* params) noexcept {
    return *static_cast<const Params*>(params);
}

#if CUDA_VERSION >= 13000
// __cudaLaunchKernel's parameters laid out as its signature in crt/device_functions.h, as CUPTI lays out every
// published call's; used only once the probe confirmed it.
struct CudaLaunchKernel13Params {
    cudaKernel_t kernel;
    dim3 gridDim;
    dim3 blockDim;
    void** args;
    size_t sharedMem;
    cudaStream_t stream;
};
bool same(const dim3& a, const dim3& b) noexcept { return a.x == b.x && a.y == b.y && a.z == b.z; }
#endif
std::atomic<bool> launch_layout_confirmed{false};

// Only cbids that CUPTI 12.4 through 13.x all define, with parameter structs in all their headers; the newer
// calls (the batch copies of 12.8, which 13.0 renumbered, 13.2's copies with attributes) are unknown here and
// make their scopes wait for the device.
#define GPUCHRONO_RT(name) CUPTI_RUNTIME_TRACE_CBID_##name
#define GPUCHRONO_RT_STREAM(name) \
    case GPUCHRONO_RT(name):      \
        return on(legacy_or(as<name##_params>(params).stream));
#define GPUCHRONO_RT_STREAM_PTSZ(name) \
    case GPUCHRONO_RT(name):           \
        return on(per_thread_or(as<name##_params>(params).stream));

CallStream runtime_call_stream(CUpti_CallbackId cbid, const void* params) noexcept {
    switch (cbid) {
        // Asynchronous launches, copies and sets: the stream argument.
        GPUCHRONO_RT_STREAM(cudaLaunchKernel_v7000)
        GPUCHRONO_RT_STREAM_PTSZ(cudaLaunchKernel_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaLaunchCooperativeKernel_v9000)
        GPUCHRONO_RT_STREAM_PTSZ(cudaLaunchCooperativeKernel_ptsz_v9000)
        GPUCHRONO_RT_STREAM(cudaLaunchHostFunc_v10000)
        GPUCHRONO_RT_STREAM_PTSZ(cudaLaunchHostFunc_ptsz_v10000)
        GPUCHRONO_RT_STREAM(cudaGraphLaunch_v10000)
        GPUCHRONO_RT_STREAM_PTSZ(cudaGraphLaunch_ptsz_v10000)
        GPUCHRONO_RT_STREAM(cudaMemcpyAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpyAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpy2DAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpy2DAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpy3DAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpy3DAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpy3DPeerAsync_v4000)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpy3DPeerAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpyPeerAsync_v4000)
        GPUCHRONO_RT_STREAM(cudaMemcpyToSymbolAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpyToSymbolAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpyFromSymbolAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpyFromSymbolAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpyToArrayAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpyToArrayAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpyFromArrayAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpyFromArrayAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpy2DToArrayAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpy2DToArrayAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemcpy2DFromArrayAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemcpy2DFromArrayAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemsetAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemsetAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemset2DAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemset2DAsync_ptsz_v7000)
        GPUCHRONO_RT_STREAM(cudaMemset3DAsync_v3020)
        GPUCHRONO_RT_STREAM_PTSZ(cudaMemset3DAsync_ptsz_v7000)

        // The stream is in the launch configuration the call points to.
        case GPUCHRONO_RT(cudaLaunchKernelExC_v11060): {
            const cudaLaunchConfig_t* config = as<cudaLaunchKernelExC_v11060_params>(params).config;
            return config ? on(legacy_or(config->stream)) : unknown;
        }
        case GPUCHRONO_RT(cudaLaunchKernelExC_ptsz_v11060): {
            const cudaLaunchConfig_t* config = as<cudaLaunchKernelExC_ptsz_v11060_params>(params).config;
            return config ? on(per_thread_or(config->stream)) : unknown;
        }

        // The synchronous copies and sets run on the default stream, and some return before their work is done
        // (device-to-device copies, sets of device memory, copies from pageable memory still being DMAed).
        case GPUCHRONO_RT(cudaMemcpy_v3020):
        case GPUCHRONO_RT(cudaMemcpy2D_v3020):
        case GPUCHRONO_RT(cudaMemcpy3D_v3020):
        case GPUCHRONO_RT(cudaMemcpy3DPeer_v4000):
        case GPUCHRONO_RT(cudaMemcpyPeer_v4000):
        case GPUCHRONO_RT(cudaMemcpyToSymbol_v3020):
        case GPUCHRONO_RT(cudaMemcpyFromSymbol_v3020):
        case GPUCHRONO_RT(cudaMemcpyToArray_v3020):
        case GPUCHRONO_RT(cudaMemcpyFromArray_v3020):
        case GPUCHRONO_RT(cudaMemcpy2DToArray_v3020):
        case GPUCHRONO_RT(cudaMemcpy2DFromArray_v3020):
        case GPUCHRONO_RT(cudaMemcpyArrayToArray_v3020):
        case GPUCHRONO_RT(cudaMemcpy2DArrayToArray_v3020):
        case GPUCHRONO_RT(cudaMemset_v3020):
        case GPUCHRONO_RT(cudaMemset2D_v3020):
        case GPUCHRONO_RT(cudaMemset3D_v3020):
            return on(cudaStreamLegacy);
        case GPUCHRONO_RT(cudaMemcpy_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpy2D_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpy3D_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpy3DPeer_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpyToSymbol_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpyFromSymbol_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpyToArray_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpyFromArray_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpy2DToArray_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpy2DFromArray_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpyArrayToArray_ptds_v7000):
        case GPUCHRONO_RT(cudaMemcpy2DArrayToArray_ptds_v7000):
        case GPUCHRONO_RT(cudaMemset_ptds_v7000):
        case GPUCHRONO_RT(cudaMemset2D_ptds_v7000):
        case GPUCHRONO_RT(cudaMemset3D_ptds_v7000):
            return on(cudaStreamPerThread);

        // Graph edits: nothing runs until the graph is launched (and cudaGraphLaunch is read above).
        case GPUCHRONO_RT(cudaGraphAddMemcpyNode_v10000):
        case GPUCHRONO_RT(cudaGraphAddMemcpyNode1D_v11010):
        case GPUCHRONO_RT(cudaGraphAddMemcpyNodeToSymbol_v11010):
        case GPUCHRONO_RT(cudaGraphAddMemcpyNodeFromSymbol_v11010):
        case GPUCHRONO_RT(cudaGraphAddMemsetNode_v10000):
        case GPUCHRONO_RT(cudaGraphMemcpyNodeGetParams_v10000):
        case GPUCHRONO_RT(cudaGraphMemcpyNodeSetParams_v10000):
        case GPUCHRONO_RT(cudaGraphMemcpyNodeSetParams1D_v11010):
        case GPUCHRONO_RT(cudaGraphMemcpyNodeSetParamsToSymbol_v11010):
        case GPUCHRONO_RT(cudaGraphMemcpyNodeSetParamsFromSymbol_v11010):
        case GPUCHRONO_RT(cudaGraphMemsetNodeGetParams_v10000):
        case GPUCHRONO_RT(cudaGraphMemsetNodeSetParams_v10000):
        case GPUCHRONO_RT(cudaGraphExecMemcpyNodeSetParams_v10020):
        case GPUCHRONO_RT(cudaGraphExecMemcpyNodeSetParams1D_v11010):
        case GPUCHRONO_RT(cudaGraphExecMemcpyNodeSetParamsToSymbol_v11010):
        case GPUCHRONO_RT(cudaGraphExecMemcpyNodeSetParamsFromSymbol_v11010):
        case GPUCHRONO_RT(cudaGraphExecMemsetNodeSetParams_v10020):
            return no_work;

#if CUDA_VERSION >= 13000
        case GPUCHRONO_RT(__cudaLaunchKernel_v13000):
            if (launch_layout_confirmed.load(std::memory_order_relaxed))
                return on(legacy_or(as<CudaLaunchKernel13Params>(params).stream));
            return {CallStream::Kind::via_driver, nullptr};
        case GPUCHRONO_RT(__cudaLaunchKernel_ptsz_v13000):  // the probe, built without per-thread streams, checks no _ptsz
            return {CallStream::Kind::via_driver, nullptr};
#endif
        default:  // cudaLaunchCooperativeKernelMultiDevice (one stream per device), removed or newer calls
            return unknown;
    }
}

#define GPUCHRONO_DRV(name) CUPTI_DRIVER_TRACE_CBID_##name
#define GPUCHRONO_DRV_STREAM(name) \
    case GPUCHRONO_DRV(name):      \
        return on(legacy_or(reinterpret_cast<cudaStream_t>(as<name##_params>(params).hStream)));
#define GPUCHRONO_DRV_STREAM_PTSZ(name) \
    case GPUCHRONO_DRV(name):           \
        return on(per_thread_or(reinterpret_cast<cudaStream_t>(as<name##_params>(params).hStream)));

CallStream driver_call_stream(CUpti_CallbackId cbid, const void* params) noexcept {
    switch (cbid) {
        GPUCHRONO_DRV_STREAM(cuLaunchKernel)
        GPUCHRONO_DRV_STREAM_PTSZ(cuLaunchKernel_ptsz)
        GPUCHRONO_DRV_STREAM(cuLaunchCooperativeKernel)
        GPUCHRONO_DRV_STREAM_PTSZ(cuLaunchCooperativeKernel_ptsz)
        GPUCHRONO_DRV_STREAM(cuLaunchHostFunc)
        GPUCHRONO_DRV_STREAM_PTSZ(cuLaunchHostFunc_ptsz)
        GPUCHRONO_DRV_STREAM(cuGraphLaunch)
        GPUCHRONO_DRV_STREAM_PTSZ(cuGraphLaunch_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpyAsync)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpyAsync_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpyPeerAsync)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpyPeerAsync_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpyHtoDAsync_v2)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpyHtoDAsync_v2_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpyDtoHAsync_v2)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpyDtoHAsync_v2_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpyDtoDAsync_v2)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpyDtoDAsync_v2_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpyHtoAAsync_v2)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpyHtoAAsync_v2_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpyAtoHAsync_v2)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpyAtoHAsync_v2_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpy2DAsync_v2)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpy2DAsync_v2_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpy3DAsync_v2)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpy3DAsync_v2_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemcpy3DPeerAsync)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemcpy3DPeerAsync_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemsetD8Async)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemsetD8Async_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemsetD16Async)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemsetD16Async_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemsetD32Async)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemsetD32Async_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemsetD2D8Async)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemsetD2D8Async_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemsetD2D16Async)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemsetD2D16Async_ptsz)
        GPUCHRONO_DRV_STREAM(cuMemsetD2D32Async)
        GPUCHRONO_DRV_STREAM_PTSZ(cuMemsetD2D32Async_ptsz)

        case GPUCHRONO_DRV(cuLaunchKernelEx): {
            const CUlaunchConfig* config = as<cuLaunchKernelEx_params>(params).config;
            return config ? on(legacy_or(reinterpret_cast<cudaStream_t>(config->hStream))) : unknown;
        }
        case GPUCHRONO_DRV(cuLaunchKernelEx_ptsz): {
            const CUlaunchConfig* config = as<cuLaunchKernelEx_ptsz_params>(params).config;
            return config ? on(per_thread_or(reinterpret_cast<cudaStream_t>(config->hStream))) : unknown;
        }

        // Synchronous copies and sets: the context's default stream (see runtime_call_stream).
        case GPUCHRONO_DRV(cuMemcpy):
        case GPUCHRONO_DRV(cuMemcpyPeer):
        case GPUCHRONO_DRV(cuMemcpy3DPeer):
        case GPUCHRONO_DRV(cuMemcpyHtoD_v2):
        case GPUCHRONO_DRV(cuMemcpyDtoH_v2):
        case GPUCHRONO_DRV(cuMemcpyDtoD_v2):
        case GPUCHRONO_DRV(cuMemcpyDtoA_v2):
        case GPUCHRONO_DRV(cuMemcpyAtoD_v2):
        case GPUCHRONO_DRV(cuMemcpyHtoA_v2):
        case GPUCHRONO_DRV(cuMemcpyAtoH_v2):
        case GPUCHRONO_DRV(cuMemcpyAtoA_v2):
        case GPUCHRONO_DRV(cuMemcpy2D_v2):
        case GPUCHRONO_DRV(cuMemcpy2DUnaligned_v2):
        case GPUCHRONO_DRV(cuMemcpy3D_v2):
        case GPUCHRONO_DRV(cuMemsetD8_v2):
        case GPUCHRONO_DRV(cuMemsetD16_v2):
        case GPUCHRONO_DRV(cuMemsetD32_v2):
        case GPUCHRONO_DRV(cuMemsetD2D8_v2):
        case GPUCHRONO_DRV(cuMemsetD2D16_v2):
        case GPUCHRONO_DRV(cuMemsetD2D32_v2):
            return on(cudaStreamLegacy);
        case GPUCHRONO_DRV(cuMemcpy_ptds):
        case GPUCHRONO_DRV(cuMemcpyPeer_ptds):
        case GPUCHRONO_DRV(cuMemcpy3DPeer_ptds):
        case GPUCHRONO_DRV(cuMemcpyHtoD_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpyDtoH_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpyDtoD_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpyDtoA_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpyAtoD_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpyHtoA_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpyAtoH_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpyAtoA_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpy2D_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpy2DUnaligned_v2_ptds):
        case GPUCHRONO_DRV(cuMemcpy3D_v2_ptds):
        case GPUCHRONO_DRV(cuMemsetD8_v2_ptds):
        case GPUCHRONO_DRV(cuMemsetD16_v2_ptds):
        case GPUCHRONO_DRV(cuMemsetD32_v2_ptds):
        case GPUCHRONO_DRV(cuMemsetD2D8_v2_ptds):
        case GPUCHRONO_DRV(cuMemsetD2D16_v2_ptds):
        case GPUCHRONO_DRV(cuMemsetD2D32_v2_ptds):
            return on(cudaStreamPerThread);

        case GPUCHRONO_DRV(cuGraphAddMemcpyNode):
        case GPUCHRONO_DRV(cuGraphAddMemsetNode):
        case GPUCHRONO_DRV(cuGraphMemcpyNodeGetParams):
        case GPUCHRONO_DRV(cuGraphMemcpyNodeSetParams):
        case GPUCHRONO_DRV(cuGraphMemsetNodeGetParams):
        case GPUCHRONO_DRV(cuGraphMemsetNodeSetParams):
        case GPUCHRONO_DRV(cuGraphExecMemcpyNodeSetParams):
        case GPUCHRONO_DRV(cuGraphExecMemsetNodeSetParams):
            return no_work;

        default:  // the pre-v2 32-bit copies, cuLaunch/cuLaunchGrid, multi-device and batch calls, newer calls
            return unknown;
    }
}

constexpr CUpti_CallbackId runtime_destroyers[] = {
    GPUCHRONO_RT(cudaStreamDestroy_v3020),
    GPUCHRONO_RT(cudaStreamDestroy_v5050),
    GPUCHRONO_RT(cudaDeviceReset_v3020),
    GPUCHRONO_RT(cudaThreadExit_v3020),
};
constexpr CUpti_CallbackId driver_destroyers[] = {
    GPUCHRONO_DRV(cuStreamDestroy),
    GPUCHRONO_DRV(cuStreamDestroy_v2),
    GPUCHRONO_DRV(cuCtxDestroy),
    GPUCHRONO_DRV(cuCtxDestroy_v2),
    GPUCHRONO_DRV(cuDevicePrimaryCtxRelease),
    GPUCHRONO_DRV(cuDevicePrimaryCtxRelease_v2),
    GPUCHRONO_DRV(cuDevicePrimaryCtxReset),
    GPUCHRONO_DRV(cuDevicePrimaryCtxReset_v2),
#if CUDA_VERSION >= 12050
    GPUCHRONO_DRV(cuGreenCtxDestroy),  // its streams die with it
#endif
};

}  // namespace

CallStream call_stream(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* params) noexcept {
    if (!params) return unknown;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) return runtime_call_stream(cbid, params);
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) return driver_call_stream(cbid, params);
    return unknown;
}

void LaunchedStreams::add(const LaunchedStream& s) noexcept {
    if (unknown_) return;
    for (std::size_t i = 0; i < count_; ++i)
        if (inline_[i] == s) return;
    for (const LaunchedStream& m : more_)
        if (m == s) return;
    if (count_ < inline_capacity) {
        inline_[count_++] = s;
        return;
    }
    try {
        more_.push_back(s);
    } catch (...) {  // out of memory inside a CUDA call: wait for the device rather than miss this stream
        mark_unknown(CUPTI_CB_DOMAIN_INVALID, 0);
    }
}

void LaunchedStreams::mark_unknown(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) noexcept {
    if (unknown_) return;
    unknown_ = true;
    unknown_domain_ = domain;
    unknown_cbid_ = cbid;
}

void check_layout_probe(CUpti_CallbackId cbid, const void* params, const LayoutProbeLaunch& launched) noexcept {
#if CUDA_VERSION >= 13000
    if (cbid != GPUCHRONO_RT(__cudaLaunchKernel_v13000) || !params) return;
    const CudaLaunchKernel13Params& p = as<CudaLaunchKernel13Params>(params);
    if (same(p.gridDim, launched.grid) && same(p.blockDim, launched.block) && p.sharedMem == launched.shared_bytes &&
        p.stream == launched.stream && p.kernel != nullptr)
        launch_layout_confirmed.store(true);
#else
    (void)cbid;
    (void)params;
    (void)launched;
#endif
}

bool kernel_launch_layout_confirmed() noexcept { return launch_layout_confirmed.load(); }

void set_kernel_launch_layout_confirmed(bool confirmed) noexcept { launch_layout_confirmed.store(confirmed); }

bool destroys_streams(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) noexcept {
    std::size_t count = 0;
    const CUpti_CallbackId* ids = stream_destroying_calls(domain, &count);
    for (std::size_t i = 0; i < count; ++i)
        if (ids[i] == cbid) return true;
    return false;
}

DestroyedStreams destroyed_streams(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* params) noexcept {
    if (!params) return {};
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == GPUCHRONO_RT(cudaStreamDestroy_v5050))
        return {false, as<cudaStreamDestroy_v5050_params>(params).stream};
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == GPUCHRONO_DRV(cuStreamDestroy_v2))
        return {false, reinterpret_cast<cudaStream_t>(as<cuStreamDestroy_v2_params>(params).hStream)};
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == GPUCHRONO_DRV(cuStreamDestroy))
        return {false, reinterpret_cast<cudaStream_t>(as<cuStreamDestroy_params>(params).hStream)};
    return {};  // cudaStreamDestroy_v3020's parameters are in no header CUPTI includes: every stream, to be safe
}

const CUpti_CallbackId* stream_destroying_calls(CUpti_CallbackDomain domain, std::size_t* count) noexcept {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        *count = std::size(runtime_destroyers);
        return runtime_destroyers;
    }
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        *count = std::size(driver_destroyers);
        return driver_destroyers;
    }
    *count = 0;
    return nullptr;
}

}  // namespace gpuchrono::cupti
