// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_cold_start.hpp>
#include <gpuchrono/gpu/driver_probe.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/checks/summary.hpp>

#include <algorithm>
#include <map>
#include <string>

namespace gpuchrono {

namespace {

// One finding per code, in the order the codes were first seen, saying how many measurements had it.
Findings per_code(const Series& series) {
    std::vector<std::string> order;
    std::map<std::string, std::pair<Finding, std::size_t>> first_and_count;
    for (const Measurement& m : series.measurements()) {
        std::vector<std::string_view> seen_here;
        for (const Finding& f : m.findings()) {
            if (std::find(seen_here.begin(), seen_here.end(), f.code) != seen_here.end()) continue;
            seen_here.push_back(f.code);
            auto [it, inserted] = first_and_count.try_emplace(f.code, f, 0);
            if (inserted) order.push_back(f.code);
            ++it->second.second;
        }
    }
    Findings out;
    for (const std::string& code : order) {
        auto& [f, count] = first_and_count.at(code);
        f.message += " (" + std::to_string(count) + " of " + std::to_string(series.size()) + " measurements)";
        f.evidence.push_back({"measurements_affected", static_cast<double>(count)});
        out.push_back(std::move(f));
    }
    return out;
}

bool used_a_gpu(const Series& series) {
    return std::any_of(series.measurements().begin(), series.measurements().end(),
                       [](const Measurement& m) { return m.device() >= 0; });
}

}  // namespace

Summary summary(const Series& series, const NoiseLimits& limits, std::source_location where) {
    Summary s;
    s.name = series.name();
    const std::vector<Duration> durations = series.durations();  // resolves pending measurements first
    s.stats = summarize(durations);
    s.failed = series.failed_count();
    s.first_error = series.first_error();
    s.findings = per_code(series);

    Findings found;
    // The loading mode only names the likely cause, and asking it may initialise the CUDA runtime: asked only
    // when there is a cold sample to explain, and only of a series that used a GPU.
    if (auto f = check_cold_first_sample(durations)) {
        if (used_a_gpu(series) && module_loading_mode() == ModuleLoading::lazy)
            f = check_cold_first_sample(durations, ModuleLoading::lazy);
        found.push_back(std::move(*f));
    }
    if (auto f = check_sample_count(s.stats.count, 50, limits)) found.push_back(std::move(*f));
    if (auto f = check_variation(s.stats, limits)) found.push_back(std::move(*f));
    if (!found.empty()) {
        for (Finding& f : found) f.message = "series \"" + s.name + "\": " + f.message;
        // Stamps `where`; reported once per series and code however often the series is summarised (the
        // user's summary() and the report's make_series); may throw FindingError.
        detail::handle_series_findings(found, s.name, CallSite::at(where));
        s.findings.insert(s.findings.end(), found.begin(), found.end());
    }
    return s;
}

}  // namespace gpuchrono
