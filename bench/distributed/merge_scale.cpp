// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How the merge of a distributed job scales: R synthetic rank reports of A activities each (default 256 x
// 100,000) are written to a scratch folder one at a time, then merged in a child process whose
// peak resident memory (getrusage) and wall time are printed beside the inputs' and the trace's sizes.
// The inputs are generated in a child of their own too, so that the process the merge forks from never held
// a report: a forked child starts resident with its parent's pages, and Linux carries ru_maxrss across exec,
// so a merge forked from the generator counted the generator's heap (a first version measured 235 MB for a
// merge whose own peak is a fraction of that). The merge child also execs this program afresh
// (`--merge-only DIR R LATE`).
// The merge holds one rank report per reading thread at a time, so its peak memory should follow A, not R:
// run it with two values of R to see that. Its CPU time (user + system of the merge child) is printed beside
// the wall time: on a machine shared with other work the wall time is an upper bound.
//
//     bench_merge_scale [--ranks R] [--activities A] [--dir DIR] [--keep]
//
// No GPU needed. Figures depend on the machine (disk and CPU); the ratio of two runs' peak memory does not.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <gpuchrono/job/job_merge.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>

#include "synthetic_job.hpp"

#include <gpuchrono/api.hpp>

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::uintmax_t folder_bytes(const std::filesystem::path& dir) {
    std::uintmax_t sum = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".json" && e.path().filename().string().rfind("rank", 0) == 0) sum += e.file_size();
    return sum;
}

}  // namespace

// The merge alone, in a process of its own: exit status 0 when the late rank was named.
int merge_only(const std::filesystem::path& dir, int ranks, int late_rank) {
    std::vector<std::filesystem::path> files;
    for (int r = 0; r < ranks; ++r) files.push_back(dir / ("rank" + std::to_string(r) + ".json"));
    try {
        const auto job = gpuchrono::distributed::merge_rank_reports(files, {dir / "trace.json"});
        gpuchrono::distributed::save_job(job, dir / "job.json");
        std::printf("merge read on %u threads, each holding at most %llu activities at once (the largest rank's), kept %llu NCCL kernels "
                    "across ranks\n",
                    job.reader_threads, static_cast<unsigned long long>(job.peak_activities_held), static_cast<unsigned long long>(job.nccl_kernels_kept));
        const bool named = late_rank < 0 || job.stragglers.at(0).steps.at(3).last_rank == late_rank;
        return named ? 0 : 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_merge_scale: merge failed: %s\n", e.what());
        return 1;
    }
}

int main(int argc, char** argv) try {
    if (argc == 5 && std::string_view(argv[1]) == "--merge-only") return merge_only(argv[2], std::atoi(argv[3]), std::atoi(argv[4]));
    int ranks = 256;
    std::size_t activities = 100'000;
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("gpuchrono-merge-scale-" + std::to_string(::getpid()));
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--ranks" && i + 1 < argc) ranks = std::atoi(argv[++i]);
        else if (a == "--activities" && i + 1 < argc) activities = static_cast<std::size_t>(std::atoll(argv[++i]));
        else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
        else if (a == "--keep") keep = true;
        else {
            std::fprintf(stderr, "usage: bench_merge_scale [--ranks R] [--activities A] [--dir DIR] [--keep]\n");
            return 2;
        }
    }
    if (ranks < 1) {
        std::fprintf(stderr, "bench_merge_scale: --ranks must be >= 1\n");
        return 2;
    }
    std::filesystem::create_directories(dir);
    synthetic::JobShape shape;
    shape.world_size = ranks;
    shape.activities_per_rank = activities;
    shape.late_rank = ranks > 2 ? 2 : -1;
    shape.late_steps = {3};
    shape.delay_ns = 20'000'000;
    const auto generating = std::chrono::steady_clock::now();
    const pid_t generator = fork();
    if (generator < 0) throw std::runtime_error("fork failed");
    if (generator == 0) {
        try {
            for (int r = 0; r < ranks; ++r) {
                const synthetic::RankClock clock{(r % 7) * 1'000'000 - 3'000'000, ((r % 5) - 2) * 10e-6};
                gpuchrono::report::save_report(synthetic::rank_report(shape, r, clock), dir / ("rank" + std::to_string(r) + ".json"));
            }
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bench_merge_scale: generating the inputs failed: %s\n", e.what());
            _exit(1);
        }
        _exit(0);
    }
    int generated = 0;
    if (waitpid(generator, &generated, 0) != generator || !WIFEXITED(generated) || WEXITSTATUS(generated) != 0) {
        std::fprintf(stderr, "bench_merge_scale: generating the inputs did not succeed (status %d)\n", generated);
        return 1;
    }
    const double generate_s = seconds_since(generating);
    const double input_mb = static_cast<double>(folder_bytes(dir)) / 1e6;

    // The merge runs in a child, so that its peak memory is its own and not the generator's.
    const auto merging = std::chrono::steady_clock::now();
    const pid_t child = fork();
    if (child < 0) throw std::runtime_error("fork failed");
    if (child == 0) {
        const std::string d = dir.string(), r = std::to_string(ranks), late = std::to_string(shape.late_rank);
        execl("/proc/self/exe", argv[0], "--merge-only", d.c_str(), r.c_str(), late.c_str(), static_cast<char*>(nullptr));
        std::fprintf(stderr, "bench_merge_scale: cannot exec /proc/self/exe for the merge\n");
        _exit(1);
    }
    int status = 0;
    rusage usage{};
    if (wait4(child, &status, 0, &usage) != child) throw std::runtime_error("wait4 failed");
    const double merge_s = seconds_since(merging);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "bench_merge_scale: the merge did not succeed (status %d)\n", status);
        return 1;
    }
    const double trace_mb = static_cast<double>(std::filesystem::file_size(dir / "trace.json")) / 1e6;
    const double cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
    const double peak_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
    const double rate = static_cast<double>(ranks) * static_cast<double>(activities) / merge_s;
    std::printf("ranks  activities/rank  inputs MB  generate s  merge s  merge CPU s  merge peak RSS MB  trace MB  activities/s\n");
    std::printf("%5d  %15zu  %9.1f  %10.1f  %7.1f  %11.1f  %17.1f  %8.1f  %12.3g\n", ranks, activities, input_mb, generate_s, merge_s, cpu_s,
                peak_mb, trace_mb, rate);
    // The merge before it read ranks in parallel with RapidJSON (one thread, nlohmann-json), measured once on a
    // 2-core machine shared with two builds: 256 x 100,000 in 552.2 s (4.64e4 activities/s), peak RSS 338.7 MB.
    constexpr double before_s = 552.2, before_mb = 338.7, before_rate = 25'600'000 / before_s;
    if (ranks == 256 && activities == 100'000)
        std::printf("against the merge before (256 x 100,000: %.1f s, %.1f MB): time %.3fx, peak RSS %.3fx; targets <= 60 s, <= 512 MB: %s\n",
                    before_s, before_mb, merge_s / before_s, peak_mb / before_mb, merge_s <= 60 && peak_mb <= 512 ? "met" : "NOT met");
    else
        std::printf("against the merge before (%.3g activities/s at 256 x 100,000): %.2fx its rate (time and memory ratios only at that size)\n",
                    before_rate, rate / before_rate);
    if (!keep) std::filesystem::remove_all(dir);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_merge_scale: %s\n", e.what());
    return 1;
}
