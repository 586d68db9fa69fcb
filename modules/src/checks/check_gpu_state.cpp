// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_gpu_state.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include <cstdio>
#include <string>
#include <utility>

namespace gpuchrono {

std::string describe_clock_event_reasons(unsigned long long reasons) {
    static constexpr std::pair<unsigned long long, const char*> names[] = {
        {clock_event::gpu_idle, "GpuIdle"},
        {clock_event::applications_clocks_setting, "ApplicationsClocksSetting"},
        {clock_event::sw_power_cap, "SwPowerCap"},
        {clock_event::hw_slowdown, "HwSlowdown"},
        {clock_event::sync_boost, "SyncBoost"},
        {clock_event::sw_thermal_slowdown, "SwThermalSlowdown"},
        {clock_event::hw_thermal_slowdown, "HwThermalSlowdown"},
        {clock_event::hw_power_brake_slowdown, "HwPowerBrakeSlowdown"},
        {clock_event::display_clock_setting, "DisplayClockSetting"},
    };
    std::string out;
    unsigned long long named = 0;
    for (const auto& [bit, name] : names) {
        if ((reasons & bit) == 0) continue;
        if (!out.empty()) out += '|';
        out += name;
        named |= bit;
    }
    if (const unsigned long long other = reasons & ~named; other != 0) {
        if (!out.empty()) out += '|';
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", other);
        out += hex;
    }
    return out.empty() ? "none" : out;
}

Findings check_gpu_state(const GpuState& s) {
    Findings out;
    const std::string device = "device " + std::to_string(s.device);
    if (!s.nvml_loaded) {
        out.push_back(make_finding(codes::nvml_unavailable,
                                   "NVML could not be used (" + (s.nvml_error.empty() ? std::string("no reason given") : s.nvml_error) +
                                       "): the GPU clock, throttling and other-process checks are off"));
        return out;
    }
    const bool clock_known = s.sm_clock_mhz && s.max_sm_clock_mhz && *s.max_sm_clock_mhz > 0;
    const bool clock_low = clock_known && *s.sm_clock_mhz < min_clock_fraction * *s.max_sm_clock_mhz;
    const unsigned long long reasons = s.clock_event_reasons.value_or(0);
    std::vector<Evidence> clock_evidence;
    std::string clock_text;
    if (clock_known) {
        clock_text = "SM clock " + std::to_string(*s.sm_clock_mhz) + " MHz of " + std::to_string(*s.max_sm_clock_mhz) +
                     " MHz max";
        clock_evidence = {{"sm_clock_mhz", static_cast<double>(*s.sm_clock_mhz)},
                          {"max_sm_clock_mhz", static_cast<double>(*s.max_sm_clock_mhz)}};
    }
    if (s.clock_event_reasons) clock_evidence.push_back({"clock_event_reasons", static_cast<double>(reasons)});
    const std::string reasons_text =
        s.clock_event_reasons ? "clock-event reasons " + describe_clock_event_reasons(reasons) : "clock-event reasons unknown";

    if ((reasons & clock_event::capping) != 0) {
        out.push_back(make_finding(codes::gpu_clock_throttled,
                                   device + " reported " + describe_clock_event_reasons(reasons & clock_event::capping) +
                                       (clock_known ? " at " + clock_text : std::string()) +
                                       ": its clock is capped, and times taken now are longer than at full clock",
                                   clock_evidence));
    } else if (clock_low && (reasons & clock_event::gpu_idle) != 0) {
        out.push_back(make_finding(codes::gpu_idle_clock,
                                   device + " was idle when the timer started (" + clock_text + ", " + reasons_text +
                                       "): the first samples run while the clock ramps up",
                                   clock_evidence));
    } else if (clock_low) {
        out.push_back(make_finding(codes::gpu_clock_low,
                                   device + " ran at " + clock_text + ", under the " +
                                       std::to_string(static_cast<int>(min_clock_fraction * 100)) + "% nvbench accepts (" +
                                       reasons_text + ")",
                                   clock_evidence));
    }
    if (s.other_processes && *s.other_processes > 0)
        out.push_back(make_finding(codes::gpu_shared,
                                   std::to_string(*s.other_processes) + " other process(es) had a compute context on " +
                                       device + " while timing: they can take its SMs or time-slice with it",
                                   {{"other_processes", static_cast<double>(*s.other_processes)}}));
    return out;
}

std::optional<Finding> other_processes_finding(const OtherProcesses& o) {
    const std::size_t others = o.own_pid_listed ? o.pids.size() : (o.pids.empty() ? 0 : o.pids.size() - 1);
    if (others == 0) return std::nullopt;
    std::string list;
    for (const unsigned pid : o.pids) {
        if (!list.empty()) list += ", ";
        list += std::to_string(pid);
    }
    char ago[32];
    std::snprintf(ago, sizeof ago, "%.0f", o.read_ms_ago);
    std::vector<Evidence> evidence{{"other_processes", static_cast<double>(others)}, {"nvml_read_ms_ago", o.read_ms_ago}};
    for (const unsigned pid : o.pids) evidence.push_back({"pid", static_cast<double>(pid)});
    return make_finding(codes::other_processes_on_device,
                        std::to_string(others) + " other process(es) had a compute context on device " +
                            std::to_string(o.device) + " around this reading (NVML, read " + ago + " ms before it: PIDs " +
                            list + (o.own_pid_listed ? "" : "; NVML lists the host's PIDs here, and one of them is this process") +
                            "): their work time-slices with the timed work or shares its SMs, and may have stretched it",
                        std::move(evidence));
}

}  // namespace gpuchrono
