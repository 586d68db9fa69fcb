// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/policies/device_clock/calibration.hpp>
#include <gpuchrono/policies/device_clock/decode.hpp>
#include <gpuchrono/policies/device_clock/device_clock_policy.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/gpu/stream.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpuchrono {

namespace {

// 2^27 slots are 12.9 GB of device memory: beyond that the options are a mistake, not a plan.
constexpr std::size_t max_record_slots = std::size_t{1} << 27;

// Long enough that %globaltimer quantisation bounds the reference clock's error to 0.25%, whatever the step.
Duration reference_span(Duration timer_step) { return std::max(Duration::from_us(20), timer_step * 400.0); }

std::string on_device(const std::string& what, int device) { return what + " on device " + std::to_string(device); }

}  // namespace

void DeviceClockPolicy::validate(const Options& o) {
    const std::string prefix = "gpuchrono::DeviceClockPolicy::Options: ";
    if (o.regions.empty()) throw std::invalid_argument(prefix + "regions is empty: name at least one region");
    for (std::size_t i = 0; i < o.regions.size(); ++i) {
        if (o.regions[i].empty()) throw std::invalid_argument(prefix + "region " + std::to_string(i) + " has an empty name");
        for (std::size_t j = 0; j < i; ++j)
            if (o.regions[j] == o.regions[i])
                throw std::invalid_argument(prefix + "region name \"" + o.regions[i] + "\" is given twice (ids " +
                                            std::to_string(j) + " and " + std::to_string(i) + ")");
    }
    if (o.max_blocks == 0) throw std::invalid_argument(prefix + "max_blocks must be > 0");
    if (o.regions.size() > max_record_slots || std::size_t{o.max_blocks} * o.regions.size() > max_record_slots)
        throw std::invalid_argument(prefix + "max_blocks " + std::to_string(o.max_blocks) + " x " +
                                    std::to_string(o.regions.size()) + " regions is more than " +
                                    std::to_string(max_record_slots) + " records (" +
                                    std::to_string(probe_bytes(max_record_slots) >> 20) + " MiB of device memory)");
    if (o.resident_blocks_per_sm < 0)
        throw std::invalid_argument(prefix + "resident_blocks_per_sm must be >= 0 (0: unknown), got " +
                                    std::to_string(o.resident_blocks_per_sm));
    if (!(o.max_clock_uncertainty > 0 && o.max_clock_uncertainty <= 1))
        throw std::invalid_argument(prefix + "max_clock_uncertainty must be in (0, 1], got " +
                                    std::to_string(o.max_clock_uncertainty));
}

std::uint32_t DeviceClockPolicy::region_id(const Options& options, std::string_view region) {
    const auto it = std::find(options.regions.begin(), options.regions.end(), region);
    if (it != options.regions.end()) return static_cast<std::uint32_t>(it - options.regions.begin());
    std::string named;
    for (const std::string& r : options.regions) named += (named.empty() ? "\"" : ", \"") + r + "\"";
    throw std::invalid_argument("gpuchrono::DeviceClockPolicy: no region named \"" + std::string(region) +
                                "\" (the regions are " + named + ")");
}

DeviceClockPolicy::DeviceClockPolicy(cudaStream_t stream, Options options) : stream_(stream), options_(std::move(options)) {
    validate(options_);
    device_ = stream_device(stream_);
}

DeviceClockPolicy::DeviceClockPolicy(DeviceClockPolicy&& o) noexcept
    : stream_(o.stream_), device_(o.device_), options_(std::move(o.options_)), buffer_(std::move(o.buffer_)),
      running_(std::exchange(o.running_, false)) {}

DeviceClockPolicy& DeviceClockPolicy::operator=(DeviceClockPolicy&& o) noexcept {
    if (this != &o) {
        stream_ = o.stream_;
        device_ = o.device_;
        options_ = std::move(o.options_);
        buffer_ = std::move(o.buffer_);
        running_ = std::exchange(o.running_, false);
    }
    return *this;
}

std::size_t DeviceClockPolicy::record_slots() const noexcept {
    return std::size_t{options_.max_blocks} * options_.regions.size();
}

