// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The load test shared by bench/stress.cpp (16 threads x 10,000 scopes of every policy) and the GPU test
// stress_gpu (the same at small scale): every thread has its own stream (threads alternate between devices
// when there are several) and runs, in turn, one scope of each policy around a spin kernel of known length.
// Every scope is accounted for: ok, or failed with its reason; a scope that is neither is "lost". Every
// reading must lie in the physically possible range: at least the spin (less the event timer's resolution
// for events), and less than the time the whole run has taken so far. Memory is sampled once every thread has
// done its warm-up iterations, at evenly spaced checkpoints after it, and at the end: resident set
// (/proc/self/statm) and each device's used memory (cudaMemGetInfo). The checkpoints tell a leak (growth in
// every interval) from an allocator that settles (growth that stops).
#pragma once

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/measurement.hpp>
#include <gpuchrono/core/scoped_timer.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include "cupti/buffers_delivered.hpp"
#include <gpuchrono/policies/device_clock/device_clock_policy.hpp>
#include <gpuchrono/policies/event/event_policy.hpp>
#include <gpuchrono/policies/host_sync/host_sync_policy.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include <spin.hpp>

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <barrier>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace stress {

using gpuchrono::Duration;
using gpuchrono::Measurement;

// The kinds of scope each iteration runs, one of each. event-lazy is EventPolicy with wait_at_stop = false,
// resolved up to `lazy_window` scopes later. kernel (KernelPolicy, CUPTI) runs only where CUPTI can be set up:
// under compute-sanitizer or another CUPTI tool it cannot, and the kind is reported as not run, with why.
enum Kind : std::size_t { host_sync, event, event_lazy, device_clock, kernel, kind_count };
inline constexpr std::array<const char*, kind_count> kind_names = {"host-sync", "event", "event-lazy", "device-clock",
                                                                   "kernel"};

struct Config {
    int threads = 16;
    int iterations = 10'000;        // scopes of each kind per thread
    int warm_iterations = 1'000;    // memory is sampled after these (per thread) and at the end
    int checkpoints = 4;            // memory samples between the warm-up and the end, evenly spaced
    Duration spin = Duration::from_us(5);
    std::size_t lazy_window = 8;
    using kinds_type = std::array<bool, kind_count>;
    kinds_type kinds = {true, true, true, true, true};  // which kinds run
};

struct Tally {
    std::size_t ok = 0;
    std::size_t failed = 0;
    std::size_t out_of_range = 0;
    Duration min = Duration::from_s(1e9);
    Duration max{};
    std::map<std::string, std::size_t> reasons;  // failure message -> count (first 200 characters)
    std::vector<std::string> out_of_range_examples;
};

struct Memory {
    long rss_bytes = -1;
    std::vector<long long> device_used_bytes;  // per device; -1 where cudaMemGetInfo failed
    std::size_t cupti_buffers = 0;             // activity buffers CUPTI had handed back so far (its heap grows per buffer)
};

struct Result {
    std::size_t expected_per_kind = 0;
    std::array<bool, kind_count> ran{};  // kinds that ran (chosen in Config::kinds; kernel needs CUPTI)
    std::string kernel_unavailable;      // why KernelPolicy did not run, if it was chosen and did not
    std::array<Tally, kind_count> tallies;
    Memory after_warm_up;
    std::vector<std::pair<int, Memory>> checkpoints;  // (iterations done per thread, memory) after the warm-up
    Memory at_end;
    Duration wall{};
    int devices = 0;
    std::vector<std::string> thread_errors;  // a thread that stopped early, and why

    std::size_t expected(std::size_t kind) const { return ran[kind] ? expected_per_kind : 0; }
    std::size_t lost(std::size_t kind) const {
        const Tally& t = tallies[kind];
        return expected(kind) - std::min(expected(kind), t.ok + t.failed);
    }
};

inline long rss_bytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return -1;
    long size = 0, resident = 0;
    const int n = std::fscanf(f, "%ld %ld", &size, &resident);
    std::fclose(f);
    return n == 2 ? resident * sysconf(_SC_PAGESIZE) : -1;
}

