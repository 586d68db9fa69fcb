// Thread-mode KernelPolicy's streams on made-up CUPTI callback data: which stream each call's parameters name, and
// what the launch subscriber records in a scope's log (no CUPTI, no GPU). A call it cannot read must leave the log
// "unknown", so that the scope waits for the whole device rather than miss a stream.
#include <boost/test/unit_test.hpp>

#include "cupti/launch_layout_probe.hpp"
#include "cupti/launch_streams.hpp"
#include "cupti/launch_subscriber.hpp"

#include <cupti.h>

#include <cstdint>
#include <vector>

#include <gpuchrono/api.hpp>

namespace cupti = gpuchrono::cupti;
using Kind = cupti::CallStream::Kind;

namespace {

cudaStream_t fake_stream(std::uintptr_t n) { return reinterpret_cast<cudaStream_t>(n << 8); }
CUcontext fake_context(std::uintptr_t n) { return reinterpret_cast<CUcontext>(n << 12); }

// One API call as CUPTI reports it: entry, then exit with `result`, on this thread.
template <class Params>
void call(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const Params* params, int result = 0,
          CUcontext context = fake_context(1)) {
    CUpti_CallbackData data{};
    data.functionName = "made-up call";
    data.functionParams = params;
    data.context = context;
    data.correlationId = 7;
    data.callbackSite = CUPTI_API_ENTER;
    const CUpti_CallbackFunc callback = cupti::launch_callback();
    callback(nullptr, domain, cbid, &data);
    data.callbackSite = CUPTI_API_EXIT;
    cudaError_t runtime_result = static_cast<cudaError_t>(result);
    CUresult driver_result = static_cast<CUresult>(result);
    data.functionReturnValue = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? static_cast<void*>(&runtime_result)
                                                                     : static_cast<void*>(&driver_result);
    callback(nullptr, domain, cbid, &data);
}

// A log open on this thread for its lifetime.
struct OpenLog {
    cupti::LaunchLog log;
    OpenLog() { cupti::open_launch_log(&log); }
    ~OpenLog() { cupti::close_launch_log(&log); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_policy)

BOOST_AUTO_TEST_CASE(launch_parameters_name_their_stream_and_default_streams_by_their_pseudo_handles) {
    constexpr auto rt = CUPTI_CB_DOMAIN_RUNTIME_API;
    constexpr auto drv = CUPTI_CB_DOMAIN_DRIVER_API;
    cudaLaunchKernel_v7000_params launch{};
    launch.stream = fake_stream(3);
    cupti::CallStream got = cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
    BOOST_TEST((got.kind == Kind::stream));
    BOOST_TEST(got.stream == fake_stream(3));
    launch.stream = nullptr;  // 0: the legacy default stream in the legacy API, the thread's own in the _ptsz one
    BOOST_TEST(cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch).stream == cudaStreamLegacy);
    cudaLaunchKernel_ptsz_v7000_params ptsz{};
    BOOST_TEST(cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, &ptsz).stream ==
               cudaStreamPerThread);

