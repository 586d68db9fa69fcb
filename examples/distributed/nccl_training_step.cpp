// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// NCCL on several GPUs: one program, four modes, one process per GPU (or one thread per GPU).
//
//   step OUT_DIR ID_DIR [--steps N] [--work-us W] [--bytes B] [--slow-rank R] [--slow-steps 3,7] [--delay-us D]
//       A training-step-shaped loop: per step a compute kernel (a spin of W us; rank R spins D us longer on the
//       slow steps), then an ncclAllReduce of B bytes, in the named scopes "step" holding "compute" and
//       "allreduce" (bytes declared), under KernelPolicy. Writes OUT_DIR/rank-R.json; `gpuchrono merge` must name rank R on those steps
//       (the last to end "compute"), each other rank waiting ~ D in "allreduce".
//   bandwidth ID_DIR [--min-bytes 8] [--max-bytes 1G] [--factor 2] [--iters 20] [--warmup 5] [--across avg|min|max]
//       all-reduce, all-gather and reduce-scatter over the sizes, timed as nccl-tests times them (doc/PERFORMANCE.md
//       and its defaults: 5 warm-up operations, then 20 back-to-back ones timed on the host clock up to the
//       stream's completion, divided by 20; the ranks' times averaged, its `-a 1`), algbw and busbw from
//       gpuchrono's collective_bandwidth().
//   threads OUT_DIR [--devices N] [step options]
//       The step loop with N devices driven from this one process, one thread per device (ncclCommInitAll): one
//       report whose activities and scopes carry each device, for per-device tracks.
//   clocks [--seconds S] [--devices N] [--interval-ms M]
//       Offset and drift between the devices' %globaltimer, and between their CUPTI kernel timestamps, against the
//       host's steady clock and device 0's, sampled every M ms over S s.
//
// The rank, local rank and world size come from the launcher (mpirun's OMPI_*, Slurm, RANK/LOCAL_RANK/
// WORLD_SIZE) through gpuchrono's identity code; each rank uses device LOCAL_RANK. Rank 0 writes the NCCL unique
// id to ID_DIR/nccl-id (a fresh folder per job, on a file system all ranks see); the others wait for it, so the
// same binary works under mpirun and as plain background processes (run_nccl_job.sh does either).
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gpuchrono/distributed/collective_bandwidth.hpp>
#include <gpuchrono/distributed/rank_identity.hpp>
#include <gpuchrono/distributed/rank_section.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>
#include <nccl_clock_stamp.hpp>
#include <spin.hpp>

#include <gpuchrono/api.hpp>

namespace {

namespace dist = gpuchrono::distributed;

void check_cuda(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check_nccl(ncclResult_t r, const char* what) {
    if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(r));
}

// ---- command line ---------------------------------------------------------------------------------------------
struct Options {
    std::vector<std::string> positional;
    std::map<std::string, std::string> named;

    std::string take(const std::string& key, const std::string& fallback) {
        const auto it = named.find(key);
        if (it == named.end()) return fallback;
        std::string v = it->second;
        named.erase(it);
        return v;
    }
    void refuse_leftovers() const {
        if (!named.empty()) throw std::invalid_argument("unknown option --" + named.begin()->first);
    }
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--", 0) == 0) {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            o.named[a.substr(2)] = argv[++i];
        } else {
            o.positional.push_back(a);
        }
    }
    return o;
}

// "8", "64K", "1M", "1G" (powers of 1024), as nccl-tests' -b/-e read them.
std::uint64_t parse_bytes(const std::string& s) {
    std::size_t used = 0;
    const unsigned long long n = std::stoull(s, &used);
    const std::string suffix = s.substr(used);
    if (suffix.empty()) return n;
    if (suffix == "K") return n << 10;
    if (suffix == "M") return n << 20;
    if (suffix == "G") return n << 30;
    throw std::invalid_argument("size '" + s + "': expected a number with an optional K, M or G suffix");
}

double parse_positive(const std::string& s, const char* what) {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used != s.size() || !(v >= 0) || !std::isfinite(v)) throw std::invalid_argument(std::string(what) + " '" + s + "' is not a number >= 0");
    return v;
}