inline Memory sample_memory(int devices) {
    Memory m;
    m.rss_bytes = rss_bytes();
    m.cupti_buffers = gpuchrono::cupti::buffers_delivered();
    for (int d = 0; d < devices; ++d) {
        gpuchrono::DeviceGuard on(d);
        std::size_t free = 0, total = 0;
        if (cudaMemGetInfo(&free, &total) == cudaSuccess)
            m.device_used_bytes.push_back(static_cast<long long>(total - free));
        else {
            (void)cudaGetLastError();
            m.device_used_bytes.push_back(-1);
        }
    }
    return m;
}

class Run {
public:
    explicit Run(Config c) : config_(c), sync_point_(c.threads) {}

    Result operator()() {
        gpuchrono::set_finding_reaction(gpuchrono::Reaction::collect);  // findings stay in the measurements
        result_.devices = gpuchrono::device_count();
        result_.expected_per_kind = static_cast<std::size_t>(config_.threads) * config_.iterations;
        result_.ran = config_.kinds;
        for (int c = 1; c <= config_.checkpoints; ++c) {
            const int at = config_.warm_iterations +
                           (config_.iterations - config_.warm_iterations) * c / (config_.checkpoints + 1);
            if (at > config_.warm_iterations && at < config_.iterations &&
                (checkpoint_at_.empty() || at > checkpoint_at_.back()))
                checkpoint_at_.push_back(at);
        }
        if (result_.ran[kernel] && !gpuchrono::KernelPolicy::available()) {
            result_.ran[kernel] = false;
            result_.kernel_unavailable = gpuchrono::KernelPolicy::unavailable_reason();
        }
        // The checkpoints' slots exist before any thread runs: no thread resizes the vector under another.
        for (int at : checkpoint_at_) result_.checkpoints.emplace_back(at, Memory{});
        started_ = std::chrono::steady_clock::now();
        std::vector<std::thread> threads;
        for (int t = 0; t < config_.threads; ++t) threads.emplace_back([this, t] { thread_main(t); });
        for (auto& t : threads) t.join();
        result_.wall = Duration(std::chrono::steady_clock::now() - started_);
        result_.at_end = sample_memory(result_.devices);
        return result_;
    }

private:
    struct Local {
        std::array<Tally, kind_count> tallies;
    };

    Duration elapsed() const { return Duration(std::chrono::steady_clock::now() - started_); }

    void account(Local& local, std::size_t kind, const Measurement& m) {
        Tally& t = local.tallies[kind];
        if (m.resolve() != Measurement::State::ok) {
            ++t.failed;
            ++t.reasons[m.error().substr(0, 200)];
            return;
        }
        const Duration d = m.duration();
        // Events resolve about 0.5 us (CUDA Runtime API docs); CUPTI's and the host's readings cannot fall short
        // of the spin, nor can the device clock's (all read after the spin's own start and end).
        const double lower = kind == event || kind == event_lazy ? config_.spin.ns() - 500.0 : config_.spin.ns();
        if (!(d.ns() >= lower) || !(d < elapsed())) {
            ++t.out_of_range;
            if (t.out_of_range_examples.size() < 5) {
                // Whether the reading said itself that it cannot be trusted (kernel-records-late, ...) decides
                // whether it is a flagged late delivery or a silent wrong number.
                std::string codes;
                for (const gpuchrono::Finding& f : m.findings()) codes += (codes.empty() ? "" : " ") + f.code;
                t.out_of_range_examples.push_back(gpuchrono::to_string(d) + " (spin " + gpuchrono::to_string(config_.spin) +
                                                  ", run so far " + gpuchrono::to_string(elapsed()) + ", findings: " +
                                                  (codes.empty() ? "none" : codes) + ")");
            }
        }
        ++t.ok;
        t.min = std::min(t.min, d);
        t.max = std::max(t.max, d);
    }

    void refused(Local& local, std::size_t kind, const std::exception& e) {
        ++local.tallies[kind].failed;
        ++local.tallies[kind].reasons[std::string("refused at start: ") + std::string(e.what()).substr(0, 180)];
    }

    template <class Policy, class... Options>
    void one_scope(Local& local, std::size_t kind, cudaStream_t stream, Options&&... options) {
        try {
            gpuchrono::ScopedTimer<Policy> t(stream, std::forward<Options>(options)...);
            if constexpr (std::is_same_v<Policy, gpuchrono::DeviceClockPolicy>)
                gpuchrono::kernels::launch_spin(config_.spin, stream, 1, 32, t.policy().probe());
            else
                gpuchrono::kernels::launch_spin(config_.spin, stream);
            Measurement m;
            try {
                m = t.stop();
            } catch (const std::exception& e) {
                m = t.result();  // the failed measurement that stop() recorded before rethrowing
            }
            account(local, kind, m);
        } catch (const std::exception& e) {
            refused(local, kind, e);
        }
    }