    cudaLaunchConfig_t config{};
    config.stream = fake_stream(4);
    cudaLaunchKernelExC_v11060_params ex{};
    ex.config = &config;
    BOOST_TEST(cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, &ex).stream == fake_stream(4));
    ex.config = nullptr;  // the call will fail; nothing to read
    BOOST_TEST((cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, &ex).kind == Kind::unknown));

    cudaMemsetAsync_v3020_params set{};
    set.stream = fake_stream(5);
    BOOST_TEST(cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, &set).stream == fake_stream(5));
    // Synchronous copies run on the default stream and may return before their work is done.
    cudaMemcpy_v3020_params copy{};
    BOOST_TEST(cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, &copy).stream == cudaStreamLegacy);
    BOOST_TEST(cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000, &copy).stream == cudaStreamPerThread);
    // Graph edits launch nothing.
    BOOST_TEST((cupti::call_stream(rt, CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemsetNode_v10000, &copy).kind == Kind::no_work));

    cuLaunchKernel_params driver_launch{};
    driver_launch.hStream = reinterpret_cast<CUstream>(fake_stream(6));
    BOOST_TEST(cupti::call_stream(drv, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &driver_launch).stream == fake_stream(6));
    CUlaunchConfig driver_config{};
    cuLaunchKernelEx_ptsz_params driver_ex{};
    driver_ex.config = &driver_config;  // hStream 0 in a _ptsz call: the thread's own default stream
    BOOST_TEST(cupti::call_stream(drv, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, &driver_ex).stream ==
               cudaStreamPerThread);
    cuMemcpyHtoDAsync_v2_params driver_copy{};
    driver_copy.hStream = CU_STREAM_PER_THREAD;  // an explicit pseudo-handle is kept as it is
    BOOST_TEST(cupti::call_stream(drv, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, &driver_copy).stream ==
               cudaStreamPerThread);
    // Driver and runtime cbids are numbered apart: the same number in the other domain is another call.
    BOOST_TEST(cupti::destroys_streams(rt, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050));
    BOOST_TEST(cupti::destroys_streams(drv, CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2));
    BOOST_TEST(!cupti::destroys_streams(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
}

BOOST_AUTO_TEST_CASE(calls_the_code_cannot_read_are_unknown) {
    cudaLaunchKernel_v7000_params launch{};
    // Several streams at once; a cbid no CUPTI defines; no parameters; another domain.
    BOOST_TEST((cupti::call_stream(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
                                   &launch).kind == Kind::unknown));
    BOOST_TEST((cupti::call_stream(CUPTI_CB_DOMAIN_RUNTIME_API, 0x7fffffff, &launch).kind == Kind::unknown));
    BOOST_TEST((cupti::call_stream(CUPTI_CB_DOMAIN_DRIVER_API, 0x7fffffff, &launch).kind == Kind::unknown));
    BOOST_TEST((cupti::call_stream(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, nullptr).kind ==
                Kind::unknown));
    BOOST_TEST((cupti::call_stream(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch).kind ==
                Kind::unknown));
}

BOOST_AUTO_TEST_CASE(a_scope_log_keeps_each_distinct_stream_once_and_any_unreadable_call_makes_it_unknown) {
    constexpr auto rt = CUPTI_CB_DOMAIN_RUNTIME_API;
    cudaLaunchKernel_v7000_params launch{};
    {
        OpenLog open;
        for (std::uintptr_t i = 1; i <= 6; ++i) {  // six streams, each twice: more than the log keeps in place
            launch.stream = fake_stream(i);
            call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
            call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
        }
        launch.stream = fake_stream(1);  // the same stream in another context is another stream (another device)
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch, 0, fake_context(2));
        launch.stream = fake_stream(9);  // a failed launch sent no work
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch, cudaErrorInvalidResourceHandle);
        const cupti::LaunchedStreams& streams = open.log.streams;
        BOOST_TEST(streams.known());
        BOOST_REQUIRE(streams.size() == 7u);
        for (std::size_t i = 0; i < 6; ++i) {
            BOOST_TEST(streams[i].stream == fake_stream(i + 1));
            BOOST_TEST(streams[i].context == fake_context(1));
        }
        BOOST_TEST(streams[6].context == fake_context(2));
        BOOST_TEST(open.log.correlations.size() == 14u);  // every call is still attributed, failed or not
    }
    {
        OpenLog open;
        launch.stream = fake_stream(1);
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000, &launch);
        call(CUPTI_CB_DOMAIN_DRIVER_API, 0x7fffffff, &launch);
        BOOST_TEST(!open.log.streams.known());
        // The first unreadable call is the one named in the reason for waiting on the device.
        BOOST_TEST((open.log.streams.unknown_domain() == rt));
        BOOST_TEST(open.log.streams.unknown_cbid() ==
                   static_cast<CUpti_CallbackId>(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000));
    }
    {
        OpenLog open;  // graph edits alone: nothing to wait for, nothing unknown, and no record to expect
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNode_v10000, &launch);
        call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemsetNode, &launch);
        BOOST_TEST(open.log.streams.known());
        BOOST_TEST(open.log.streams.size() == 0u);
        BOOST_TEST(open.log.correlations.size() == 2u);
        BOOST_TEST(open.log.expected.empty());
        launch.stream = fake_stream(1);  // a launch does expect its record
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
        BOOST_TEST(open.log.expected.size() == 1u);
    }
}