std::set<int> parse_steps(const std::string& s) {
    std::set<int> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.insert(std::stoi(item));
    return out;
}

// ---- the NCCL unique id through a file --------------------------------------------------------------------------
ncclUniqueId shared_unique_id(const std::filesystem::path& dir, int rank) {
    ncclUniqueId id{};
    const auto file = dir / "nccl-id";
    if (rank == 0) {
        check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
        std::filesystem::create_directories(dir);
        const auto tmp = dir / "nccl-id.tmp";
        {
            std::ofstream out(tmp, std::ios::binary);
            out.write(id.internal, sizeof id.internal);
            if (!out) throw std::runtime_error("cannot write " + tmp.string());
        }
        std::filesystem::rename(tmp, file);  // atomic: the others never read half an id
        return id;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!std::filesystem::exists(file)) {
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("no NCCL id from rank 0 in " + file.string() + " after 120 s (is ID_DIR shared and fresh?)");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::ifstream in(file, std::ios::binary);
    in.read(id.internal, sizeof id.internal);
    if (in.gcount() != sizeof id.internal) throw std::runtime_error(file.string() + " is not a whole NCCL id");
    return id;
}

// ---- the step loop ----------------------------------------------------------------------------------------------
struct StepPlan {
    int steps = 20;
    double work_ns = 300e3;
    std::uint64_t bytes = 64ull << 20;
    int slow_rank = -1;  // in threads mode: the slow device
    std::set<int> slow_steps;
    double delay_ns = 0;
};

StepPlan step_plan(Options& o, int world) {
    StepPlan p;
    p.steps = std::stoi(o.take("steps", "20"));
    p.work_ns = parse_positive(o.take("work-us", "300"), "--work-us") * 1e3;
    p.bytes = parse_bytes(o.take("bytes", "64M"));
    p.slow_rank = std::stoi(o.take("slow-rank", world > 1 ? "1" : "0"));
    p.slow_steps = parse_steps(o.take("slow-steps", "5,12"));
    p.delay_ns = parse_positive(o.take("delay-us", "2000"), "--delay-us") * 1e3;
    if (p.steps <= 0) throw std::invalid_argument("--steps must be > 0");
    if (p.bytes < sizeof(float)) throw std::invalid_argument("--bytes must be at least 4");
    if (p.slow_rank < 0 || p.slow_rank >= world)
        throw std::invalid_argument("--slow-rank " + std::to_string(p.slow_rank) + " is not a rank of " + std::to_string(world));
    for (int s : p.slow_steps)
        if (s < 0 || s >= p.steps) throw std::invalid_argument("--slow-steps holds " + std::to_string(s) + ", outside 0.." + std::to_string(p.steps - 1));
    return p;
}

// One device's loop; `who` is the rank (step mode) or the device (threads mode) that the slow steps apply to.
void run_steps(const StepPlan& p, int who, int device, ncclComm_t comm, dist::ScopeLog& log, gpuchrono::report::Experiment& e,
               std::mutex& e_mutex) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    gpuchrono::prepare(stream);
    const std::size_t count = p.bytes / sizeof(float);
    float* grad = nullptr;
    check_cuda(cudaMalloc(&grad, count * sizeof(float)), "cudaMalloc (gradients)");
    check_cuda(cudaMemsetAsync(grad, 0, count * sizeof(float), stream), "cudaMemset");
    // Warm-up, untimed: module load, NCCL's connections and its first-use allocations.
    gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(p.work_ns), stream);
    check_nccl(ncclAllReduce(grad, grad, count, ncclFloat, ncclSum, comm, stream), "ncclAllReduce (warm-up)");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (warm-up)");

    gpuchrono::Series series("step on device " + std::to_string(device));
    std::vector<gpuchrono::KernelActivity> activities;
    for (int k = 0; k < p.steps; ++k) {
        const bool slow = who == p.slow_rank && p.slow_steps.count(k) != 0;
        auto step = log.scope("step", device);
        gpuchrono::ScopedTimer<gpuchrono::KernelPolicy> t(series, stream);
        {
            // The merge names stragglers by when a scope ENDS (straggler_analysis.hpp): "compute" ends when this
            // rank is ready to reduce, so its lateness is what the others wait for in the all-reduce; "step" and
            // "allreduce" end together on every rank (the collective releases them all).
            auto compute = log.scope("compute", device);
            gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(p.work_ns + (slow ? p.delay_ns : 0.0)), stream);
            // The host waits for the compute as a framework's optimizer step would before it reduces: the
            // "allreduce" scope then starts when this rank is ready, and its length is wait + transfer.
            check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (compute)");
        }
        {
            auto ar = log.scope("allreduce", device, p.bytes);
            check_nccl(ncclAllReduce(grad, grad, count, ncclFloat, ncclSum, comm, stream), "ncclAllReduce");
            check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (all-reduce)");
        }
        const gpuchrono::Measurement& m = t.stop();
        activities.insert(activities.end(), m.activities().begin(), m.activities().end());
    }
    check_cuda(cudaFree(grad), "cudaFree");
    check_cuda(cudaStreamDestroy(stream), "cudaStreamDestroy");
    std::lock_guard lock(e_mutex);
    e.activities.insert(e.activities.end(), activities.begin(), activities.end());
    e.series.push_back(gpuchrono::report::make_series(series));
}

