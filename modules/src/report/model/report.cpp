// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/report/model/report.hpp>

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/measure/measure_record.hpp>
#include <gpuchrono/checks/summary.hpp>
#include <gpuchrono/version.hpp>

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpuchrono::report {

namespace {

int attribute(cudaDeviceAttr what, int device, const char* name) {
    int value = 0;
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&value, what, device), std::string("reading ") + name);
    return value;
}

}  // namespace

DeviceInfo describe_device(int device) {
    DeviceInfo info;
    info.index = device;
    cudaDeviceProp prop{};
    GPUCHRONO_CUDA_CHECK(cudaGetDeviceProperties(&prop, device), "reading the device properties for the report");
    info.name = prop.name;
    info.compute_major = prop.major;
    info.compute_minor = prop.minor;
    info.sm_count = prop.multiProcessorCount;
    info.global_memory_bytes = prop.totalGlobalMem;
    info.l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
    info.shared_memory_per_sm_bytes = prop.sharedMemPerMultiprocessor;
    info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    info.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
    info.memory_bus_bits = prop.memoryBusWidth;
    // The clock fields left cudaDeviceProp in CUDA 13; the attributes remain (in kHz).
    info.sm_clock_nominal_mhz = attribute(cudaDevAttrClockRate, device, "the SM clock rate") / 1000.0;
    info.memory_clock_mhz = attribute(cudaDevAttrMemoryClockRate, device, "the memory clock rate") / 1000.0;
    GPUCHRONO_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version), "reading the driver's CUDA version");
    GPUCHRONO_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version), "reading the runtime's CUDA version");
    return info;
}

std::string cuda_version_string(int version) {
    if (version <= 0) return "unknown";
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

SampleSeries make_series(std::string name, std::string policy, std::vector<Duration> samples, Findings findings) {
    SampleSeries s;
    s.name = std::move(name);
    s.policy = std::move(policy);
    s.stats = summarize(samples);
    s.samples = std::move(samples);
    s.findings = std::move(findings);
    return s;
}

SampleSeries make_series(const Series& series, std::source_location where) {
    std::string policy = "none";
    for (const Measurement& m : series.measurements()) {
        if (policy == "none")
            policy = std::string(m.policy());
        else if (policy != m.policy())
            policy = "mixed";
    }
    // summary() adds what only the whole series shows (a cold first sample, too few samples, noise).
    Summary sum = summary(series, {}, where);
    SampleSeries s;
    s.name = series.name();
    s.policy = std::move(policy);
    s.samples = series.durations();
    s.failed = sum.failed;
    s.first_error = std::move(sum.first_error);
    s.stats = sum.stats;
    s.findings = std::move(sum.findings);
    {
        // The devices, and per device the median busy time and span over the samples that ran there.
        std::set<int> devices;
        std::map<int, std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> busy;
        std::map<int, std::uint64_t> activities;
        for (const Measurement& m : series.measurements()) {
            if (m.device() >= 0) devices.insert(m.device());
            for (const DeviceBusy& b : m.device_busy()) {
                if (b.device >= 0) devices.insert(b.device);
                busy[b.device].first.push_back(b.busy_ns);
                busy[b.device].second.push_back(b.span_ns);
                activities[b.device] += b.activities;
            }
        }
        s.devices.assign(devices.begin(), devices.end());
        const auto median = [](std::vector<std::int64_t> v) {
            const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
            std::nth_element(v.begin(), mid, v.end());
            return *mid;  // the upper middle of an even count: a time one sample really had
        };
        for (auto& [device, times] : busy) s.device_busy.push_back({device, median(times.first), median(times.second), activities[device]});
    }
    if (const auto& r = series.measure_record()) {
        MeasureSummary m;
        m.method = to_string(r->method);
        m.method_note = r->method_note;
        m.cache_state = to_string(r->cache);
        m.calls_per_sample = r->calls_per_sample;
        m.warmup_ns = r->warmup.time.ns();
        m.warmup_calls = r->warmup.calls;
        m.warmup_ended = r->warmup.ended;
        m.stop_reason = to_string(r->stop_reason);
        m.ci_low_ns = r->interval.low_ns;
        m.ci_high_ns = r->interval.high_ns;
        m.ci_coverage = r->interval.coverage;
        m.target_relative_width = r->target_relative_width;
        m.sampling_ns = r->sampling_time.ns();
        m.flagged = r->flagged;
        m.excluded = r->excluded;
        m.bytes_per_second = r->bytes_per_second();
        m.peak_bytes_per_second = r->peak_bytes_per_second;
        m.items_per_second = r->items_per_second();
        s.measure = std::move(m);
        s.kernel_metrics = r->kernel_metrics;  // the hardware metrics measure() took in replays of their own
    }
    return s;
}

std::string region_name(const Timeline& t, std::uint32_t id) {
    if (id < t.regions.size() && !t.regions[id].empty()) return t.regions[id];
    return "region " + std::to_string(id);
}

double sample_cycles(const BlockSample& s) noexcept {
    if (s.accumulating || s.count > 1) return s.cycles_valid ? static_cast<double>(s.accumulated_cycles) : not_measured;
    if (s.sm_start != s.sm_stop) return not_measured;
    return static_cast<double>(static_cast<std::int64_t>(s.stop_cycles - s.start_cycles));
}

Timeline make_timeline(std::string name, const BlockSamples& b) {
    Timeline t;
    t.name = std::move(name);
    t.device = b.device;
    t.regions = b.region_names;
    t.samples = b.samples;
    t.dropped = b.dropped;
    t.blocks_launched = b.grid_blocks;
    t.threads_per_block = b.block_threads;
    t.sm_count = b.sm_count;
    t.resident_blocks_per_sm = b.resident_blocks_per_sm;
    t.globaltimer_step_ns = b.timer_step.ns() > 0 ? b.timer_step.ns() : not_measured;
    t.sm_clock_mhz = b.sm_clock.hz > 0 ? b.sm_clock.hz / 1e6 : not_measured;
    t.sm_clock_source = to_string(b.sm_clock.source);
    if (b.overhead.regions_measured > 0) {
        t.overhead_region_cycles = b.overhead.region_cycles;
        t.overhead_iteration_cycles = b.overhead.iteration_cycles;
    }
    t.overhead_subtracted = b.overhead_subtracted;
    return t;
}

Report new_report() {
    Report r;
    r.generator = std::string("gpuchrono ") + std::string(gpuchrono::version().text);
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    r.created_utc = buf;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) r.host = host;
    try {
        r.distributed = distributed::start_rank_section(distributed::identity_from_environment(), false);
    } catch (const distributed::IdentityError& e) {
        r.notes.push_back(std::string("which rank of a job wrote this report is not recorded: ") + e.what());
    }
    return r;
}

std::string slug(std::string_view text) {
    std::string out;
    bool dash = false;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            if (dash && !out.empty()) out += '-';
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            dash = false;
        } else {
            dash = true;
        }
    }
    return out.empty() ? "unnamed" : out;
}

}  // namespace gpuchrono::report
