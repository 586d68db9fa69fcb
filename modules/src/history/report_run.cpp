// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A gpuchrono report (a library report or a `gpuchrono run` report: the same schema) as a run of the history,
// read by the report's own reader. The fingerprint takes what the report carries and nothing more.
#include "history/run_formats.hpp"

#include <cmath>

namespace gpuchrono::history {
namespace {

std::optional<double> finite(double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; }
std::optional<std::string> nonempty(const std::string& s) {
    return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

Fingerprint fingerprint_of(const report::Report& r) {
    Fingerprint f;
    const auto& d = r.device;
    f.gpu_name = nonempty(d.name);
    if (d.sm_count > 0) f.sm_count = d.sm_count;
    if (d.compute_major > 0) f.compute_capability = std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor);
    if (d.driver_version > 0) f.driver = report::cuda_version_string(d.driver_version);
    if (d.runtime_version > 0) f.cuda_runtime = report::cuda_version_string(d.runtime_version);
    f.sm_clock_max_mhz = finite(d.sm_clock_nominal_mhz);
    f.sm_clock_applied_mhz = finite(d.sm_clock_measured_mhz);
    f.memory_clock_mhz = finite(d.memory_clock_mhz);
    if (r.distributed)
        for (const auto& identity : r.distributed->devices)
            if (identity.index == d.index) f.gpu_uuid = nonempty(identity.uuid);
    const std::string prefix = "gpuchrono ";
    if (r.generator.starts_with(prefix)) f.gpuchrono_version = r.generator.substr(prefix.size());
    return f;
}

}  // namespace

RunRecord run_from_report(std::string_view text) {
    const report::Report r = report::report_from_json(text);
    RunRecord run;
    run.source_format = "gpuchrono-report";
    run.run_time = r.created_utc;
    run.fingerprint = fingerprint_of(r);
    for (const auto& e : r.experiments) {
        for (const auto& s : e.series) {
            if (s.stats.count == 0) continue;  // no successful sample: nothing to keep (the report says why)
            PointRecord p;
            p.experiment = e.id;
            p.series = s.name;
            p.median = s.stats.median.ns();
            p.n = s.stats.count;
            p.method = s.policy;
            if (s.measure) {
                p.ci_low = finite(s.measure->ci_low_ns);
                p.ci_high = finite(s.measure->ci_high_ns);
                if (!s.measure->method.empty()) p.method = s.measure->method;
                p.cache_state = s.measure->cache_state;
            }
            for (const auto& finding : s.findings) p.findings.push_back(finding.code);
            p.samples.reserve(s.samples.size());
            for (const auto& sample : s.samples) p.samples.push_back(sample.ns());
            run.points.push_back(std::move(p));
        }
    }
    return run;
}

}  // namespace gpuchrono::history
