// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "range_session.hpp"

#include "cupti/cupti_library.hpp"
#include "cupti/cupti_session.hpp"
#include "cupti/launch_subscriber.hpp"
#include "cupti_failure.hpp"

#include "gpu/context_id.hpp"
#include <gpuchrono/metrics/device_peaks.hpp>
#include <gpuchrono/metrics/roofline_points.hpp>

#include <cuda_runtime_api.h>
#include <cxxabi.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>

namespace gpuchrono::metrics::detail {

std::string kernel_name_of_range(const char* range_name) {
    if (range_name == nullptr) return "(unnamed range)";
    int status = 0;
    char* demangled = abi::__cxa_demangle(range_name, nullptr, nullptr, &status);
    std::string name = status == 0 && demangled ? demangled : range_name;
    std::free(demangled);
    // "copy_kernel(float4*, float4 const*, unsigned long)" -> "copy_kernel", as ncu shows it by default: the
    // parameter list is cut at its matching '(' (templates keep their arguments).
    if (status == 0 && !name.empty() && name.back() == ')') {
        int depth = 0;
        for (std::size_t i = name.size(); i-- > 0;) {
            if (name[i] == ')') ++depth;
            else if (name[i] == '(' && --depth == 0) {
                if (i > 0) name.resize(i);
                break;
            }
        }
    }
    return name;
}

#if GPUCHRONO_HAS_RANGE_PROFILER
namespace {

// One way of calling CUPTI here: a failure throws with the call's name, CUPTI's words and the advice.
void call(CUptiResult r, const char* what) { require_cupti_success(r, what); }

CUpti_RangeProfiler_Object* as_object(void* p) { return static_cast<CUpti_RangeProfiler_Object*>(p); }

// The kernels launched while a session runs, in call order: CUPTI numbers auto ranges "0", "1", ...; the
// launch callbacks give them their names.
std::mutex launched_mutex;
std::vector<std::string> launched;

void on_kernel_launch(const char* symbol) noexcept {
    try {
        const std::lock_guard lock(launched_mutex);
        launched.emplace_back(symbol);
    } catch (...) {
        // Out of memory inside a launch call: the range keeps CUPTI's number as its name.
    }
}

// The range profiler stays enabled on a context between sessions: enabling it costs far more than a session
// (docs/metrics.md). Dropped (disabled) when a session finds another context current, and never touched again
// after its context was destroyed.
struct PristineImage {
    void* object = nullptr;
    const CollectionPlan* plan = nullptr;  // plans live for the process (cached), so the address is theirs
    std::size_t ranges = 0;
    std::vector<std::uint8_t> image;
};

PristineImage pristine;  // of the enabled object; cleared when it is disabled

// An enabled object is reused only for the plan and replay mode it was configured with: on the H100 (CUDA
// 13.0) a second cuptiRangeProfilerSetConfig with another config image on the same enabled object succeeded,
// but every value of that session evaluated to NaN. A new plan therefore disables the object and enables a
// fresh one.
struct EnabledProfiler {
    std::uint64_t context_id = 0;
    void* object = nullptr;
    const CollectionPlan* plan = nullptr;
    Replay replay = Replay::kernel;
};
EnabledProfiler enabled;

// Kept enabled after a session, also once KernelPolicy's activity session exists: while the range profiler is
// enabled CUPTI delivers no kernel activity records (seen on the H100, CUDA 13.0), so the next KernelPolicy scope
// (or measure()'s kernel method) disables it when constructed (release_kept_profiler, through the activity
// session's silence release), and a session flushes the records of finished work before it enables one.
// Disabling after every session instead cost each later session a fresh object: its counter-data image
// initialised again (136-175 ms for 256 ranges of the compute and SOL sets) and 11-49 ms more for each of its
// first Starts (H100, CUDA 13.0, bench/metrics_vs_ncu).

// GPUCHRONO_METRICS_TRACE=1 prints each phase's wall time to stderr (docs/metrics.md, "Cost").
bool tracing() {
    static const bool on = std::getenv("GPUCHRONO_METRICS_TRACE") != nullptr;
    return on;
}

struct PhaseClock {
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
    void mark(const char* phase) {
        if (!tracing()) return;
        const auto now = std::chrono::steady_clock::now();
        std::fprintf(stderr, "gpuchrono metrics: %s %.3f ms\n", phase,
                     std::chrono::duration<double, std::milli>(now - last).count());
        last = now;
    }
};

void disable_object(void* object) noexcept {
    auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = as_object(object);
    try {
        (void)profiler_functions().disable(&p);
    } catch (...) {
    }
    pristine = {};
    cupti::reenable_activity_kinds();
    // Disabled, the profiler no longer holds the kernel records back (H100, CUDA 13.0: KernelPolicy's times
    // after a disabled session matched those before it): KernelPolicy may run again.
    cupti::mark_activity_silenced(nullptr);
}

// A session between its constructor and its disable(): the kept profiler is its object then, not to be released.
std::atomic<bool> session_running{false};

}  // namespace

void release_kept_profiler() noexcept {
    if (session_running.load()) return;
    if (enabled.object && enabled.context_id == gpuchrono::detail::current_context_id()) disable_object(enabled.object);
    enabled = {};
}

RangeSession::RangeSession(std::shared_ptr<const CollectionPlan> plan, std::size_t max_kernels, Replay replay)
    : plan_(std::move(plan)), max_kernels_(max_kernels), replay_(replay), began_(std::chrono::steady_clock::now()) {
    if (max_kernels_ == 0) throw std::invalid_argument("hardware metrics: max_kernels must be at least 1");
    const ProfilerFunctions& f = profiler_functions();
    void* ctx = current_cuda_context(plan_->device);
    context_id_ = gpuchrono::detail::current_context_id();
    // Work queued before the scope is not the scope's: it must not run inside the first range.
    if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
        (void)cudaGetLastError();
        throw std::runtime_error(std::string("hardware metrics: the device failed before the scope began: ") +
                                 cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
    }
    PhaseClock clock;
    // Kernel names: the launch callbacks of gpuchrono's one CUPTI subscriber (shared with KernelPolicy).
    if (!hold_)
        naming_error_ = hold_.why_not();
    else if (auto e = cupti::enable_launch_callbacks())
        naming_error_ = *e;
    if (hold_) cupti::pause_activity_kinds();  // turned on again when the profiler is disabled (disable_object)
    clock.mark("subscriber");
    if (enabled.object && enabled.context_id != context_id_) {
        // Another context (or the same device after a reset): the old object's context may be gone; only a live
        // one is disabled.
        if (enabled.context_id != 0 && gpuchrono::detail::current_context_id() == enabled.context_id)
            disable_object(enabled.object);
        enabled = {};
    }
    if (enabled.object && (enabled.plan != plan_.get() || enabled.replay != replay_)) {
        disable_object(enabled.object);  // configured for another plan: see EnabledProfiler
        enabled = {};
    }
    if (enabled.object) {
        object_ = enabled.object;
    } else {
        // Once enabled, the profiler holds CUPTI's kernel records back until it is disabled: the records of work
        // that finished before it (a lazy KernelPolicy scope not read yet) are delivered to the store first.
        if (cupti::activity_session_active()) {
            std::string why;
            if (cupti::CuptiSession* activity = cupti::CuptiSession::get(why)) activity->flush();
        }
        auto enable = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
        enable.ctx = static_cast<CUcontext>(ctx);
        call(f.enable(&enable), "cuptiRangeProfilerEnable");
        object_ = enable.pRangeProfilerObject;
        fresh_profiler_ = true;
        enabled = {context_id_, object_, plan_.get(), replay_};
    }
    clock.mark("enable");
    try {
        std::vector<const char*> names;
        for (const std::string& m : plan_->metrics) names.push_back(m.c_str());
        auto size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
        size.pRangeProfilerObject = as_object(object_);
        size.pMetricNames = names.data();
        size.numMetrics = names.size();
        size.maxNumOfRanges = max_kernels_;
        size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_kernels_);
        call(f.get_counter_data_size(&size), "cuptiRangeProfilerGetCounterDataSize");
        clock.mark("counter data size");
        if (tracing()) std::fprintf(stderr, "gpuchrono metrics: counter data image of %zu bytes\n", size.counterDataSize);
        // Initialising an image costs milliseconds (4-27 ms for 256 ranges on the H100); a fresh copy of one
        // initialised for the same object, plan and size is the same bytes.
        if (pristine.object == object_ && pristine.plan == plan_.get() && pristine.ranges == max_kernels_ &&
            pristine.image.size() == size.counterDataSize) {
            counter_data_ = pristine.image;
            clock.mark("counter data image (copied)");
        } else {
            counter_data_.assign(size.counterDataSize, 0);
            auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
                CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
            init.pRangeProfilerObject = as_object(object_);
            init.counterDataSize = counter_data_.size();
            init.pCounterData = counter_data_.data();
            call(f.counter_data_image_initialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
            pristine = {object_, plan_.get(), max_kernels_, counter_data_};
            clock.mark("counter data image (initialised)");
        }
        auto config = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
        config.pRangeProfilerObject = as_object(object_);
        config.configSize = plan_->config_image.size();
        config.pConfig = plan_->config_image.data();
        config.counterDataImageSize = counter_data_.size();
        config.pCounterDataImage = counter_data_.data();
        config.range = CUPTI_AutoRange;
        config.replayMode = replay_ == Replay::user ? CUPTI_UserReplay : CUPTI_KernelReplay;
        config.maxRangesPerPass = max_kernels_;
        config.numNestingLevels = 1;
        config.minNestingLevel = 1;
        config.passIndex = 0;
        config.targetNestingLevel = 1;
        call(f.set_config(&config), "cuptiRangeProfilerSetConfig");
        clock.mark("set config");
        {
            const std::lock_guard lock(launched_mutex);
            launched.clear();
        }
        if (naming_error_.empty()) cupti::set_kernel_name_listener(on_kernel_launch);
        session_running = true;
        cupti::set_silence_release(&release_kept_profiler);
        cupti::mark_activity_silenced(
            "CUPTI's range profiler (gpuchrono::metrics) is enabled on this context, and while it is CUPTI delivers "
            "no kernel activity records (seen on an H100 with CUDA 13.0: KernelPolicy timed 0 ns), so KernelPolicy "
            "refuses while a MetricsScope is open; measure() falls back to the graph or event method "
            "(docs/metrics.md)");
        if (replay_ == Replay::kernel) {
            auto start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
            start.pRangeProfilerObject = as_object(object_);
            call(f.start(&start), "cuptiRangeProfilerStart");
            clock.mark("start");
        }
    } catch (...) {
        cupti::set_kernel_name_listener(nullptr);
        disable();
        throw;
    }
}

void RangeSession::run_passes(const std::function<void()>& one_pass, const std::function<void()>& before_pass) {
    if (replay_ != Replay::user) throw std::logic_error("hardware metrics: run_passes() is for user replay only");
    if (!object_ || stopped_) throw std::logic_error("hardware metrics: the passes were already run");
    const ProfilerFunctions& f = profiler_functions();
    PhaseClock clock;
    // A bound well past the plan's count: a CUPTI that never reports completion must not loop for ever.
    const std::size_t limit = plan_->passes + 4;
    for (;;) {
        {  // the names of the last pass are the ones its ranges get
            const std::lock_guard lock(launched_mutex);
            launched.clear();
        }
        if (before_pass) {
            cupti::set_kernel_name_listener(nullptr);
            before_pass();
            if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
                (void)cudaGetLastError();
                throw std::runtime_error(std::string("hardware metrics: the work before replay pass ") +
                                         std::to_string(user_passes_) + " failed: " + cudaGetErrorName(e));
            }
            if (naming_error_.empty()) cupti::set_kernel_name_listener(on_kernel_launch);
        }
        auto start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
        start.pRangeProfilerObject = as_object(object_);
        clock.mark("  pass: before");
        call(f.start(&start), "cuptiRangeProfilerStart");
        clock.mark("  pass: start");
        one_pass();
        const cudaError_t synced = cudaDeviceSynchronize();
        clock.mark("  pass: work (synchronize)");
        if (synced != cudaSuccess) {
            (void)cudaGetLastError();
            throw std::runtime_error(std::string("hardware metrics: the work failed in replay pass ") +
                                     std::to_string(user_passes_) + ": " + cudaGetErrorName(synced) + " (" +
                                     cudaGetErrorString(synced) + ")");
        }
        auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        stop.pRangeProfilerObject = as_object(object_);
        call(f.stop(&stop), "cuptiRangeProfilerStop");
        clock.mark("  pass: stop");
        ++user_passes_;
        if (stop.isAllPassSubmitted) break;
        if (user_passes_ >= limit)
            throw std::runtime_error("hardware metrics: CUPTI asked for more than " + std::to_string(limit) +
                                     " user replay passes (the plan has " + std::to_string(plan_->passes) + ")");
    }
    stopped_ = true;
}

