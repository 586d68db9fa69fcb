// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The settings of `gpuchrono run`, carried from the command to the injection library through environment
// variables, so that a program started by a launcher (mpirun, torchrun, srun) with only the variables set is
// recorded the same way. Every option has its variable (docs/run.md lists them):
//
//   GPUCHRONO_RUN_OUTPUT            --output DIR          folder of the reports (default gpuchrono-run)
//   GPUCHRONO_RUN_FORMAT            --format LIST         json,csv,html,perfetto (json is always written)
//   GPUCHRONO_RUN_KERNELS           --kernels REGEX       record only kernels whose name matches (ECMAScript)
//   GPUCHRONO_RUN_NVTX              --nvtx RANGE          record only work launched inside NVTX range RANGE
//   GPUCHRONO_RUN_DELAY             --delay SECONDS       start recording this long after CUDA starts
//   GPUCHRONO_RUN_DURATION          --duration SECONDS    record for this long, then stop
//   GPUCHRONO_RUN_SIGNALS           --signals             start paused; SIGUSR1 starts, SIGUSR2 stops
//   GPUCHRONO_RUN_SPLIT_BY_SHAPE    --split-by-shape      one row per kernel name and grid/block
//   GPUCHRONO_RUN_RESERVOIR         --reservoir N         samples kept per kernel for median and p95 (4096)
//   GPUCHRONO_RUN_TOP               --top N               rows of the table printed on stderr at exit (10; 0: none)
//   GPUCHRONO_RUN_TRACE             --trace [N]           also keep up to N activities for the Perfetto trace
//   GPUCHRONO_RUN_FLUSH_MS          --flush-ms MS         how often the report on disk is brought up to date (1000)
//   GPUCHRONO_RUN_FOLLOW_CHILDREN   --follow-children     record child processes too (each its own report)
//   GPUCHRONO_RUN_ROOT_PID          (set by run)          the process run started: the one recorded without
//                                                         --follow-children
//   GPUCHRONO_RUN_BENCH_LEAVE_OUT   (bench only)          parts of the recording left out, to see what each costs
//                                                         (LeftOut; bench/README.md)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpuchrono::run {

// What bench/run/run_overhead.py switches off to see where the recording's cost beyond CUPTI's kernel records sits:
// each part is one thing the injection does that the floor (CUPTI's kernel records alone) does not. Not an option
// of the command: a report recorded without a part misses what that part gives, and says so in a note.
struct LeftOut {
    bool device = false;    // CUPTI's DEVICE records: the devices table and the ranks' identities
    bool memcpy = false;    // MEMCPY records: the transfers table's copies
    bool memset = false;    // MEMSET records: the transfers table's sets
    bool overhead = false;  // OVERHEAD records: run-cupti-overhead
    bool periodic = false;  // the periodic forced flush and report update (records handed over at exit only)
    bool nvtx = false;      // the NVTX callbacks (CUPTI's NVTX support still loaded unless --no-nvtx)
    bool tables = false;    // reading the records into the tables (each buffer handed back unread)
    // Not an extra but a saving: buffers handed to CUPTI already zeroed and recycled. Left out, CUPTI zeroes each new
    // buffer inside a launch of the program, as the floor's do.
    bool recycle = false;

    bool any() const { return device || memcpy || memset || overhead || periodic || nvtx || tables || recycle; }
};

// "memcpy,periodic" into LeftOut; throws OptionError naming `what` and the parts for an unknown one.
LeftOut left_out_from(const std::string& what, const std::string& list);
// The parts of `l`, comma-separated, in the order above ("" for none).
std::string left_out_text(const LeftOut& l);

struct RunOptions {
    std::string output = "gpuchrono-run";
    bool json = true;
    bool csv = false;
    bool html = false;
    bool perfetto = false;
    std::string kernels;  // regex; empty: all
    std::string nvtx;     // range name; empty: everywhere
    double delay_s = 0;
    double duration_s = 0;  // 0: until exit
    bool signals = false;
    bool split_by_shape = false;
    std::size_t reservoir = 4096;
    std::size_t top = 10;
    std::size_t trace = 0;  // activities kept for the trace; 0: summary only
    unsigned flush_ms = 1000;
    bool follow_children = false;
    long root_pid = 0;
    LeftOut left_out;
};

// Bad settings, with the option or variable named.
struct OptionError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

using Getenv = std::function<std::optional<std::string>(const std::string&)>;

// Throws OptionError naming the variable whose value cannot be read.
RunOptions options_from_environment(const Getenv& getenv);
RunOptions options_from_environment();

// The variables that carry `o` (every one, defaults included, so an inherited stale value never wins).
std::vector<std::pair<std::string, std::string>> options_to_environment(const RunOptions& o);

// Every variable name above: what run strips from children it does not follow.
const std::vector<std::string>& option_variables();

// `gpuchrono run [options] -- PROGRAM ARGS...` (the "--" may be left out when PROGRAM does not start with '-').
struct RunCommand {
    RunOptions options;
    std::vector<std::string> program;  // PROGRAM and its arguments
    bool help = false;
    bool nvtx = true;  // --no-nvtx: leave NVTX_INJECTION64_PATH unset (no ranges; CUPTI's NVTX support not loaded)
};

// Throws OptionError for an unknown option, a missing value or no program.
RunCommand parse_run_arguments(const std::vector<std::string>& args);

// "json,csv" into the format flags of `o`; throws OptionError for an unknown format.
void set_formats(RunOptions& o, const std::string& list);

}  // namespace gpuchrono::run
