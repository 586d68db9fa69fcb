// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Summary: the Stats of a Series together with every finding behind them, so findings travel on from the
// measurements into the numbers people read. Host only (Stats comes with range-v3).
//
//     gpuchrono::Summary s = gpuchrono::summary(series);
//     std::cout << s.stats << '\n';
//     for (const gpuchrono::Finding& f : s.findings) std::cout << gpuchrono::to_string(f) << '\n';
//
// Its findings are, in order:
//   - the measurements' own findings, one per code: the first one seen, its message followed by how many of
//     the measurements had that code, and the count as evidence "measurements_affected";
//   - what only the whole series shows: a cold first sample (check_cold_start.hpp), too few samples for the
//     median and the spread, and a spread above a stable measurement's (check_noise.hpp).
// The series-level findings are new, so they get the configured reaction (finding_reaction.hpp) at the call
// site of summary(); the measurements' findings had theirs when they were detected.
#pragma once

#include <gpuchrono/checks/check_noise.hpp>
#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/series.hpp>
#include <gpuchrono/stats/stats.hpp>

#include <cstddef>
#include <source_location>
#include <string>

namespace gpuchrono {

struct Summary {
    std::string name;          // the series' name
    Stats stats;               // of the measurements that succeeded
    Findings findings;         // see above
    std::size_t failed = 0;    // measurements that failed (not in stats)
    std::string first_error;   // why the first of them failed

    // The finding of that code, or nullptr.
    const Finding* find(std::string_view code) const noexcept {
        for (const Finding& f : findings)
            if (f.code == code) return &f;
        return nullptr;
    }
};

// Resolves pending measurements, summarises the durations and collects the findings as described above.
// Throws FindingError under Reaction::throw_error if a series-level warning is found.
Summary summary(const Series& series, const NoiseLimits& limits = {},
                std::source_location where = std::source_location::current());

}  // namespace gpuchrono