void DeviceClockPolicy::refuse_capture(const char* when) const {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    GPUCHRONO_CUDA_CHECK(cudaStreamIsCapturing(stream_, &status),
                         on_device(std::string("checking for stream capture ") + when, device_));
    if (status != cudaStreamCaptureStatusNone)
        throw TimerError(std::string("gpuchrono: DeviceClockPolicy ") + when +
                         " on a stream under capture: it reads the records back at stop, which capture cannot do "
                         "(docs/pitfalls-catalog.md #13). Time the graph's launch instead");
}

void DeviceClockPolicy::start() {
    if (running_) throw TimerError("gpuchrono: DeviceClockPolicy::start() while already running (stop() first)");
    refuse_capture("start()");
    RelaxedCaptureMode relaxed;  // another stream of this thread may be capturing: nothing here touches it
    DeviceGuard on(device_);
    ProbeBufferLease buffer = ProbeBufferPool::instance().acquire(device_, record_slots());
    GPUCHRONO_CUDA_CHECK(cudaMemsetAsync(buffer.device_memory(), 0, probe_bytes(record_slots()), stream_),
                         on_device("clearing the DeviceClockPolicy probe", device_));
    buffer.mark_in_flight();
    buffer_ = std::move(buffer);
    running_ = true;
}

DeviceProbe DeviceClockPolicy::probe() const {
    if (!running_)
        throw TimerError("gpuchrono: DeviceClockPolicy::probe() outside start() .. stop(): the probe is only valid "
                         "while the timer runs");
    return buffer_.probe(options_.max_blocks, static_cast<std::uint32_t>(options_.regions.size()));
}

// Not inlined: its return address is its caller's, which findings name when no source location is given.
[[gnu::noinline]] Measurement DeviceClockPolicy::stop() { return stop_at(CallSite::returning_to(__builtin_return_address(0))); }

Measurement DeviceClockPolicy::stop(std::source_location where) { return stop_at(CallSite::located(where)); }

Measurement DeviceClockPolicy::stop_at(const CallSite& site) {
    if (!running_) throw TimerError("gpuchrono: DeviceClockPolicy::stop() without start()");
    // Whatever happens below, this scope is over; a buffer still in flight is abandoned by the pool.
    running_ = false;
    refuse_capture("stop()");
    Measurement m;
    Findings found;
    {
        RelaxedCaptureMode relaxed;  // another stream of this thread may be capturing: nothing here touches it
        DeviceGuard on(device_);
        const std::size_t slots = record_slots();
        GPUCHRONO_CUDA_CHECK(cudaMemcpyAsync(buffer_.host_memory(), buffer_.device_memory(), probe_bytes(slots),
                                             cudaMemcpyDeviceToHost, stream_),
                             on_device("copying back the DeviceClockPolicy records", device_));
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream_), on_device("waiting for the DeviceClockPolicy records", device_));
        buffer_.mark_idle();

        device_clock::Decoded d = device_clock::decode(buffer_.host_header(), buffer_.host_records(slots),
                                                       options_.regions, options_.max_blocks);
        buffer_ = ProbeBufferLease();
        if (!d.ok()) return Measurement::failure(name, "gpuchrono: DeviceClockPolicy: " + d.error, device_);

        DeviceClockCalibration& calibration = DeviceClockCalibration::instance();
        BlockSamples& s = d.samples;
        s.device = device_;
        s.sm_count = calibration.sm_count(device_);
        s.resident_blocks_per_sm = options_.resident_blocks_per_sm;
        s.timer_step = calibration.timer_step(device_, stream_);
        std::optional<SmClock> clock = device_clock::clock_from_samples(s.samples, s.timer_step);
        if (!clock || clock->uncertainty > options_.max_clock_uncertainty)
            clock = calibration.reference_clock(device_, stream_, reference_span(s.timer_step));
        s.sm_clock = *clock;
        if (options_.subtract_overhead) {
            s.overhead = calibration.overhead(device_, s.block_threads, stream_);
            s.overhead_subtracted = true;
        }
        device_clock::apply_clock(s);

        m = Measurement::completed(name, s.kernel_duration(), device_);
        found = device_clock::measurement_findings(std::move(d.findings), s);
        m.set_blocks(std::make_shared<const BlockSamples>(std::move(s)));
    }
    // Outside the relaxed mode: a sink is the user's code.
    handle_findings(m, std::move(found), site);
    return m;
}

}  // namespace gpuchrono
