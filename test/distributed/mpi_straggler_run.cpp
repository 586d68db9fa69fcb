// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Four (or N) MPI ranks on CPUs: each times 10 passes of a "step" scope (HostClockPolicy); rank `late_rank`
// sleeps 20 ms inside it on steps 3 and 7 and measures how long that sleep really took (on a loaded 2-core CI
// machine a 20 ms sleep can overshoot by several ms: the injected delay is what was measured, not what was
// asked). The other ranks do no work inside the scope, so no wake-up jitter enters their times. Every rank
// estimates its clock offset to rank 0 by ping-pong at the start and the end, writes DIR/rank-R.json, and
// rank 0 then merges them and checks that the merge names the late rank on those steps with the injected
// delay within 1 ms. Waiting ranks sleep between polls of a non-blocking barrier instead of spinning in
// MPI_Barrier, so four ranks on two cores leave the late one its CPU.
//
//     mpirun -np 4 distributed_mpi_run DIR
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gpuchrono/job/job_merge.hpp>
#include <gpuchrono/distributed/mpi_clock_offsets.hpp>
#include <gpuchrono/distributed/rank_section.hpp>
#include "job/straggler_text.hpp"
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>

#include <gpuchrono/api.hpp>

namespace {
constexpr int late_rank = 2;
constexpr int steps = 10;
constexpr bool is_late_step(int k) { return k == 3 || k == 7; }
constexpr auto delay = std::chrono::milliseconds(20);

void sleeping_barrier() {
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    for (int done = 0;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return;
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}
}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int status = 0;
    try {
        if (argc != 2) throw std::runtime_error("usage: distributed_mpi_run OUTPUT_DIR");
        const std::filesystem::path dir = argv[1];
        if (size <= late_rank) throw std::runtime_error("needs at least " + std::to_string(late_rank + 1) + " ranks");
        gpuchrono::distributed::ScopeLog log;  // identity from OpenMPI's environment
        if (log.identity().rank != rank || log.identity().world_size != size)
            throw std::runtime_error("identity from the environment (" + gpuchrono::distributed::describe(log.identity()) +
                                     ") disagrees with MPI's rank " + std::to_string(rank) + "/" + std::to_string(size));
        // All ranks run on this one host and share its steady clock: the true offset is 0, so each estimate must
        // hold 0 within its stated bound (half the round trip). That checks the bound, whatever the machine's speed.
        auto estimate = [&] {
            const auto o = gpuchrono::distributed::estimate_offset_to_reference(MPI_COMM_WORLD);
            std::printf("rank %d: offset to rank 0 %lld ns +- %lld ns\n", rank, static_cast<long long>(o.offset_ns), static_cast<long long>(o.error_ns));
            if (o.offset_ns > o.error_ns + 1 || o.offset_ns < -o.error_ns - 1)
                throw std::runtime_error("the ping-pong estimate " + std::to_string(o.offset_ns) + " ns misses the shared clock's true offset 0 by more than its bound " +
                                         std::to_string(o.error_ns) + " ns");
            log.add_reference_offset(o);
        };
        estimate();
        gpuchrono::Series series("step");
        std::vector<double> injected_ns(steps, 0.0);
        for (int k = 0; k < steps; ++k) {
            sleeping_barrier();
            {
                auto scope = log.scope("step");
                gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> timer(series);
                if (rank == late_rank && is_late_step(k)) {
                    const auto before = std::chrono::steady_clock::now();
                    std::this_thread::sleep_for(delay);
                    injected_ns[static_cast<std::size_t>(k)] = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - before).count();
                }
            }
            sleeping_barrier();  // the collective that makes the others wait
        }
        // Rank 0 checks against what the late rank measured.
        if (rank == late_rank) MPI_Send(injected_ns.data(), steps, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
        if (rank == 0) MPI_Recv(injected_ns.data(), steps, MPI_DOUBLE, late_rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        estimate();
        gpuchrono::report::Report report = gpuchrono::report::new_report();
        gpuchrono::report::Experiment e;
        e.id = "mpi-steps";
        e.title = "10 steps, rank 2 late on steps 3 and 7";
        e.series.push_back(gpuchrono::report::make_series(series));
        report.experiments.push_back(std::move(e));
        report.distributed = log.finish();
        std::filesystem::create_directories(dir);
        gpuchrono::report::save_report(report, dir / ("rank-" + std::to_string(rank) + ".json"));
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            std::vector<std::filesystem::path> files;
            for (int r = 0; r < size; ++r) files.push_back(dir / ("rank-" + std::to_string(r) + ".json"));
            const auto job = gpuchrono::distributed::merge_rank_reports(files, {dir / "trace-inline.json"});
            std::fputs(gpuchrono::distributed::render_job_text(job).c_str(), stdout);
            const auto& st = job.stragglers.at(0);
            const double asked = std::chrono::duration<double, std::nano>(delay).count();
            for (int k = 0; k < steps; ++k) {
                if (!is_late_step(k)) continue;
                const double expected = injected_ns[static_cast<std::size_t>(k)];
                if (expected < asked) {
                    std::printf("FAIL: step %d: the late rank's sleep lasted %.3f ms, less than the %.3f ms asked\n", k, expected / 1e6, asked / 1e6);
                    status = 1;
                }
                const auto& s = st.steps.at(static_cast<std::size_t>(k));
                const double excess = static_cast<double>(s.last_excess_ns);
                std::printf("step %d: last rank %d, own excess %.3f ms, late vs median %.3f ms (injected %.3f ms)\n", k, s.last_rank,
                            excess / 1e6, static_cast<double>(s.last_lateness_ns) / 1e6, expected / 1e6);
                if (s.last_rank != late_rank) {
                    std::printf("FAIL: step %d names rank %d, not %d\n", k, s.last_rank, late_rank);
                    status = 1;
                }
                if (std::abs(excess - expected) > 1e6) {
                    std::printf("FAIL: step %d delay %.3f ms, injected %.3f ms (more than 1 ms apart)\n", k, excess / 1e6, expected / 1e6);
                    status = 1;
                }
            }
            if (job.clock != gpuchrono::distributed::JobClock::reference_steady) {
                std::puts("FAIL: the ping-pong offsets were not used");
                status = 1;
            }
            std::puts(status == 0 ? "PASS" : "FAIL");
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
