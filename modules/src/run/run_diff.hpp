// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `gpuchrono diff A B`: which kernels (and NVTX ranges) of two recorded runs of one program changed. Per name
// that both runs have, the Hodges-Lehmann change of B against A with its confidence interval and the
// Mann-Whitney test, exactly as compare() does (measure/compare.hpp), on the runs' samples. Comparing many
// kernels at once, some would look changed by chance: each comparison runs at the Bonferroni-corrected level
// (1 - confidence) / m for the m names compared, so the chance of any false verdict in the whole diff stays
// under 1 - confidence. Names in only one run are listed as added or removed.
#pragma once

#include <gpuchrono/measure/compare.hpp>
#include <gpuchrono/report/model/report.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace gpuchrono::run {

struct DiffOptions {
    double threshold = 0.01;   // the practical threshold on the relative change
    double confidence = 0.95;  // for the whole diff (family-wise)
    bool ranges = true;        // NVTX ranges too
    bool strict = false;       // names too rarely called to compare fail the gate (exit status 3) too
};

struct DiffRow {
    std::string table;  // "kernels" or "nvtx"
    std::string name;
    std::uint64_t calls_a = 0, calls_b = 0;
    Comparison comparison;
};

struct RunDiff {
    std::vector<DiffRow> rows;          // compared, in the order of A's table (largest total first)
    std::vector<std::string> added;     // in B only ("nvtx: name" for ranges)
    std::vector<std::string> removed;   // in A only
    std::vector<std::string> not_compared;  // in both but too few samples (a kernel called once), with why
    bool strict = false;
    std::size_t compared = 0;           // m of the correction
    double per_comparison_confidence = 0.95;
    std::vector<std::string> notes;     // incomplete runs and the like

    std::size_t slower() const;
    std::size_t faster() const;
};

RunDiff diff_runs(const report::Report& a, const report::Report& b, const DiffOptions& options = {});

std::string render_diff(const RunDiff& d, const DiffOptions& options);

// 0: nothing slower; 1: some kernel or range slower; 2: nothing was compared (no name with samples in both
// runs); 3: nothing slower, but kernels were added or removed (or, with strict, some were called too rarely to
// compare): a gate never passes on a comparison it did not make. Kernels called once in each run
// (initialization) are listed but do not fail the gate unless strict, as long as something else was compared.
int diff_exit_code(const RunDiff& d);

// Why diff_exit_code is 2, as one sentence for the user; empty when something was compared.
std::string nothing_compared_reason(const RunDiff& d);

}  // namespace gpuchrono::run
