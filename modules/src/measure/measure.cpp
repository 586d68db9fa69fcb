// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/measure/measure.hpp>

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include "gpu/l2_flush.hpp"
#include <gpuchrono/measure/measure_record.hpp>
#include <gpuchrono/stats/stopping_rule.hpp>
#include "measure/batch_plan.hpp"
#include "measure/throughput.hpp"
#include "measure/warmup.hpp"
#include <gpuchrono/core/nvtx_range.hpp>
#include <gpuchrono/cupti/cupti_hold.hpp>

#include <gpuchrono/metrics/metrics_scope.hpp>

#include "checks/check_convergence.hpp"
#include "gpu/launch_warmup.hpp"
#include "metrics/collection.hpp"
#include "methods/sample_method.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

// How often NVML is read while sampling, to flag samples under a low or capped clock (an NVML read costs tens of
// microseconds and slows the next launch, so not after every batch); and how long one batch may last.
constexpr Duration state_interval = Duration::from_ms(25);
constexpr Duration batch_budget = Duration::from_ms(10);

Duration since(std::chrono::steady_clock::time_point t) { return std::chrono::steady_clock::now() - t; }

bool is_clock_flag(const Finding& f) {
    return f.code == codes::gpu_clock_low || f.code == codes::gpu_clock_throttled || f.code == codes::gpu_idle_clock;
}

}  // namespace

std::optional<Method> method_from_string(std::string_view text) noexcept {
    for (const Method m : {Method::automatic, Method::kernel, Method::graph, Method::event, Method::host})
        if (text == to_string(m)) return m;
    return std::nullopt;
}

std::optional<CacheState> cache_state_from_string(std::string_view text) noexcept {
    for (const CacheState c : {CacheState::warm, CacheState::cold})
        if (text == to_string(c)) return c;
    return std::nullopt;
}

Method first_choice(Method requested, bool kernel_available) noexcept {
    if (requested != Method::automatic) return requested;
    return kernel_available ? Method::kernel : Method::graph;
}

bool kernel_method_available(std::string* why_not) { return detail::kernel_policy_available(why_not); }

void MeasureOptions::validate() const {
    if (!method_from_string(to_string(method)))
        throw std::invalid_argument("gpuchrono::measure: method holds no Method value (" +
                                    std::to_string(static_cast<int>(method)) + ")");
    if (!cache_state_from_string(to_string(cache)))
        throw std::invalid_argument("gpuchrono::measure: cache holds no CacheState value (" +
                                    std::to_string(static_cast<int>(cache)) + ")");
    StoppingRule{target_relative_width, confidence, min_samples, max_samples, min_time, max_time}.validate();
    if (!(warmup_min_time.ns() >= 0.0) || !warmup_max_time.is_finite() || warmup_max_time < warmup_min_time)
        throw std::invalid_argument("gpuchrono::measure: warmup_min_time (" + to_string(warmup_min_time) +
                                    ") and warmup_max_time (" + to_string(warmup_max_time) +
                                    ") must be finite, >= 0 and in that order");
    if (!(graph_replay_time.ns() > 0.0) || !graph_replay_time.is_finite())
        throw std::invalid_argument("gpuchrono::measure: graph_replay_time must be positive and finite, got " +
                                    to_string(graph_replay_time));
}