void RangeSession::disable() noexcept {
    cupti::set_kernel_name_listener(nullptr);
    session_running = false;
    if (!object_) return;
    if (enabled.object != object_) disable_object(object_);
    object_ = nullptr;
}

RangeSession::~RangeSession() {
    if (!object_) return;
    if (stopped_) {
        disable();
        return;
    }
    try {
        // Stop before disabling, as CUPTI's order asks; the counters are dropped.
        auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        stop.pRangeProfilerObject = as_object(object_);
        (void)cudaDeviceSynchronize();
        (void)cudaGetLastError();
        (void)profiler_functions().stop(&stop);
    } catch (...) {
    }
    disable();
}

namespace {
// The peaks every result carries (percentages and roofs divide by them), and the roofline points when the
// request held the roofline counters: without any sass FLOP counter a note per launch would only say so.
void add_peaks_and_roofline(MetricsResult& result, int device) {
    try {
        result.peaks = device_peaks(device);
    } catch (const std::exception& e) {
        result.notes.push_back(std::string("no device peaks: ") + e.what());
    }
    const bool wants_roofline = std::any_of(result.requested.begin(), result.requested.end(), [](const std::string& m) {
        return m.starts_with("smsp__sass_thread_inst_executed_op_");
    });
    if (wants_roofline) add_roofline(result);
}
}  // namespace

