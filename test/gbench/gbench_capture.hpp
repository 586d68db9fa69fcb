// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Runs registered Google Benchmark benchmarks in-process and keeps what each run reported, so tests read the
// bridge's results as Google Benchmark's own reporters receive them.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gbench_test {

struct Reported {
    std::string name;
    std::optional<std::string> error;  // SkipWithError's message
    std::int64_t iterations = 0;
    double manual_ns_per_iteration = 0;  // Google Benchmark's real time, which is the manual time under UseManualTime
    std::map<std::string, double> counters;
    std::string label;
};

// Google Benchmark 1.7 reports an error as error_occurred/error_message, 1.8 and later as skipped/skip_message.
template <class Run>
std::optional<std::string> error_of(const Run& r) {
    if constexpr (requires { r.error_occurred; }) {
        if (r.error_occurred) return std::string(r.error_message);
    } else {
        if (r.skipped) return std::string(r.skip_message);
    }
    return std::nullopt;
}

class CaptureReporter : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs) {
            Reported out{r.benchmark_name(), error_of(r), static_cast<std::int64_t>(r.iterations),
                         r.iterations > 0 ? r.GetAdjustedRealTime() : 0.0, {}, r.report_label};
            for (const auto& [name, counter] : r.counters) out.counters[name] = counter.value;
            reported.push_back(std::move(out));
        }
    }
    std::vector<Reported> reported;
};

// Runs every benchmark registered so far whose name matches `filter`, then forgets all registrations.
inline std::vector<Reported> run_registered(const std::string& filter) {
    CaptureReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter, filter);
    benchmark::ClearRegisteredBenchmarks();
    return reporter.reported;
}

}  // namespace gbench_test
