// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernels gpuchrono launches for itself inside a user's program: the warm-up that settles the launch path
// (gpu/launch_warmup.cu), the spin that holds a stream while timed launches queue (gpu/lead_spin.cu), the L2 scrub
// of a cold measurement (gpu/l2_flush.cu) and the clock calibrations of DeviceClockPolicy
// (policies/device_clock/kernels.cu). `gpuchrono run` leaves them out of a program's tables and counts them in a
// note; KernelPolicy's stream marks (stream_mark.hpp) are told apart by their own name. Named as CUPTI's records
// name them once demangled, without the parameter list; test/run checks this list against the sources.
#pragma once

#include <string_view>

namespace gpuchrono::cupti {

inline constexpr std::string_view library_kernel_names[] = {
    "gpuchrono::detail::(anonymous namespace)::warmup_kernel",
    "gpuchrono::detail::(anonymous namespace)::lead_spin_kernel",
    "gpuchrono::(anonymous namespace)::read_l2_scrub_buffer",
    "gpuchrono::calibration_kernels::(anonymous namespace)::timer_step_kernel",
    "gpuchrono::calibration_kernels::(anonymous namespace)::reference_span_kernel",
    "gpuchrono::calibration_kernels::(anonymous namespace)::empty_regions_kernel",
};

// Whether a demangled kernel name ("gpuchrono::detail::(anonymous namespace)::warmup_kernel()") is one of the above.
inline bool is_library_kernel(std::string_view demangled) noexcept {
    for (std::string_view name : library_kernel_names)
        if (demangled.starts_with(name) && demangled.substr(name.size()).starts_with('(')) return true;
    return false;
}

}  // namespace gpuchrono::cupti
