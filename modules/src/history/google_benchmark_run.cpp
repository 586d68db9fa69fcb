// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Google Benchmark's JSON (--benchmark_out, --benchmark_out_format=json) as a run: one series per benchmark
// (run_name), its repetitions' real times as samples in nanoseconds, the median aggregate when the file has one
// (--benchmark_report_aggregates_only), else the median of the repetitions.
#include "history/run_formats.hpp"

#include <algorithm>
#include <map>

namespace gpuchrono::history {
namespace {

double to_ns(double value, const std::string& unit, const std::string& path) {
    if (unit == "ns") return value;
    if (unit == "us") return value * 1e3;
    if (unit == "ms") return value * 1e6;
    if (unit == "s") return value * 1e9;
    json::fail(path, "unknown time unit '" + unit + "' (expected ns, us, ms or s)");
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

RunRecord run_from_google_benchmark(const json::Json& document) {
    const json::Reader top(document, "");
    RunRecord run;
    run.source_format = "google-benchmark";
    const json::Json* context = top.present("context");
    if (!context) json::fail("context", "missing (expected an object)");
    const json::Reader ctx(*context, "context");
    run.run_time = ctx.string("date");
    const std::string build = ctx.string("library_build_type");
    if (!build.empty()) run.fingerprint.build_type = build;
    const std::string executable = ctx.string("executable");
    const std::string experiment =
        executable.empty() ? "google-benchmark" : std::filesystem::path(executable).filename().string();

    struct Collected {
        std::vector<double> samples;
        std::optional<double> median;
    };
    std::map<std::string, Collected> by_name;
    std::vector<std::string> order;
    if (!top.present("benchmarks")) json::fail("benchmarks", "missing (expected an array)");
    top.each("benchmarks", [&](const json::Json& b, const std::string& path) {
        const json::Reader bench(b, path);
        if (!bench.string("error_message").empty()) return;  // a benchmark that failed has no time to keep
        const std::string name = bench.string("run_name", bench.string("name"));
        if (name.empty()) json::fail(bench.child("name"), "missing (expected the benchmark's name)");
        const double real = bench.number("real_time");
        if (!std::isfinite(real)) json::fail(bench.child("real_time"), "missing (expected a number)");
        const double ns = to_ns(real, bench.string("time_unit", "ns"), bench.child("time_unit"));
        if (!by_name.contains(name)) order.push_back(name);
        auto& c = by_name[name];
        const std::string type = bench.string("run_type", "iteration");
        if (type == "iteration") c.samples.push_back(ns);
        else if (type == "aggregate" && bench.string("aggregate_name") == "median") c.median = ns;
    });
    for (const auto& name : order) {
        auto& c = by_name[name];
        if (c.samples.empty() && !c.median) continue;  // only aggregates other than the median (mean, stddev)
        PointRecord p;
        p.experiment = experiment;
        p.series = name;
        p.median = c.median ? *c.median : median_of(c.samples);
        p.n = c.samples.size();
        p.method = "google-benchmark";
        p.samples = std::move(c.samples);
        run.points.push_back(std::move(p));
    }
    return run;
}

}  // namespace gpuchrono::history
