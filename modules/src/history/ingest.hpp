// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reading runs into the history: gpuchrono's reports (library reports, `gpuchrono run` reports, merged job
// reports), the JSON of pytest-benchmark (--benchmark-json) and Google Benchmark (--benchmark_out), and asv's
// results files, each into one RunRecord, times in nanoseconds. A file that cannot be read is refused with a
// HistoryError naming the file and the field, before anything is written.
#pragma once

#include "history/record.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace gpuchrono::history {

struct IngestOptions {
    std::string commit;  // a revision git knows or a label; empty: the HEAD of the report's folder's repository
    std::string branch;  // empty: git's, or the report's own
};

// One report file, its format recognised from its content; the commit from `options`, the report (pytest-benchmark
// writes its commit) or git in the file's folder, in that order.
RunRecord read_run(const std::filesystem::path& file, const IngestOptions& options = {});

// A file is itself; a folder gives every report.json and job.json beneath it, and every asv results file (a .json
// beside a machine.json, as asv keeps them), sorted. Throws when there is none.
std::vector<std::filesystem::path> report_files(const std::filesystem::path& file_or_folder);

// The commit `revision` of the repository around `folder`, through git: hash, branch, author time, subject and
// its position in the commit graph. nullopt when git or the repository is not there, or does not know it.
std::optional<CommitInfo> commit_from_git(const std::filesystem::path& folder, const std::string& revision);

}  // namespace gpuchrono::history