void write_report(gpuchrono::report::Experiment e, dist::ScopeLog& log, int device, const std::filesystem::path& out, int rank) {
    gpuchrono::report::Report report = gpuchrono::report::new_report();
    report.device = gpuchrono::report::describe_device(device);
    report.experiments.push_back(std::move(e));
    report.distributed = log.finish();
    std::filesystem::create_directories(out);
    const auto file = out / ("rank-" + std::to_string(rank) + ".json");
    gpuchrono::report::save_report(report, file);
    std::printf("rank %d: %zu activities, %zu scopes -> %s\n", rank, report.experiments[0].activities.size(),
                report.distributed->scopes.size(), file.c_str());
}

void require_kernel_policy() {
    if (!gpuchrono::KernelPolicy::available())
        throw std::runtime_error("KernelPolicy unavailable: " + gpuchrono::KernelPolicy::unavailable_reason());
}

int step_mode(Options& o) {
    if (o.positional.size() != 2) throw std::invalid_argument("step needs OUT_DIR ID_DIR");
    dist::ScopeLog log(/*with_cupti=*/true);
    const dist::RankIdentity& id = log.identity();
    const StepPlan plan = step_plan(o, id.world_size);
    o.refuse_leftovers();
    const int device = std::max(id.local_rank, 0);
    check_cuda(cudaSetDevice(device), "cudaSetDevice(local rank)");
    require_kernel_policy();
    ncclComm_t comm = nullptr;
    check_nccl(ncclCommInitRank(&comm, id.world_size, shared_unique_id(o.positional[1], id.rank), id.rank), "ncclCommInitRank");
    gpuchrono::report::Experiment e;
    e.id = "nccl-training-step";
    e.title = std::to_string(plan.steps) + " steps: " + std::to_string(plan.work_ns / 1e3) + " us compute, all-reduce of " +
              std::to_string(plan.bytes) + " B; rank " + std::to_string(plan.slow_rank) + " " + std::to_string(plan.delay_ns / 1e3) +
              " us late on the slow steps";
    std::mutex m;
    run_steps(plan, id.rank, device, comm, log, e, m);
    check_nccl(ncclCommDestroy(comm), "ncclCommDestroy");
    write_report(std::move(e), log, device, o.positional[0], id.rank);
    return 0;
}