BOOST_AUTO_TEST_CASE(a_driver_call_inside_a_runtime_call_counts_only_when_the_runtime_call_cannot_say) {
    constexpr auto rt = CUPTI_CB_DOMAIN_RUNTIME_API;
    constexpr auto drv = CUPTI_CB_DOMAIN_DRIVER_API;
    const CUpti_CallbackFunc callback = cupti::launch_callback();
    // entry of an outer runtime call, a whole nested driver call, exit of the outer call
    auto nested = [&](CUpti_CallbackId outer, const void* outer_params, CUpti_CallbackId inner, const void* inner_params) {
        cudaError_t ok = cudaSuccess;
        CUresult driver_ok = CUDA_SUCCESS;
        CUpti_CallbackData data{};
        data.functionName = "outer";
        data.functionParams = outer_params;
        data.context = fake_context(1);
        data.callbackSite = CUPTI_API_ENTER;
        callback(nullptr, rt, outer, &data);
        CUpti_CallbackData inner_data = data;
        inner_data.functionParams = inner_params;
        callback(nullptr, drv, inner, &inner_data);
        inner_data.callbackSite = CUPTI_API_EXIT;
        inner_data.functionReturnValue = &driver_ok;
        callback(nullptr, drv, inner, &inner_data);
        data.callbackSite = CUPTI_API_EXIT;
        data.functionReturnValue = &ok;
        callback(nullptr, rt, outer, &data);
    };
    cudaMemsetAsync_v3020_params set{};
    set.stream = fake_stream(1);
    cuMemsetD8Async_params driver_set{};
    driver_set.hStream = reinterpret_cast<CUstream>(fake_stream(2));
    {
        OpenLog open;  // the runtime call names its stream: the driver call inside it is its implementation
        nested(CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, &set, CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, &driver_set);
        BOOST_REQUIRE(open.log.streams.size() == 1u);
        BOOST_TEST(open.log.streams[0].stream == fake_stream(1));
    }
    {
        OpenLog open;  // nor does an unreadable driver call inside a readable runtime call make the log unknown
        nested(CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, &set, 0x7fffffff, &driver_set);
        BOOST_TEST(open.log.streams.known());
        BOOST_TEST(open.log.streams.size() == 1u);
    }
#if CUDA_VERSION >= 13000
    cupti::set_kernel_launch_layout_confirmed(false);  // as until the probe has run
    cudaLaunchKernel_v7000_params unpublished{};  // __cudaLaunchKernel's parameters have no published layout
    cuLaunchKernel_params driver_launch{};
    driver_launch.hStream = reinterpret_cast<CUstream>(fake_stream(3));
    {
        OpenLog open;  // kernel<<<>>> in CUDA 13: the stream of the driver launch inside it
        nested(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, &unpublished, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
               &driver_launch);
        BOOST_TEST(open.log.streams.known());
        BOOST_REQUIRE(open.log.streams.size() == 1u);
        BOOST_TEST(open.log.streams[0].stream == fake_stream(3));
    }
    {
        OpenLog open;  // ... and with no driver call the code can read inside it, unknown
        nested(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, &unpublished, 0x7fffffff, &driver_launch);
        BOOST_TEST(!open.log.streams.known());
        OpenLog outer_only;
        call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, &unpublished);
        BOOST_TEST(!outer_only.log.streams.known());
    }
#endif
}

#if CUDA_VERSION >= 13000
BOOST_AUTO_TEST_CASE(cuda13_launches_are_read_only_once_the_probe_saw_its_own_launch_as_launched) {
    // __cudaLaunchKernel's parameters as its signature lays them out (crt/device_functions.h)
    struct {
        cudaKernel_t kernel;
        dim3 gridDim;
        dim3 blockDim;
        void** args;
        size_t sharedMem;
        cudaStream_t stream;
    } params{reinterpret_cast<cudaKernel_t>(fake_stream(9)), dim3(3, 2, 1), dim3(7, 1, 1), nullptr, 24, fake_stream(4)};
    cupti::LayoutProbeLaunch probe;
    probe.stream = fake_stream(4);
    constexpr auto launch_13 = CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000;
    cupti::set_kernel_launch_layout_confirmed(false);
    // Another call, or a launch of another shape or stream: not the probe's launch.
    cupti::check_layout_probe(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &params, probe);
    params.blockDim = dim3(8, 1, 1);
    cupti::check_layout_probe(launch_13, &params, probe);
    params.blockDim = dim3(7, 1, 1);
    params.stream = fake_stream(5);
    cupti::check_layout_probe(launch_13, &params, probe);
    cupti::check_layout_probe(launch_13, nullptr, probe);
    BOOST_TEST(!cupti::kernel_launch_layout_confirmed());
    BOOST_TEST((cupti::call_stream(CUPTI_CB_DOMAIN_RUNTIME_API, launch_13, &params).kind == Kind::via_driver));
    params.stream = fake_stream(4);
    cupti::check_layout_probe(launch_13, &params, probe);
    BOOST_TEST(cupti::kernel_launch_layout_confirmed());
    params.stream = fake_stream(6);
    cupti::CallStream read = cupti::call_stream(CUPTI_CB_DOMAIN_RUNTIME_API, launch_13, &params);
    BOOST_TEST((read.kind == Kind::stream));
    BOOST_TEST(read.stream == fake_stream(6));
    params.stream = nullptr;
    BOOST_TEST(cupti::call_stream(CUPTI_CB_DOMAIN_RUNTIME_API, launch_13, &params).stream == cudaStreamLegacy);
    // The _ptsz variant is not what the probe checked: still through the driver.
    BOOST_TEST((cupti::call_stream(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
                                   &params).kind == Kind::via_driver));
    cupti::set_kernel_launch_layout_confirmed(false);
}
#endif

