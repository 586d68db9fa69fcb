// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reading the GPU's clock, clock-event reasons and other processes through NVML, loaded at run time with
// dlopen("libnvidia-ml.so.1") (no link-time dependency on the driver). Without NVML everything else works,
// and the first read says so once (GpuState::nvml_loaded = false -> finding nvml-unavailable).
//
// NVML calls cost tens of microseconds or more (the process list most), far above what a per-sample check
// may cost. So the policies read the state at most once per device every gpu_state_interval, at the start of
// a timer (before its interval begins, where a cost cannot enter the measurement); the first timer on a device
// always reads it, which is where an idle clock (docs/pitfalls-catalog.md #5) shows. The first read of the process also
// loads and initialises NVML.
#pragma once

#include <gpuchrono/core/duration.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuchrono {

// What NVML said about one device at one moment. Fields NVML could not give stay empty.
struct GpuState {
    int device = -1;
    bool nvml_loaded = true;            // false: NVML could not be used at all (nvml_error says why)
    std::string nvml_error;
    std::optional<unsigned> sm_clock_mhz;
    std::optional<unsigned> max_sm_clock_mhz;
    std::optional<unsigned long long> clock_event_reasons;
    std::optional<unsigned> other_processes;  // compute processes on the device besides this one
    // The PIDs NVML listed with a compute context on the device, this process's included when listed. In a
    // container NVML lists the host's PIDs (or, without access to them, none: other_processes stays unknown).
    std::vector<unsigned> process_pids;
};

// Compute processes of other PIDs on a device, from NVML's list (gpu_state.hpp, recent_other_processes).
struct OtherProcesses {
    int device = -1;
    std::vector<unsigned> pids;      // NVML's PIDs of the other processes (all it listed when own_pid_listed is false)
    bool own_pid_listed = true;      // getpid() was among NVML's PIDs; false in a PID namespace (a container),
                                     // where NVML lists host PIDs and one of `pids` is this process
    double read_ms_ago = 0;          // how long before the check NVML was read
};

inline constexpr Duration gpu_state_interval = Duration::from_ms(250);

// Reads the state of `device` now. Fields NVML cannot give stay empty; nvml_loaded is false when NVML cannot
// be loaded or initialised.
GpuState read_gpu_state(int device);

// Whether the policies read the GPU state at all: set_gpu_state_enabled's last value, else GPUCHRONO_GPU_STATE
// (0/off/false or 1/on/true), else true. Off, no timer touches NVML, and the GPU-state findings (idle or low
// clock, throttling, other processes: docs/pitfalls-catalog.md #5, #6, #27) are not made. The price of on: NVML's
// initialisation, and each read after it, make the user's next kernel launch 4-7 us slower on the H100
// (bench_first_scope [1]), however many of the library's own launches come between. A timer reads before its
// interval, so the first EventPolicy or HostSyncPolicy scope of a process, and one scope every 250 ms after
// it, read that much high; KernelPolicy and DeviceClockPolicy read the GPU's own times and do not see it.
bool gpu_state_enabled() noexcept;
void set_gpu_state_enabled(bool enabled) noexcept;

// What the policies call: read_gpu_state at most once per device per gpu_state_interval, nothing in between,
// and nothing at all while gpu_state_enabled() is false.
// When NVML is unavailable, only the first call of the process returns a state (with nvml_loaded = false).
std::optional<GpuState> sample_gpu_state(int device) noexcept;

// The next sample_gpu_state of every device reads again (tests, or after a deliberate pause).
void reset_gpu_state_sampling() noexcept;

// Compute processes of other PIDs that the device's latest GPU-state read (by any timer or measure(), at most
// other_processes_memory ago) listed, for the readings taken between reads (other_processes_finding,
// check_gpu_state.hpp). Empty when that read listed none, is older, or there was none. A process that starts
// after a read is seen at the next one (gpu_state_interval later at most, while timers run).
inline constexpr Duration other_processes_memory = Duration::from_ms(1000);
std::optional<OtherProcesses> recent_other_processes(int device) noexcept;

}  // namespace gpuchrono