int threads_mode(Options& o) {
    if (o.positional.size() != 1) throw std::invalid_argument("threads needs OUT_DIR");
    const int devices = std::stoi(o.take("devices", "2"));
    if (devices < 1 || devices > gpuchrono::device_count())
        throw std::invalid_argument("--devices " + std::to_string(devices) + ": this machine has " + std::to_string(gpuchrono::device_count()));
    const StepPlan plan = step_plan(o, devices);
    o.refuse_leftovers();
    check_cuda(cudaSetDevice(0), "cudaSetDevice");
    require_kernel_policy();
    std::vector<ncclComm_t> comms(devices);
    std::vector<int> list(devices);
    for (int d = 0; d < devices; ++d) list[d] = d;
    check_nccl(ncclCommInitAll(comms.data(), devices, list.data()), "ncclCommInitAll");
    dist::ScopeLog log(/*with_cupti=*/true);
    gpuchrono::report::Experiment e;
    e.id = "nccl-threads";
    e.title = std::to_string(devices) + " devices from one process, one thread each; device " + std::to_string(plan.slow_rank) + " late on the slow steps";
    std::mutex m;
    std::vector<std::string> errors(devices);
    std::vector<std::thread> threads;
    for (int d = 0; d < devices; ++d)
        threads.emplace_back([&, d] {
            try {
                run_steps(plan, d, d, comms[d], log, e, m);
            } catch (const std::exception& ex) {
                errors[d] = ex.what();
            }
        });
    for (auto& t : threads) t.join();
    for (int d = 0; d < devices; ++d)
        if (!errors[d].empty()) throw std::runtime_error("device " + std::to_string(d) + ": " + errors[d]);
    for (auto c : comms) check_nccl(ncclCommDestroy(c), "ncclCommDestroy");
    write_report(std::move(e), log, 0, o.positional[0], log.identity().rank);
    return 0;
}