BOOST_AUTO_TEST_CASE(a_destroyed_stream_of_the_scope_or_context_makes_its_handles_unusable_and_others_do_not) {
    constexpr auto rt = CUPTI_CB_DOMAIN_RUNTIME_API;
    constexpr auto drv = CUPTI_CB_DOMAIN_DRIVER_API;
    struct Watch {  // as once CUPTI reports the destroying calls
        Watch() { cupti::set_stream_destruction_watched(true); }
        ~Watch() { cupti::set_stream_destruction_watched(false); }
    } watch;
    cudaLaunchKernel_v7000_params launch{};
    launch.stream = fake_stream(1);
    cudaStreamDestroy_v5050_params destroy_other{};
    destroy_other.stream = fake_stream(2);
    cuStreamDestroy_v2_params destroy_own{};
    destroy_own.hStream = reinterpret_cast<CUstream>(fake_stream(1));
    {
        OpenLog open;
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050, &destroy_other);  // not the scope's
        BOOST_TEST(cupti::StreamHandlesHold(open.log).usable());
        call(drv, CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2, &destroy_own);  // the scope's, by another API
        BOOST_TEST(!cupti::StreamHandlesHold(open.log).usable());
        BOOST_TEST(open.log.correlations.size() == 1u);  // destroying calls are not the scope's launches
    }
    call(drv, CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2, &destroy_own);  // before the next scope opens
    {
        OpenLog open;  // the handle it uses now names a stream made since: alive
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
        BOOST_TEST(cupti::StreamHandlesHold(open.log).usable());
        cuCtxDestroy_v2_params context{};  // every stream of a context
        call(drv, CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2, &context);
        BOOST_TEST(!cupti::StreamHandlesHold(open.log).usable());
    }
    {
        OpenLog open;
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
        for (int i = 0; i < 64; ++i) call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050, &destroy_other);
        BOOST_TEST(cupti::StreamHandlesHold(open.log).usable());
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050, &destroy_other);  // the 65th: some forgotten
        BOOST_TEST(!cupti::StreamHandlesHold(open.log).usable());
    }
    {
        OpenLog open;  // cudaStreamDestroy nests cuStreamDestroy: one destruction, read from the outer call
        call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch);
        CUpti_CallbackData outer{};
        outer.functionParams = &destroy_other;
        outer.callbackSite = CUPTI_API_ENTER;
        CUpti_CallbackData inner = outer;
        inner.functionParams = &destroy_own;  // made up: the inner one names the scope's stream
        const CUpti_CallbackFunc callback = cupti::launch_callback();
        callback(nullptr, rt, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050, &outer);
        callback(nullptr, drv, CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2, &inner);
        inner.callbackSite = outer.callbackSite = CUPTI_API_EXIT;
        callback(nullptr, drv, CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2, &inner);
        callback(nullptr, rt, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050, &outer);
        BOOST_TEST(cupti::StreamHandlesHold(open.log).usable());
    }
    cupti::set_stream_destruction_watched(false);
    OpenLog unwatched;  // without CUPTI's reports nothing can be known
    BOOST_TEST(!cupti::StreamHandlesHold(unwatched.log).usable());
}

BOOST_AUTO_TEST_SUITE_END()
