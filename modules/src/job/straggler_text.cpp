// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "job/straggler_text.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace gpuchrono::distributed {

namespace {

std::string ms(double ns) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f ms", ns / 1e6);
    return b;
}

std::string us(double ns) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f us", ns / 1e3);
    return b;
}

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    return s;
}

}  // namespace

std::string render_job_text(const MergedJob& job) {
    std::string out = "job " + (job.job_id.empty() ? std::string("(no id)") : job.job_id) + ": " + std::to_string(job.world_size) +
                      " ranks\n" + job.alignment_note + "\nalignment error bound: " + us(job.alignment_error_ns) + "\n\n";
    // Offsets relative to the first rank's: against the system clock the absolute one is the time since 1970.
    const double base = job.ranks.empty() ? 0.0 : job.ranks.front().offset_ns;
    out += "rank  host                 pid      offset vs first  drift        error     scopes  activities  comm/compute overlap\n";
    for (const MergedRank& r : job.ranks) {
        char line[256];
        const double f = r.overlap.fraction();
        std::snprintf(line, sizeof line, "%4d  %-20s %-8ld %-16s %+8.3f ppm %-9s %6llu  %10llu  %s\n", r.identity.rank, r.identity.host.c_str(),
                      r.identity.pid, ms(r.offset_ns - base).c_str(), r.drift_ppm, us(r.error_ns).c_str(),
                      static_cast<unsigned long long>(r.scopes), static_cast<unsigned long long>(r.activities),
                      f == f ? (std::to_string(static_cast<int>(f * 100 + 0.5)) + "%").c_str() : "-");
        out += line;
    }
    for (const ScopeStragglers& s : job.stragglers) {
        out += "\nscope \"" + s.name + "\": " + std::to_string(s.steps.size()) + " steps over " + std::to_string(s.ranks.size()) + " ranks\n";
        if (!s.note.empty()) out += "  " + s.note + "\n";
        if (s.steps.empty()) continue;
        out += "  rank  times last  total lateness\n";
        for (std::size_t i = 0; i < s.ranks.size(); ++i)
            out += "  " + pad(std::to_string(s.ranks[i]), 4) + "  " + pad(std::to_string(s.times_last[i]), 10) + "  " +
                   pad(ms(static_cast<double>(s.total_lateness_ns[i])), 14) + "\n";
        // The worst steps first: where the others waited longest.
        std::vector<std::size_t> order(s.steps.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return s.steps[a].waited_ns != s.steps[b].waited_ns ? s.steps[a].waited_ns > s.steps[b].waited_ns : a < b;
        });
        const bool gpu = !s.steps.front().gpu_excess_ns.empty();
        out += std::string("  step  last rank  late vs median  own excess     spread      others waited") + (gpu ? "  GPU excess" : "") + "\n";
        for (std::size_t j = 0; j < std::min<std::size_t>(order.size(), 10); ++j) {
            const StepLateness& st = s.steps[order[j]];
            out += "  " + pad(std::to_string(order[j]), 4) + "  " + pad(std::to_string(st.last_rank), 9) + "  " +
                   pad(ms(static_cast<double>(st.last_lateness_ns)), 14) + "  " + pad(ms(static_cast<double>(st.last_excess_ns)), 10) + "  " +
                   pad(ms(static_cast<double>(st.spread_ns)), 10) + "  " + pad(ms(static_cast<double>(st.waited_ns)), 14) +
                   (gpu && !st.gpu_excess_ns.empty() ? "  " + pad(ms(static_cast<double>(st.last_gpu_excess_ns)), 10) : std::string()) + "\n";
        }
        if (order.size() > 10) out += "  (" + std::to_string(order.size() - 10) + " more steps in job.json)\n";
    }
    for (const CollectiveSplit& c : job.collectives) {
        out += "\nNCCL " + c.collective + ": " + std::to_string(c.calls) + " calls\n  rank  waiting inside     transferring\n";
        for (std::size_t i = 0; i < c.ranks.size(); ++i)
            out += "  " + pad(std::to_string(c.ranks[i]), 4) + "  " + pad(ms(static_cast<double>(c.wait_ns[i])), 14) + "  " +
                   pad(ms(static_cast<double>(c.transfer_ns[i])), 14) + "\n";
    }
    if (!job.notes.empty()) {
        out += "\n";
        for (const std::string& n : job.notes) out += "note: " + n + "\n";
    }
    return out;
}

}  // namespace gpuchrono::distributed