// ---- bandwidth --------------------------------------------------------------------------------------------------
int bandwidth_mode(Options& o) {
    if (o.positional.size() != 1) throw std::invalid_argument("bandwidth needs ID_DIR");
    const std::uint64_t min_bytes = parse_bytes(o.take("min-bytes", "8"));
    const std::uint64_t max_bytes = parse_bytes(o.take("max-bytes", "1G"));
    const int factor = std::stoi(o.take("factor", "2"));
    const int iters = std::stoi(o.take("iters", "20"));
    const int warmup = std::stoi(o.take("warmup", "5"));
    const std::string across = o.take("across", "avg");
    o.refuse_leftovers();
    if (across != "avg" && across != "min" && across != "max") throw std::invalid_argument("--across '" + across + "': avg, min or max");
    const ncclRedOp_t across_op = across == "avg" ? ncclSum : across == "min" ? ncclMin : ncclMax;
    if (min_bytes < 8 || max_bytes < min_bytes || factor < 2 || iters < 1 || warmup < 0)
        throw std::invalid_argument("need 8 <= --min-bytes <= --max-bytes, --factor >= 2, --iters >= 1, --warmup >= 0");
    const dist::RankIdentity id = dist::identity_from_environment();
    const int n = id.world_size;
    const int device = std::max(id.local_rank, 0);
    check_cuda(cudaSetDevice(device), "cudaSetDevice(local rank)");
    ncclComm_t comm = nullptr;
    check_nccl(ncclCommInitRank(&comm, n, shared_unique_id(o.positional[0], id.rank), id.rank), "ncclCommInitRank");
    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    // Buffers big enough for the largest S on both sides (all-gather receives S, reduce-scatter sends S).
    void* send = nullptr;
    void* recv = nullptr;
    check_cuda(cudaMalloc(&send, max_bytes), "cudaMalloc (send)");
    check_cuda(cudaMalloc(&recv, max_bytes), "cudaMalloc (recv)");
    check_cuda(cudaMemset(send, 0, max_bytes), "cudaMemset");
    // The per-op time is combined over the ranks (nccl-tests: average by default) by an all-reduce of one double.
    double* ranks_time = nullptr;
    check_cuda(cudaMalloc(&ranks_time, sizeof(double)), "cudaMalloc");
    if (id.rank == 0)
        std::printf("# %d ranks; times: host clock over %d back-to-back operations after %d warm-up ones, / %d, %s over the ranks\n"
                    "# %-15s %12s %12s %10s %10s %10s\n",
                    n, iters, warmup, iters, across.c_str(), "collective", "size (B)", "count", "time (us)", "algbw GB/s", "busbw GB/s");
    const dist::Collective kinds[] = {dist::Collective::all_reduce, dist::Collective::all_gather, dist::Collective::reduce_scatter};
    for (const dist::Collective c : kinds) {
        for (std::uint64_t bytes = min_bytes; bytes <= max_bytes; bytes *= factor) {
            // S as nccl-tests counts it; all-gather and reduce-scatter move S / n per rank on the small side.
            const std::size_t elements = bytes / sizeof(float);
            const std::size_t per_rank = elements / n;
            if (per_rank == 0) continue;  // fewer elements than ranks: nothing to time
            auto op = [&] {
                switch (c) {
                    case dist::Collective::all_reduce:
                        return ncclAllReduce(send, recv, elements, ncclFloat, ncclSum, comm, stream);
                    case dist::Collective::all_gather:
                        return ncclAllGather(send, recv, per_rank, ncclFloat, comm, stream);
                    default:
                        return ncclReduceScatter(send, recv, per_rank, ncclFloat, ncclSum, comm, stream);
                }
            };
            for (int i = 0; i < warmup; ++i) check_nccl(op(), "warm-up collective");
            check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < iters; ++i) check_nccl(op(), to_string(c));
            check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
            double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
            check_cuda(cudaMemcpy(ranks_time, &seconds, sizeof seconds, cudaMemcpyHostToDevice), "cudaMemcpy");
            check_nccl(ncclAllReduce(ranks_time, ranks_time, 1, ncclDouble, across_op, comm, stream), "ncclAllReduce (time over the ranks)");
            check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
            check_cuda(cudaMemcpy(&seconds, ranks_time, sizeof seconds, cudaMemcpyDeviceToHost), "cudaMemcpy");
            if (across == "avg") seconds /= n;
            const std::uint64_t s = (c == dist::Collective::all_reduce ? elements : per_rank * n) * sizeof(float);
            const dist::CollectiveBandwidth bw = dist::collective_bandwidth(c, s, seconds, n);
            if (id.rank == 0)
                std::printf("  %-15s %12llu %12zu %10.2f %10.2f %10.2f\n", to_string(c), static_cast<unsigned long long>(s),
                            c == dist::Collective::all_reduce ? elements : per_rank, seconds * 1e6, bw.algbw_bytes_per_second / 1e9,
                            bw.busbw_bytes_per_second / 1e9);
            if (max_bytes / factor < bytes) break;  // the next size would overflow past max_bytes
        }
    }
    std::fflush(stdout);
    check_cuda(cudaFree(ranks_time), "cudaFree");
    check_cuda(cudaFree(send), "cudaFree");
    check_cuda(cudaFree(recv), "cudaFree");
    check_nccl(ncclCommDestroy(comm), "ncclCommDestroy");
    check_cuda(cudaStreamDestroy(stream), "cudaStreamDestroy");
    return 0;
}

// ---- clocks -----------------------------------------------------------------------------------------------------
// One reading of a device. The %globaltimer pairing uses a bare stamp kernel (host steady clock before the launch
// and after the synchronisation: half that interval is the pairing's uncertainty), because KernelPolicy's stop
// flushes CUPTI's buffers, which widened that interval to ~340 us in the dry run. A second stamp kernel under
// KernelPolicy pairs CUPTI's start of a kernel with the %globaltimer that kernel read as it began (the same event,
// to within the kernel's first instructions). Differences are taken in integers: the clocks read ~1.8e18 ns since
// 1970, where a double keeps only 256 ns steps.
struct ClockSample {
    std::int64_t steady_ns = 0;               // midpoint of launch..completion
    std::int64_t half_width_ns = 0;
    std::int64_t globaltimer_minus_steady = 0;
    std::int64_t cupti_minus_globaltimer = 0;
};

std::uint64_t read_stamp(const std::uint64_t* stamp) {
    std::uint64_t v = 0;
    check_cuda(cudaMemcpy(&v, stamp, sizeof v, cudaMemcpyDeviceToHost), "cudaMemcpy (stamp)");
    return v;
}

