// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DeviceClockPolicy: time what happens inside a kernel, block by block, from clocks read in the kernel itself.
//
//     gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(
//         stream, gpuchrono::DeviceClockPolicy::Options{.regions = {"load", "reduce"}, .max_blocks = 4096});
//     my_kernel<<<blocks, threads, 0, stream>>>(args, t.policy().probe());   // see <gpuchrono/device_probe.cuh>
//     const gpuchrono::Measurement& m = t.stop();
//     m.duration();        // kernel-level: first region entry to last region exit, on %globaltimer
//     m.blocks()->samples; // one BlockSample per (block, region), see block_samples.hpp
//
// start() takes a probe buffer from the ProbeBufferPool and clears it on the stream. The kernel that gets
// probe() must be launched on the same stream (or be ordered before stop() on it): stop() copies the records
// back on that stream and waits for the copy, so a kernel on another stream may be read half-written.
// stop() then measures, on the stream, whatever it does not know yet: the %globaltimer step (first use of the
// device), the probe's overhead for this block size (first use), and a reference SM clock when the kernel's
// own reads cannot give it precisely enough. Those kernels run after the timed one; they are not in the
// measurement.
//
// What the Measurement says:
// - duration(): the kernel-level span on %globaltimer, dropped blocks included. No probe overhead is taken off
//   it: a few tens of ns against a timer that steps in 32.
// - blocks(): the samples; each sample's net_ns is its cycles (clock64, one SM at a time) converted with the SM
//   clock measured in this same run, minus the calibrated empty-region cost when Options::subtract_overhead.
// - findings(): "device-clock-sm-changed" (a block changed SM inside a region), "device-clock-records-dropped"
//   (more blocks than max_blocks), "device-clock-kernel-below-timer-resolution" and
//   "device-clock-regions-below-timer-resolution" (docs/pitfalls-catalog.md row 17), and what check_block_samples finds
//   (check_device_clock.hpp): "clock-went-backwards", "partial-last-wave" (needs
//   Options::resident_blocks_per_sm), "block-start-spread". They get the configured reaction
//   (finding_reaction.hpp), keyed on the call site of stop(): reported once, or thrown as FindingError.
// It is FAILED (state() == failed, error() says why) when the records cannot be trusted: the probe reached
// more than one launch (or a plain region ran twice in one block), the kernel used a region id the timer did
// not name, or no region was recorded at all.
//
// Not usable inside stream capture (it must read results back at stop): start() and stop() throw TimerError
// on a capturing stream. Another stream of the thread being captured is no obstacle: the library's own calls
// run in relaxed capture mode (stream_state.hpp).
#pragma once

#include <gpuchrono/core/block_samples.hpp>
#include <gpuchrono/core/measurement.hpp>
#include <gpuchrono/gpu/buffer_pool.hpp>
#include <gpuchrono/core/probe_layout.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include <source_location>

namespace gpuchrono {

struct CallSite;  // finding_reaction.hpp

class DeviceClockPolicy {
public:
    static constexpr std::string_view name = "device-clock";
    static constexpr std::string_view type_name = "DeviceClockPolicy";  // errors say ScopedTimer<DeviceClockPolicy>

    struct Options {
        // Region names; the kernel refers to them by index (ProbeRegion(probe, 0) is regions[0]).
        // Non-empty, unique, none empty.
        std::vector<std::string> regions = {"kernel"};
        // Blocks the probe has room for. Records of blocks beyond are counted as dropped, never written.
        // Device memory: 96 bytes x max_blocks x regions, cleared and copied back every scope.
        std::uint32_t max_blocks = 1024;
        // The kernel's occupancy (gpuchrono::resident_blocks_per_sm in device_probe.cuh), for the waves view;
        // 0: unknown. Reported in BlockSamples, not used by the measurement.
        int resident_blocks_per_sm = 0;
        // Take the calibrated cost of an empty region off every sample's net_ns.
        bool subtract_overhead = true;
        // The SM clock is taken from the kernel's own reads when their %globaltimer quantisation bounds its
        // error to this fraction; otherwise from a reference spin right after the kernel. In (0, 1].
        double max_clock_uncertainty = 0.005;
    };

    // Throws std::invalid_argument saying what is wrong with `options`. Needs no device.
    static void validate(const Options& options);

    // The id of a region name in `options`; std::invalid_argument naming the regions if there is none.
    static std::uint32_t region_id(const Options& options, std::string_view region);

    // Validates the options first (std::invalid_argument), then finds the stream's device (CudaError).
    explicit DeviceClockPolicy(cudaStream_t stream) : DeviceClockPolicy(stream, Options{}) {}
    DeviceClockPolicy(cudaStream_t stream, Options options);

    DeviceClockPolicy(DeviceClockPolicy&& o) noexcept;
    DeviceClockPolicy& operator=(DeviceClockPolicy&& o) noexcept;
    DeviceClockPolicy(const DeviceClockPolicy&) = delete;
    DeviceClockPolicy& operator=(const DeviceClockPolicy&) = delete;
    ~DeviceClockPolicy() = default;

    void start();
    Measurement stop();
    // The same, with the user's line for the findings (ScopedTimer passes the line that constructed it);
    // stop() names its caller's return address instead.
    Measurement stop(std::source_location where);

    // The value to pass to the kernel. TimerError unless between start() and stop().
    DeviceProbe probe() const;

    // region_id(options(), region).
    std::uint32_t region(std::string_view region) const { return region_id(options_, region); }

    bool running() const noexcept { return running_; }
    cudaStream_t stream() const noexcept { return stream_; }
    int device() const noexcept { return device_; }
    const Options& options() const noexcept { return options_; }

private:
    Measurement stop_at(const CallSite& site);
    std::size_t record_slots() const noexcept;
    void refuse_capture(const char* when) const;

    cudaStream_t stream_ = nullptr;
    int device_ = -1;
    Options options_;
    ProbeBufferLease buffer_;
    bool running_ = false;
};

}  // namespace gpuchrono
