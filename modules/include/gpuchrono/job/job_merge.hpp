// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Merging the reports of a job's ranks into one: `gpuchrono merge rank*.json -o job.json`.
//
// The merge reads the rank reports on a few threads (one report each, at most one more read ahead), their
// activities streamed out of the JSON as records (report::load_report_streaming_activities), and keeps only
// what is small (identity, anchors, scope passes, per-rank sums, NCCL kernels); activities go to a spill file
// of fixed-size records and from there into the trace, so memory stays bounded by a few ranks' activities,
// not by the job. The result does not depend on the threads: files are admitted in the order given.
//
// Refused, with a MergeError naming the file(s): a file that is not a report or has no "distributed" section,
// ranks of different jobs (job id or world size differ), a rank given twice, ranks missing from 0..N-1.
#pragma once

#include <gpuchrono/distributed/clock_alignment.hpp>
#include <gpuchrono/distributed/straggler_analysis.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono::distributed {

class MergeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct MergedRank {
    RankIdentity identity;
    std::vector<DeviceIdentity> devices;
    std::string file;
    double offset_ns = 0;   // job clock - own steady clock at the rank's first anchor
    double drift_ppm = 0;   // how much faster its steady clock ran than the job clock, in parts per million
    double error_ns = 0;    // the alignment's uncertainty for this rank
    std::string clock_note;
    std::uint64_t activities = 0;
    std::uint64_t activities_unplaced = 0;  // activities with no CUPTI anchor: counted, not drawn
    std::uint64_t scopes = 0;
    Overlap overlap;
    std::vector<DeviceBusy> busy;
};

struct MergedJob {
    std::string job_id;
    int world_size = 0;
    JobClock clock = JobClock::system;
    double alignment_error_ns = 0;  // the largest of the ranks'
    std::string alignment_note;
    std::vector<MergedRank> ranks;  // by rank
    std::vector<ScopeStragglers> stragglers;  // one per scope name any rank went through
    std::vector<CollectiveSplit> collectives;  // NCCL kernels: wait versus transfer per rank
    std::vector<std::string> notes;
    // What bounds the merge's memory, for the scale test and bench: the most activities one reading thread
    // held at once (the largest rank's: a thread reduces a rank's activities to spill records before it reads
    // another), the threads that read (so at most reader_threads x peak_activities_held at once) and the NCCL
    // kernels it keeps across ranks (start, end, name: for the wait/transfer split).
    std::uint64_t peak_activities_held = 0;
    std::uint32_t reader_threads = 0;
    std::uint64_t nccl_kernels_kept = 0;
};

struct MergeOptions {
    std::filesystem::path trace;  // Chrome/Perfetto trace to write; empty: none
};

// Reads the rank reports (any order), checks them, aligns and analyses. Throws MergeError.
MergedJob merge_rank_reports(const std::vector<std::filesystem::path>& files, const MergeOptions& options = {});

// The merged job as JSON ("schema": "gpuchrono-job", docs/report-json.md); written, not read back (it is an
// output for people and scripts: re-merge the rank reports to change it).
std::string job_to_json(const MergedJob& job);
void save_job(const MergedJob& job, const std::filesystem::path& file);

}  // namespace gpuchrono::distributed