ClockSample sample_device(int device, cudaStream_t stream, std::uint64_t* stamp) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    ClockSample s;
    const std::int64_t before = dist::steady_now_ns();
    gpuchrono::examples::launch_globaltimer_stamp(stamp, stream);
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (stamp)");
    const std::int64_t after = dist::steady_now_ns();
    s.steady_ns = before + (after - before) / 2;
    s.half_width_ns = (after - before) / 2;
    s.globaltimer_minus_steady = static_cast<std::int64_t>(read_stamp(stamp)) - s.steady_ns;
    gpuchrono::ScopedTimer<gpuchrono::KernelPolicy> t(stream);
    gpuchrono::examples::launch_globaltimer_stamp(stamp, stream);
    const gpuchrono::Measurement& m = t.stop();
    if (m.activities().empty()) throw std::runtime_error("CUPTI delivered no record for the stamp kernel on device " + std::to_string(device));
    s.cupti_minus_globaltimer = static_cast<std::int64_t>(m.activities().front().start_ns) - static_cast<std::int64_t>(read_stamp(stamp));
    return s;
}

// Offsets kept as an integer base plus a small double, so that two devices' ~1.8e18 ns offsets subtract exactly.
struct OffsetDrift {
    std::int64_t base_ns = 0;  // the first sample's offset; the fitted offset there is base_ns + offset_from_base_ns
    double offset_from_base_ns = 0;
    double drift = 0;       // ns per ns
    double rms_ns = 0;      // residual of the line
    double offset_ns() const { return double(base_ns) + offset_from_base_ns; }  // for printing one clock's offset
};

double offset_between(const OffsetDrift& a, const OffsetDrift& b) {
    return double(a.base_ns - b.base_ns) + (a.offset_from_base_ns - b.offset_from_base_ns);
}

// Least-squares line v = a + b (x - x0) over (x, v) with v an offset already taken in integers.
OffsetDrift fit_offset_drift(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& v) {
    const std::int64_t x0 = x.front(), v0 = v.front();
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = double(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double u = double(x[i] - x0), w = double(v[i] - v0);
        sx += u, sy += w, sxx += u * u, sxy += u * w;
    }
    const double den = n * sxx - sx * sx;
    const double b = den > 0 ? (n * sxy - sx * sy) / den : 0.0;
    const double a = (sy - b * sx) / n;
    double rms = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double r = double(v[i] - v0) - (a + b * double(x[i] - x0));
        rms += r * r;
    }
    return {v0, a, b, std::sqrt(rms / n)};
}