MetricsResult RangeSession::finish() {
    if (!object_) throw std::logic_error("hardware metrics: the session was already finished");
    const ProfilerFunctions& f = profiler_functions();
    struct DisableOnExit {
        RangeSession* s;
        ~DisableOnExit() { s->disable(); }
    } disable_on_exit{this};
    PhaseClock clock;
    const cudaError_t synced = cudaDeviceSynchronize();
    cupti::set_kernel_name_listener(nullptr);
    clock.mark("kernels (synchronize)");
    const std::uint64_t context_now = gpuchrono::detail::current_context_id();
    if (synced != cudaSuccess || context_now != context_id_) {
        (void)cudaGetLastError();
        object_ = nullptr;  // its context is gone: CUPTI must not be called on it
        if (enabled.context_id == context_id_) enabled = {};
        pristine = {};
        cupti::mark_activity_silenced(nullptr);  // the profiler went with its context
        throw std::runtime_error(std::string("hardware metrics: the device was reset or its context destroyed during "
                                             "the scope (") +
                                 (synced != cudaSuccess ? cudaGetErrorName(synced) : "the current context changed") +
                                 "): the counters of its kernels are lost; end the scope before cudaDeviceReset()");
    }
    MetricsResult result;
    result.requested = plan_->metrics;
    result.passes = plan_->passes;
    if (replay_ == Replay::user) {
        if (!stopped_) throw std::logic_error("hardware metrics: a user replay session needs run_passes() before finish()");
        if (user_passes_ != plan_->passes)
            result.notes.push_back("user replay took " + std::to_string(user_passes_) + " passes (the plan said " +
                                   std::to_string(plan_->passes) + ")");
        result.passes = user_passes_;
    } else {
        auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        stop.pRangeProfilerObject = as_object(object_);
        call(f.stop(&stop), "cuptiRangeProfilerStop");
        clock.mark("stop");
        if (!stop.isAllPassSubmitted)
            result.notes.push_back("CUPTI reported that not every pass was submitted (pass " +
                                   std::to_string(stop.passIndex) + "): values may be incomplete");
    }
    auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    decode.pRangeProfilerObject = as_object(object_);
    call(f.decode_data(&decode), "cuptiRangeProfilerDecodeData");
    dropped_ranges_ = decode.numOfRangeDropped;
    if (decode.numOfRangeDropped > 0)
        result.notes.push_back(std::to_string(decode.numOfRangeDropped) + " kernel launches beyond the scope's " +
                               std::to_string(max_kernels_) + " were not profiled (raise max_kernels)");
    auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = counter_data_.data();
    info.counterDataImageSize = counter_data_.size();
    call(f.get_counter_data_info(&info), "cuptiRangeProfilerGetCounterDataInfo");
    clock.mark("decode");
    std::vector<std::string> names_in_order;
    {
        const std::lock_guard lock(launched_mutex);
        names_in_order.swap(launched);
    }
    // CUPTI's decode reported no dropped range on the H100 (CUDA 13.0) when a user replay pass launched 24
    // kernels into an image of 16 ranges: the launch callbacks count them. The ranges it kept are the first
    // launches, in order, so they keep their names.
    const bool filled = naming_error_.empty() && info.numTotalRanges == max_kernels_ &&
                        names_in_order.size() > info.numTotalRanges;
    if (filled) {
        const std::size_t beyond = names_in_order.size() - info.numTotalRanges;
        if (dropped_ranges_ == 0)
            result.notes.push_back(std::to_string(beyond) + " kernel launches beyond the " + std::to_string(max_kernels_) +
                                   " the session could hold were not profiled (raise max_kernels)");
        dropped_ranges_ = std::max<std::size_t>(dropped_ranges_, beyond);
    }
    if (!naming_error_.empty())
        result.notes.push_back("kernels are named by CUPTI's range numbers: " + naming_error_);
    else if (!filled && names_in_order.size() != info.numTotalRanges)
        result.notes.push_back(std::to_string(info.numTotalRanges) + " ranges for " +
                               std::to_string(names_in_order.size()) +
                               " kernel launch calls seen: kernels are named by CUPTI's range numbers");
    for (const std::string& n : names_in_order)
        if (n == "(graph launch)") {
            result.notes.push_back("a CUDA graph launched in the scope is profiled as one range over all its kernels, "
                                   "named \"(graph launch)\"");
            break;
        }
    const bool named = naming_error_.empty() && (filled || names_in_order.size() == info.numTotalRanges);

    std::vector<const char*> names;
    for (const std::string& m : plan_->metrics) names.push_back(m.c_str());
    std::map<std::string, std::uint64_t> launches;
    std::vector<double> values(names.size());
    for (std::size_t range = 0; range < info.numTotalRanges; ++range) {
        auto r = params<CUpti_RangeProfiler_CounterData_GetRangeInfo_Params>(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE);
        r.pCounterDataImage = counter_data_.data();
        r.counterDataImageSize = counter_data_.size();
        r.rangeIndex = range;
        r.rangeDelimiter = "/";
        call(f.counter_data_get_range_info(&r), "cuptiRangeProfilerCounterDataGetRangeInfo");
        auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
        eval.pHostObject = plan_->host;
        eval.pCounterDataImage = counter_data_.data();
        eval.counterDataImageSize = counter_data_.size();
        eval.rangeIndex = range;
        eval.ppMetricNames = names.data();
        eval.numMetrics = names.size();
        eval.pMetricValues = values.data();
        call(f.host_evaluate_to_gpu_values(&eval), "cuptiProfilerHostEvaluateToGpuValues");
        KernelMetrics k;
        k.kernel = kernel_name_of_range(named ? names_in_order[range].c_str() : r.rangeName);
        k.launch = launches[k.kernel]++;
        k.device = plan_->device;
        for (std::size_t i = 0; i < names.size(); ++i) {
            k.values.push_back({plan_->metrics[i], values[i], plan_->units[i]});
            if (const std::string note = k.values.back().note(); !note.empty())
                result.notes.push_back(plan_->metrics[i] + " of " + k.kernel + " (launch " + std::to_string(k.launch) +
                                       "): " + note);
            if (std::isnan(values[i]))  // never handed back silently: the evaluation found no counts
                result.notes.push_back("the device returned NaN for " + plan_->metrics[i] + " of " + k.kernel +
                                       " (range " + std::to_string(range) + "): its counters were not collected");
        }
        result.kernels.push_back(std::move(k));
    }
    clock.mark("evaluate");
    add_peaks_and_roofline(result, plan_->device);
    result.collection_ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - began_).count();
    return result;
}
#else
void release_kept_profiler() noexcept {}
RangeSession::RangeSession(std::shared_ptr<const CollectionPlan>, std::size_t, Replay) { profiler_functions(); }
void RangeSession::run_passes(const std::function<void()>&, const std::function<void()>&) { profiler_functions(); }
RangeSession::~RangeSession() = default;
void RangeSession::disable() noexcept {}
MetricsResult RangeSession::finish() { profiler_functions(); return {}; }
#endif

}  // namespace gpuchrono::metrics::detail
