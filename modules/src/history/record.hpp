// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the performance history keeps of one run: the commit it measured, the machine it ran on and one point per
// series. Ingestion (ingest.hpp) makes these from report files; a Store (store.hpp) keeps them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::history {

struct CommitInfo {
    std::string hash;
    std::string branch;       // empty: not known
    std::string author_time;  // ISO 8601 UTC; empty: not known
    std::string subject;
    // Where the commit sits in the history: the number of commits it descends from when git knows them, else
    // empty, and the store places it after every commit it already holds (the order commits were added in).
    std::optional<std::int64_t> graph_position;
};

// The machine and software a run came from. A field the report does not carry stays empty (stored as NULL):
// nothing is guessed. Two runs are comparable when their baseline keys are equal.
struct Fingerprint {
    std::optional<std::string> gpu_name;
    std::optional<std::string> gpu_uuid;
    std::optional<std::int64_t> sm_count;
    std::optional<std::string> compute_capability;
    std::optional<std::string> driver;
    std::optional<std::string> cuda_runtime;
    std::optional<double> sm_clock_max_mhz;
    std::optional<double> sm_clock_applied_mhz;
    std::optional<double> memory_clock_mhz;
    std::optional<double> power_limit_w;
    std::optional<std::string> ecc;
    std::optional<std::string> mig;
    std::optional<std::string> persistence_mode;
    std::optional<std::string> host_cpu;
    std::optional<std::string> gpuchrono_version;
    std::optional<std::string> build_type;
};

// The record's identity: every field, absent ones as "-", in a fixed order.
std::string fingerprint_key(const Fingerprint& f);
// The machine's identity: the fields that make runs comparable, leaving out the clock a run measured (it moves a
// little every run), gpuchrono's version and the build type (the tool, not the machine measured).
std::string baseline_key(const Fingerprint& f);

// One series' result in one run. Times are in nanoseconds (unit "ns") whatever the source wrote them in.
struct PointRecord {
    std::string experiment;
    std::string series;
    std::string unit = "ns";
    double median = 0;
    std::optional<double> ci_low;
    std::optional<double> ci_high;
    std::size_t n = 0;
    std::string method;       // "kernel", "event", ..., or the source tool ("pytest-benchmark")
    std::string cache_state;  // "warm", "cold", or empty
    std::vector<std::string> findings;  // the codes of the findings raised on the series
    std::vector<double> samples;
};

struct RunRecord {
    CommitInfo commit;
    Fingerprint fingerprint;
    std::string run_time;     // ISO 8601 UTC, from the report
    std::string report_path;  // the file it was read from
    std::string source_format;  // "gpuchrono-report", "pytest-benchmark", "google-benchmark", "gpuchrono-job"
    std::vector<PointRecord> points;
};

}  // namespace gpuchrono::history
