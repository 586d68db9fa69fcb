// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `gpuchrono history show`: one series as a sparkline and a table.
#include "history/show.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace gpuchrono::history {

std::string sparkline(const std::vector<double>& values) {
    static const char* const bars[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
    if (values.empty()) return {};
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    std::string out;
    for (double v : values) {
        const double span = *high - *low;
        const int level = span > 0 ? static_cast<int>(std::lround((v - *low) / span * 7)) : 3;
        out += bars[std::clamp(level, 0, 7)];
    }
    return out;
}

std::string render_series(const StoredSeries& series, const std::vector<StoredPoint>& points,
                          const std::vector<ChangePoint>& changes) {
    std::string out = series.experiment + "/" + series.name + " (" + series.unit + "), " + std::to_string(points.size()) +
                      " run(s)\n";
    std::vector<double> medians;
    for (const auto& p : points) medians.push_back(p.median);
    out += sparkline(medians) + "\n\n";
    std::map<std::size_t, const ChangePoint*> at;
    for (const auto& c : changes) at[c.first_after] = &c;
    char line[512];
    std::snprintf(line, sizeof line, "%-12s %14s %14s %14s %6s  %s\n", "commit", "median", "ci low", "ci high", "n", "note");
    out += line;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        std::string note;
        if (i > 0 && p.baseline != points[i - 1].baseline) note = "machine changed; ";
        if (const auto it = at.find(i); it != at.end()) {
            const auto& c = *it->second;
            char change[160];
            if (c.new_baseline) std::snprintf(change, sizeof change, "new baseline");
            else
                std::snprintf(change, sizeof change, "%s by %+.2f%% (CI %+.2f%% .. %+.2f%%), came in after %s",
                              c.direction == ChangeDirection::slower ? "slower" : "faster", 100 * c.relative_change,
                              100 * c.change_ci_low, 100 * c.change_ci_high,
                              points.at(c.last_before).commit.substr(0, 12).c_str());
            note += change;
        }
        if (!p.findings.empty()) {
            note += note.empty() ? "" : "; ";
            note += "findings:";
            for (const auto& f : p.findings) note += " " + f;
        }
        const auto ci = [](const std::optional<double>& v) {
            char b[32];
            if (v) std::snprintf(b, sizeof b, "%.6g", *v);
            else std::snprintf(b, sizeof b, "-");
            return std::string(b);
        };
        std::snprintf(line, sizeof line, "%-12s %14.6g %14s %14s %6zu  %s\n", p.commit.substr(0, 12).c_str(), p.median,
                      ci(p.ci_low).c_str(), ci(p.ci_high).c_str(), p.n, note.c_str());
        out += line;
    }
    return out;
}

}  // namespace gpuchrono::history
