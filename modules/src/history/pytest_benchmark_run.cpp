// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// pytest-benchmark's JSON (--benchmark-json) as a run: one series per benchmark (experiment: its group, else
// "pytest-benchmark"), seconds turned into nanoseconds, the rounds' times as samples when the file holds them
// (--benchmark-save-data), and the commit pytest-benchmark wrote when the caller gives none.
#include "history/run_formats.hpp"

#include <cmath>

namespace gpuchrono::history {

RunRecord run_from_pytest_benchmark(const json::Json& document) {
    const json::Reader top(document, "");
    RunRecord run;
    run.source_format = "pytest-benchmark";
    run.run_time = top.string("datetime");
    if (const json::Json* machine = top.present("machine_info")) {
        const json::Reader m(*machine, "machine_info");
        if (const json::Json* cpu = m.present("cpu")) {
            const std::string brand = json::Reader(*cpu, m.child("cpu")).string("brand_raw");
            if (!brand.empty()) run.fingerprint.host_cpu = brand;
        }
        if (run.fingerprint.host_cpu == std::nullopt && !m.string("processor").empty())
            run.fingerprint.host_cpu = m.string("processor");
    }
    if (const json::Json* commit = top.present("commit_info")) {
        const json::Reader c(*commit, "commit_info");
        run.commit.hash = c.string("id");
        run.commit.branch = c.string("branch");
        run.commit.author_time = c.string("author_time");
    }
    if (!top.present("benchmarks")) json::fail("benchmarks", "missing (expected an array)");
    top.each("benchmarks", [&](const json::Json& b, const std::string& path) {
        const json::Reader bench(b, path);
        PointRecord p;
        p.experiment = bench.string("group");
        if (p.experiment.empty()) p.experiment = "pytest-benchmark";
        p.series = bench.string("fullname", bench.string("name"));
        if (p.series.empty()) json::fail(bench.child("name"), "missing (expected the benchmark's name)");
        const json::Json* stats = bench.present("stats");
        if (!stats) json::fail(bench.child("stats"), "missing (expected an object)");
        const json::Reader st(*stats, bench.child("stats"));
        const double median_s = st.number("median");
        if (!std::isfinite(median_s)) json::fail(st.child("median"), "missing (expected a number of seconds)");
        p.median = median_s * 1e9;
        p.n = st.unsigned_integer("rounds");
        p.method = "pytest-benchmark";
        st.each("data", [&](const json::Json& v, const std::string& at) { p.samples.push_back(json::as_double(v, at) * 1e9); });
        run.points.push_back(std::move(p));
    });
    return run;
}

}  // namespace gpuchrono::history