namespace detail {

void require_unused_series_name(const SeriesSet& set, std::string_view name) {
    if (set.contains(name) && !set.at(name).empty())
        throw std::invalid_argument("gpuchrono::measure: the set already holds " + std::to_string(set.at(name).size()) +
                                    " samples named \"" + std::string(name) +
                                    "\"; measure() would mix them with another run's (choose another name)");
}

namespace {

std::unique_ptr<SampleMethod> make_method(Method m, const MethodSetup& setup) {
    switch (m) {
        case Method::graph: return make_graph_method(setup);
        case Method::event: return make_event_method(setup);
        case Method::host: return make_host_method(setup);
        case Method::kernel: return make_kernel_method(setup);
        case Method::automatic: break;
    }
    throw std::logic_error("gpuchrono::measure: no method chosen");
}

}  // namespace

namespace {
Series measure_named(std::string name, cudaStream_t stream, const LaunchFn& launch, bool takes_stream,
                     const MeasureOptions& options, std::source_location where);
}  // namespace

// The user's call: a CUDA failure anywhere inside (no device, a faulting kernel) names it and the caller's line.
Series measure_erased(std::string name, cudaStream_t stream, const LaunchFn& launch, bool takes_stream,
                      const MeasureOptions& options, std::source_location where) {
    const std::string entry = "measure(\"" + name + "\")";
    return in_entry_point(entry, &where, [&] { return measure_named(std::move(name), stream, launch, takes_stream, options, where); });
}

namespace {
Series measure_named(std::string name, cudaStream_t stream, const LaunchFn& launch, bool takes_stream,
                     const MeasureOptions& options, std::source_location where) {
    options.validate();
    // One NVTX range over the whole call, named after the series, so a profiler sees measure()'s work (and
    // ncu --nvtx-include "gpuchrono@<name>/" profiles its kernels); popped on every way out.
    const detail::NvtxRange range(name.c_str());
    if (stream_is_capturing(stream))
        throw std::invalid_argument("gpuchrono::measure(\"" + name +
                                    "\"): the stream is being captured into a graph; measure() runs the work, so "
                                    "call it outside the capture");
    const int device = stream_device(stream);
    DeviceGuard on_device(device);
    const CallSite site = CallSite::at(where);

    auto record = std::make_shared<MeasureRecord>();
    record->cache = options.cache;
    record->device = device;
    record->target_relative_width = options.target_relative_width;
    record->bytes_per_call = options.bytes_read + options.bytes_written;
    record->items_per_call = options.items;
    if (record->bytes_per_call > 0) record->peak_bytes_per_second = device_peak_memory_bandwidth(device);

    // Metric names are checked (and the counters' configuration built) before any sample is paid for.
    if (!options.metrics.empty()) metrics::detail::prepare_metrics(options.metrics, device);

    std::optional<L2Flush> flush;
    if (options.cache == CacheState::cold) flush.emplace(device);

    record->warmup = warm_up(stream, device, launch, options);

    // The method: the one asked for, or automatic's choice with its fallback.
    // Asking sets CUPTI up, which then records every kernel of the process and slows every launch a little
    // (a graph replay's kernels too): only automatic and the kernel method ask.
    // One hold of CUPTI for the choice and the samples: asking and sampling share one set-up, and CUPTI is given
    // back to the process when measure() returns (CuptiHold).
    std::string why_no_kernel;
    const bool may_use_kernel = options.method == Method::automatic || options.method == Method::kernel;
    std::optional<CuptiHold> cupti_hold;
    if (may_use_kernel) cupti_hold.emplace();
    const bool kernel_ok = may_use_kernel && kernel_method_available(&why_no_kernel);
    const Method first = first_choice(options.method, kernel_ok);
    const MethodSetup setup{name, stream, device, launch, takes_stream, flush ? &*flush : nullptr, options,
                            record->warmup.per_call, where};
    std::unique_ptr<SampleMethod> method;
    std::string choice;
    if (options.method != Method::automatic) {
        method = make_method(first, setup);
    } else {
        // Automatic: kernel (when CUPTI can be used), then graph, then event; each refusal is recorded.
        choice = kernel_ok ? "automatic" : "automatic: no kernel method (" + why_no_kernel + ")";
        std::vector<Method> order{Method::graph, Method::event};
        if (kernel_ok) order.insert(order.begin(), Method::kernel);
        for (std::size_t i = 0; i < order.size() && !method; ++i) {
            try {
                method = make_method(order[i], setup);
            } catch (const std::exception& e) {
                if (i + 1 == order.size()) throw;
                (void)cudaGetLastError();
                choice += std::string("; ") + to_string(order[i]) + " refused (" + e.what() + ")";
            }
        }
        choice += std::string("; ") + to_string(method->method());
    }
    record->method = method->method();
    record->calls_per_sample = method->calls_per_sample();
    record->method_note = choice;
    if (const std::string note = method->note(); !note.empty())
        record->method_note += (record->method_note.empty() ? "" : "; ") + note;
    const char* policy = to_string(record->method);  // a literal: Measurement keeps a string_view of it

    const StoppingRule rule{options.target_relative_width, options.confidence, options.min_samples,
                            options.max_samples, options.min_time, options.max_time};
    // Measurements are kept here and moved into the Series at the end: flags and the convergence finding are
    // added to measurements already taken.
    std::vector<Measurement> taken;
    std::vector<double> kept_ns;      // the samples the rule sees: all but excluded ones
    std::vector<std::size_t> kept_at; // their index in `taken`
    std::vector<Duration> batch;
    std::size_t window_start = 0;     // first sample not yet covered by a GPU-state read
    auto last_state_read = std::chrono::steady_clock::now();
    // The per-sample time the batches are sized by: the warm-up's per-call time, the flush's cost aside.
    const double sample_ns = std::max(1.0, record->warmup.per_call.ns()) * record->calls_per_sample;
    const auto sampling_began = std::chrono::steady_clock::now();
    std::size_t next_batch = options.min_samples;
    StopDecision decision;
    while (true) {
        batch.clear();
        method->take(std::min(next_batch, options.max_samples - kept_ns.size()), batch);
        for (const Duration d : batch) {
            taken.push_back(Measurement::completed(policy, d, device));
            kept_at.push_back(taken.size() - 1);
            kept_ns.push_back(d.ns());
        }
        decision = decide(rule, kept_ns, since(sampling_began));

        if (decision.stop || since(last_state_read) >= state_interval) {
            // The state read that closes this window flags the samples taken in it.
            Findings found = check_gpu_state(read_gpu_state(device));
            last_state_read = std::chrono::steady_clock::now();
            const bool low_clock = std::any_of(found.begin(), found.end(), is_clock_flag);
            if (!found.empty() && window_start < taken.size()) {
                handle_findings(taken[window_start], found, site);  // reacts once per read; stamps `where`
                found = taken[window_start].findings();
                for (std::size_t i = window_start; i < taken.size(); ++i) {
                    if (i > window_start)
                        for (const Finding& f : found) taken[i].add_finding(f);
                    if (!low_clock) continue;
                    ++record->flagged;
                    if (!options.exclude_flagged) continue;
                    Measurement excluded = Measurement::failure(
                        policy, "excluded at the caller's request (exclude_flagged): " + found.front().message, device);
                    for (const Finding& f : taken[i].findings()) excluded.add_finding(f);
                    taken[i] = std::move(excluded);
                    ++record->excluded;
                }
                if (low_clock && options.exclude_flagged) {
                    kept_ns.clear();
                    kept_at.clear();
                    for (std::size_t i = 0; i < taken.size(); ++i)
                        if (!taken[i].failed()) {
                            kept_at.push_back(i);
                            kept_ns.push_back(taken[i].duration().ns());
                        }
                    decision = decide(rule, kept_ns, since(sampling_began));
                }
            }
            window_start = taken.size();
            // The launch after an NVML read is slow (launch_warmup.hpp): this one takes that cost, untimed.
            if (!decision.stop) detail::launch_warmup_kernel(stream, device);
        }
        if (decision.stop) break;
        // As many samples as the interval's width says the target needs (batch_plan.hpp), within a 10 ms batch.
        const double by_time = std::max(1.0, std::floor(batch_budget.ns() / sample_ns));
        next_batch = next_batch_samples(kept_ns.size(), decision.interval.relative_width(), options.target_relative_width,
                                        static_cast<std::size_t>(std::min(by_time, 1e9)), options.max_samples - kept_ns.size());
    }
    record->sampling_time = since(sampling_began);
    record->stop_reason = decision.reason;
    record->interval = decision.interval;

    // Metrics after the samples, in a call of their own: the replays never touch a timed sample. A cold
    // measurement's flush runs (and completes) before the scope opens, so it is not profiled itself.
    // measure() owns the callable, so it runs it once per counter pass (CUPTI's user replay): no save and
    // restore of device memory per launch, unlike a MetricsScope's kernel replay (docs/metrics.md, "Cost").
    if (!options.metrics.empty()) {
        check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(stream)", "measure(): before collecting metrics");
        std::function<void()> before_pass;
        if (flush) before_pass = [&] { flush->enqueue(stream); };
        record->kernel_metrics = metrics::detail::collect_metrics_of(options.metrics, device,
                                                                     [&] { launch(stream); }, before_pass);
    }

    Series series(name);
    series.set_measure_record(record);
    if (!kept_at.empty()) {
        SamplingEnd end;
        end.name = name;
        end.converged = decision.converged;
        end.reason = to_string(decision.reason);
        end.budget = decision.reason == StopReason::max_time ? to_string(options.max_time)
                                                             : std::to_string(options.max_samples) + " samples";
        end.confidence = options.confidence;
        end.relative_width = decision.interval.relative_width();
        end.target_relative_width = options.target_relative_width;
        end.samples = kept_ns.size();
        // Attached to the sample at which the budget ran out. Under Reaction::throw_error this throws, after the
        // finding is attached.
        if (std::optional<Finding> f = check_convergence(end)) handle_findings(taken[kept_at.back()], {std::move(*f)}, site);
    }
    for (Measurement& m : taken) series.add(std::move(m));
    return series;
}
}  // namespace

}  // namespace detail

}  // namespace gpuchrono