    void lazy_scope(Local& local, cudaStream_t stream, std::deque<Measurement>& window) {
        try {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream, gpuchrono::EventPolicy::Options{.wait_at_stop = false});
            gpuchrono::kernels::launch_spin(config_.spin, stream);
            try {
                window.push_back(t.stop());
            } catch (const std::exception&) {
                window.push_back(t.result());
            }
        } catch (const std::exception& e) {
            refused(local, event_lazy, e);
        }
        while (window.size() > config_.lazy_window) {
            account(local, event_lazy, window.front());
            window.pop_front();
        }
    }

    void thread_main(int index) {
        Local local;
        cudaStream_t stream = nullptr;
        std::string error;
        bool arrived = false;
        std::size_t next_checkpoint = 0;  // the first checkpoint this thread has not arrived at
        try {
            const int device = result_.devices > 0 ? index % result_.devices : 0;
            GPUCHRONO_CUDA_CHECK(cudaSetDevice(device), "choosing the stress thread's device");
            GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating a stress stream");
            std::deque<Measurement> window;
            for (int i = 0; i < config_.iterations; ++i) {
                if (i == config_.warm_iterations) {
                    arrived = true;
                    arrive_and_sample(index, result_.after_warm_up);
                }
                if (next_checkpoint < checkpoint_at_.size() && i == checkpoint_at_[next_checkpoint])
                    arrive_and_sample(index, result_.checkpoints[next_checkpoint++].second);
                if (result_.ran[host_sync]) one_scope<gpuchrono::HostSyncPolicy>(local, host_sync, stream);
                if (result_.ran[event]) one_scope<gpuchrono::EventPolicy>(local, event, stream);
                if (result_.ran[event_lazy]) lazy_scope(local, stream, window);
                if (result_.ran[device_clock]) one_scope<gpuchrono::DeviceClockPolicy>(local, device_clock, stream);
                if (result_.ran[kernel]) one_scope<gpuchrono::KernelPolicy>(local, kernel, stream);
            }
            for (; !window.empty(); window.pop_front()) account(local, event_lazy, window.front());
        } catch (const std::exception& e) {
            error = e.what();
        }
        // Never leave the others waiting: a thread that stopped early still arrives at every sample point.
        if (!arrived) arrive_and_sample(index, result_.after_warm_up);
        for (; next_checkpoint < checkpoint_at_.size(); ++next_checkpoint)
            arrive_and_sample(index, result_.checkpoints[next_checkpoint].second);
        if (stream) (void)cudaStreamDestroy(stream);
        std::lock_guard lock(mutex_);
        if (!error.empty()) result_.thread_errors.push_back("thread " + std::to_string(index) + ": " + error);
        for (std::size_t k = 0; k < kind_count; ++k) {
            Tally& to = result_.tallies[k];
            const Tally& from = local.tallies[k];
            to.ok += from.ok;
            to.failed += from.failed;
            to.out_of_range += from.out_of_range;
            if (from.ok) {
                to.min = std::min(to.min, from.min);
                to.max = std::max(to.max, from.max);
            }
            for (const auto& [why, n] : from.reasons) to.reasons[why] += n;
            for (const auto& e : from.out_of_range_examples)
                if (to.out_of_range_examples.size() < 5) to.out_of_range_examples.push_back(e);
        }
    }

    // Every thread stops at the same iteration; thread 0 samples while the others wait.
    void arrive_and_sample(int index, Memory& into) {
        sync_point_.arrive_and_wait();
        if (index == 0) into = sample_memory(result_.devices);
        sync_point_.arrive_and_wait();
    }

    Config config_;
    std::vector<int> checkpoint_at_;     // iterations (per thread) at which memory is sampled after the warm-up
    std::barrier<> sync_point_;
    std::mutex mutex_;
    Result result_;
    std::chrono::steady_clock::time_point started_;
};

inline Result run(Config c) { return Run(c)(); }

}  // namespace stress