int clocks_mode(Options& o) {
    const double seconds = parse_positive(o.take("seconds", "60"), "--seconds");
    const int devices = std::stoi(o.take("devices", std::to_string(gpuchrono::device_count())));
    const int interval_ms = std::stoi(o.take("interval-ms", "100"));
    o.refuse_leftovers();
    if (devices < 1 || devices > gpuchrono::device_count())
        throw std::invalid_argument("--devices " + std::to_string(devices) + ": this machine has " + std::to_string(gpuchrono::device_count()));
    if (interval_ms < 1) throw std::invalid_argument("--interval-ms must be >= 1");
    require_kernel_policy();
    std::vector<cudaStream_t> streams(devices);
    std::vector<std::uint64_t*> stamps(devices);
    for (int d = 0; d < devices; ++d) {
        check_cuda(cudaSetDevice(d), "cudaSetDevice");
        check_cuda(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking), "cudaStreamCreate");
        check_cuda(cudaMalloc(&stamps[d], sizeof(std::uint64_t)), "cudaMalloc");
        gpuchrono::prepare(streams[d]);
        sample_device(d, streams[d], stamps[d]);  // module load, untimed
    }
    std::vector<std::vector<ClockSample>> samples(devices);
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    do {
        for (int d = 0; d < devices; ++d) samples[d].push_back(sample_device(d, streams[d], stamps[d]));
        std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms));
    } while (std::chrono::steady_clock::now() < end);
    std::printf("# clocks over %.1f s, %zu samples per device (every %d ms); offset at the first sample, drift in ns per s (ppb)\n"
                "# %%globaltimer - host steady: paired by a bare kernel, uncertainty = half its launch..completion (median);\n"
                "# CUPTI - %%globaltimer: CUPTI's start of a kernel minus the %%globaltimer it read first\n",
                seconds, samples[0].size(), interval_ms);
    std::printf("# %-6s %-26s %22s %14s %12s %16s\n", "device", "clocks", "offset (ns)", "drift (ns/s)", "fit rms (ns)", "uncertainty (ns)");
    std::vector<OffsetDrift> gt_fit(devices), cupti_fit(devices);
    for (int d = 0; d < devices; ++d) {
        std::vector<std::int64_t> x, gt, cu, widths;
        for (const ClockSample& s : samples[d])
            x.push_back(s.steady_ns), gt.push_back(s.globaltimer_minus_steady), cu.push_back(s.cupti_minus_globaltimer), widths.push_back(s.half_width_ns);
        std::sort(widths.begin(), widths.end());
        gt_fit[d] = fit_offset_drift(x, gt);
        cupti_fit[d] = fit_offset_drift(x, cu);
        std::printf("  %-6d %-26s %22.0f %14.2f %12.0f %16lld\n", d, "%globaltimer - steady", gt_fit[d].offset_ns(), gt_fit[d].drift * 1e9,
                    gt_fit[d].rms_ns, static_cast<long long>(widths[widths.size() / 2]));
        std::printf("  %-6d %-26s %22.0f %14.2f %12.0f %16s\n", d, "CUPTI - %globaltimer", cupti_fit[d].offset_ns(), cupti_fit[d].drift * 1e9,
                    cupti_fit[d].rms_ns, "-");
    }
    for (int d = 1; d < devices; ++d)
        std::printf("device %d vs 0: %%globaltimer offset %.0f ns, drift %.2f ns/s; CUPTI offset %.0f ns, drift %.2f ns/s\n", d,
                    offset_between(gt_fit[d], gt_fit[0]), (gt_fit[d].drift - gt_fit[0].drift) * 1e9,
                    offset_between(cupti_fit[d], cupti_fit[0]) + offset_between(gt_fit[d], gt_fit[0]),
                    (cupti_fit[d].drift + gt_fit[d].drift - cupti_fit[0].drift - gt_fit[0].drift) * 1e9);
    for (int d = 0; d < devices; ++d) {
        check_cuda(cudaSetDevice(d), "cudaSetDevice");
        check_cuda(cudaFree(stamps[d]), "cudaFree");
        check_cuda(cudaStreamDestroy(streams[d]), "cudaStreamDestroy");
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 2) {
        std::fputs("usage: gpuchrono-example-nccl-training-step step|bandwidth|threads|clocks ... (see the comment at the top of\n"
                    "       examples/distributed/nccl_training_step.cpp; examples/distributed/run_nccl_job.sh runs them)\n",
                    stderr);
        return 2;
    }
    if (gpuchrono::device_count() == 0) {
        std::printf("skipped: no CUDA device (%s)\n", gpuchrono::no_device_reason().value_or("no device").c_str());
        return 77;
    }
    int version = 0;
    check_nccl(ncclGetVersion(&version), "ncclGetVersion");
    if (const char* nvls = std::getenv("NCCL_NVLS_ENABLE"); !nvls || std::string(nvls) != "0")
        std::fprintf(stderr, "warning: NCCL_NVLS_ENABLE is not 0: NVLink multicast must stay off on the lent machines (run_nccl_job.sh sets it)\n");
    std::fprintf(stderr, "NCCL %d (built against %d)\n", version, NCCL_VERSION_CODE);
    Options o = parse(argc, argv);
    const std::string mode = argv[1];
    if (mode == "step") return step_mode(o);
    if (mode == "bandwidth") return bandwidth_mode(o);
    if (mode == "threads") return threads_mode(o);
    if (mode == "clocks") return clocks_mode(o);
    throw std::invalid_argument("unknown mode '" + mode + "' (step, bandwidth, threads, clocks)");
} catch (const std::exception& ex) {
    std::fprintf(stderr, "gpuchrono-example-nccl-training-step: %s\n", ex.what());
    return 1;
}
