// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A merged job report (gpuchrono-job) as a run, experiment "job": per rank its compute and communication time,
// per repeated scope the spread of its steps between the first and the last rank, per collective the ranks' wait
// and transfer times (medians; every rank's or step's figure a sample). A figure of 0 (no such work in the job) is
// no measurement and is left out.
#include "history/run_formats.hpp"

#include <algorithm>
#include <cmath>

namespace gpuchrono::history {
namespace {

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void add_point(RunRecord& run, std::string name, std::vector<double> samples) {
    std::erase_if(samples, [](double v) { return !(v > 0) || !std::isfinite(v); });
    if (samples.empty()) return;
    PointRecord p;
    p.experiment = "job";
    p.series = std::move(name);
    p.median = median_of(samples);
    p.n = samples.size();
    p.method = "job-merge";
    p.samples = std::move(samples);
    run.points.push_back(std::move(p));
}

}  // namespace

RunRecord run_from_job(const json::Json& document) {
    const json::Reader top(document, "");
    if (top.integer("schema_version", 1) > 1)
        json::fail("schema_version", "version " + std::to_string(top.integer("schema_version")) +
                                          " is newer than the 1 this gpuchrono reads");
    RunRecord run;
    run.source_format = "gpuchrono-job";
    if (!top.present("ranks")) json::fail("ranks", "missing (expected an array)");
    top.each("ranks", [&](const json::Json& r, const std::string& path) {
        const json::Reader rank(r, path);
        const std::string name = "rank " + std::to_string(rank.required_integer("rank"));
        const double compute = rank.number("compute_ns"), communication = rank.number("communication_ns");
        if (std::isfinite(compute)) add_point(run, name + " compute", {compute});
        if (std::isfinite(communication)) add_point(run, name + " communication", {communication});
    });
    top.each("stragglers", [&](const json::Json& st, const std::string& path) {
        const json::Reader straggler(st, path);
        const std::string name = straggler.string("name");
        if (name.empty()) json::fail(straggler.child("name"), "missing (expected the scope's name)");
        std::vector<double> spreads;
        straggler.each("steps", [&](const json::Json& step, const std::string& at) {
            spreads.push_back(json::Reader(step, at).number("spread_ns"));
        });
        add_point(run, name + " spread", std::move(spreads));
    });
    top.each("collectives", [&](const json::Json& c, const std::string& path) {
        const json::Reader collective(c, path);
        const std::string name = collective.string("collective");
        if (name.empty()) json::fail(collective.child("collective"), "missing (expected the collective's name)");
        for (const char* part : {"wait", "transfer"}) {
            std::vector<double> samples;
            collective.each(std::string(part) + "_ns", [&](const json::Json& v, const std::string& at) {
                samples.push_back(json::as_double(v, at));
            });
            add_point(run, name + " " + part, std::move(samples));
        }
    });
    return run;
}

}  // namespace gpuchrono::history
