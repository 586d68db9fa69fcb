// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A fingerprint's identities: the whole record's, and the machine's (its baseline): runs with equal baseline keys
// are comparable, a change of it is a new baseline. The clock a run measured, gpuchrono's version and the build
// type are left out of the baseline: the first moves a little in every run, the others describe the measuring
// tool rather than the machine measured.
#include "history/record.hpp"

#include <charconv>
#include <string>
#include <vector>

namespace gpuchrono::history {
namespace {

std::string text(const std::optional<std::string>& v) { return v ? *v : "-"; }
std::string text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "-"; }
std::string text(const std::optional<double>& v) {
    if (!v) return "-";
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, *v);
    return ec == std::errc{} ? std::string(buffer, end) : "-";
}

std::string joined(const std::vector<std::string>& parts) {
    std::string key;
    for (const auto& part : parts) {
        if (!key.empty()) key += '|';
        key += part;
    }
    return key;
}

std::vector<std::string> machine(const Fingerprint& f) {
    return {text(f.gpu_name), text(f.gpu_uuid), text(f.sm_count), text(f.compute_capability), text(f.driver),
            text(f.cuda_runtime), text(f.sm_clock_max_mhz), text(f.memory_clock_mhz), text(f.power_limit_w),
            text(f.ecc), text(f.mig), text(f.persistence_mode), text(f.host_cpu)};
}

}  // namespace

std::string baseline_key(const Fingerprint& f) { return joined(machine(f)); }

std::string fingerprint_key(const Fingerprint& f) {
    auto parts = machine(f);
    parts.push_back(text(f.sm_clock_applied_mhz));
    parts.push_back(text(f.gpuchrono_version));
    parts.push_back(text(f.build_type));
    return joined(parts);
}

}  // namespace gpuchrono::history
