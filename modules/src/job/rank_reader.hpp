// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reading a job's rank reports for the merge: each report is parsed and reduced to what the merge keeps of it
// (RankRead) on one of a few worker threads, a bounded number of files ahead of the merge, which takes them
// in the order given. A rank's activities exist as records only while its thread reduces them: what leaves is
// small (scopes, sums, NCCL kernels) plus, when a trace is written, fixed-size records for the spill file.
#pragma once

#include <gpuchrono/job/job_merge.hpp>

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace gpuchrono::distributed {

// What the merge keeps of a rank while it reads the others: small, whatever the rank's activity count.
struct RankState {
    RankSection section;  // scopes included (a few per step)
    MergedRank merged;
    std::vector<CollectiveKernel> nccl;  // on the rank's steady clock until aligned, then the job clock
    std::vector<std::int64_t> scope_gpu_ns;  // by scope: GPU activity time inside it
    std::int64_t earliest_steady = std::numeric_limits<std::int64_t>::max();
};

// One activity in the spill file, on its rank's steady clock. name_id: into RankRead::names while a worker
// holds it, into the merge's table of the job's names once in the file.
struct SpillRecord {
    std::int32_t file_index;
    std::int32_t device;
    std::uint32_t stream;
    std::uint32_t kind;
    std::int64_t start;
    std::int64_t end;
    std::uint32_t name_id;
    std::uint32_t unused = 0;
};

struct RankRead {
    RankState state;
    std::vector<std::string> notes;  // for the job: devices the report does not identify
    std::vector<SpillRecord> records;  // placed activities in file order, when a trace is written
    std::vector<std::string> names;    // the names records refer to
};

// Reads `files` on worker threads, at most threads() + 1 ahead of take(). Each file's refusal (not a report,
// no "distributed" section) is thrown by take() of that file, so errors come in the order of `files`.
class RankReader {
public:
    RankReader(const std::vector<std::filesystem::path>& files, bool keep_records);
    RankReader(const RankReader&) = delete;
    RankReader& operator=(const RankReader&) = delete;
    ~RankReader();

    std::size_t threads() const noexcept { return workers_.size(); }
    // The i-th file's reading; call with i = 0, 1, ... in turn.
    RankRead take(std::size_t i);

private:
    struct Slot {
        std::optional<RankRead> read;
        std::exception_ptr error;
        bool done = false;
    };
    void work();
    void stop() noexcept;

    const std::vector<std::filesystem::path>& files_;
    bool keep_records_;
    std::size_t window_;
    std::vector<Slot> slots_;
    std::size_t next_to_read_ = 0;
    std::size_t next_to_take_ = 0;
    bool stopping_ = false;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::condition_variable room_;
    std::vector<std::thread> workers_;
};

// What a reading thread reuses from one rank to the next: the file's text and the activity records, tens of
// megabytes each, allocated (and their pages faulted in) once per thread rather than once per rank.
struct ReadingBuffers {
    std::string text;
    std::vector<KernelActivity> activities;
};

// One rank report reduced for the merge (what a worker does). Throws MergeError naming the file.
RankRead read_rank(const std::filesystem::path& file, std::size_t file_index, bool keep_records, ReadingBuffers& buffers);

}  // namespace gpuchrono::distributed
