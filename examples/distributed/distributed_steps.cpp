// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One rank of a distributed job on a GPU that N processes share: 12 steps, each a
// "step" scope holding a KernelPolicy-timed spin kernel of 200 us; rank LATE_RANK's kernel spins 5 ms longer
// on steps 4 and 9. No MPI is needed: the ranks start each step at a shared wall-clock schedule
// (GPUCHRONO_START_AT_NS, system clock, set by run_local_job.sh), which plays the barrier; the identity comes
// from the launcher's variables (mpirun's OMPI_*, or RANK/WORLD_SIZE). Writes OUT/rank-R.json, which
// `gpuchrono merge` turns into one timeline that must name rank LATE_RANK on steps 4 and 9.
//
//     RANK=0 WORLD_SIZE=4 GPUCHRONO_START_AT_NS=... gpuchrono-example-distributed-steps OUT
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include <gpuchrono/distributed/rank_section.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>
#include <spin.hpp>

#include <gpuchrono/api.hpp>

namespace {
constexpr int late_rank = 2;
constexpr int steps = 12;
constexpr bool is_late_step(int k) { return k == 4 || k == 9; }
constexpr auto period = std::chrono::milliseconds(25);
constexpr double work_ns = 200e3;
constexpr double delay_ns = 5e6;
}  // namespace

int main(int argc, char** argv) try {
    if (argc != 2) {
        std::fputs("usage: gpuchrono-example-distributed-steps OUT_DIR (rank from OMPI_*/SLURM_*/PMI_*/RANK variables)\n", stderr);
        return 2;
    }
    if (gpuchrono::device_count() == 0) {
        std::printf("skipped: no CUDA device (%s)\n", gpuchrono::no_device_reason().value_or("no device").c_str());
        return 77;
    }
    const std::filesystem::path out = argv[1];
    const char* start_at = std::getenv("GPUCHRONO_START_AT_NS");
    if (!start_at) throw std::runtime_error("GPUCHRONO_START_AT_NS is not set: the ranks need a shared start time (run_local_job.sh sets it)");
    const std::chrono::system_clock::time_point t0{std::chrono::nanoseconds(std::stoll(start_at))};

    const int device = 0;
    cudaSetDevice(device);
    cudaStream_t stream = nullptr;
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) throw std::runtime_error("cudaStreamCreate failed");
    gpuchrono::prepare(stream);
    gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(work_ns), stream);  // module load and warm-up, untimed
    cudaStreamSynchronize(stream);
    if (!gpuchrono::KernelPolicy::available())
        throw std::runtime_error("KernelPolicy unavailable: " + gpuchrono::KernelPolicy::unavailable_reason());

    gpuchrono::distributed::ScopeLog log(/*with_cupti=*/true);
    const int rank = log.identity().rank;
    gpuchrono::Series series("step kernel");
    gpuchrono::report::Experiment e;
    e.id = "distributed-steps";
    e.title = "12 steps of a 200 us kernel; rank 2 5 ms late on steps 4 and 9";
    for (int k = 0; k < steps; ++k) {
        std::this_thread::sleep_until(t0 + k * period);
        auto scope = log.scope("step", device);
        gpuchrono::ScopedTimer<gpuchrono::KernelPolicy> t(series, stream);
        gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(work_ns + (rank == late_rank && is_late_step(k) ? delay_ns : 0.0)), stream);
        const gpuchrono::Measurement& m = t.stop();
        e.activities.insert(e.activities.end(), m.activities().begin(), m.activities().end());
    }
    e.series.push_back(gpuchrono::report::make_series(series));
    gpuchrono::report::Report report = gpuchrono::report::new_report();
    report.device = gpuchrono::report::describe_device(device);
    report.experiments.push_back(std::move(e));
    report.distributed = log.finish();
    std::filesystem::create_directories(out);
    gpuchrono::report::save_report(report, out / ("rank-" + std::to_string(rank) + ".json"));
    std::printf("rank %d: %zu activities, device %s (%s)\n", rank, report.experiments[0].activities.size(),
                report.distributed->devices.at(0).uuid.c_str(), report.distributed->devices.at(0).pci_bus_id.c_str());
    cudaStreamDestroy(stream);
    return 0;
} catch (const std::exception& ex) {
    std::fprintf(stderr, "gpuchrono-example-distributed-steps: %s\n", ex.what());
    return 1;
}
