// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Distributed jobs without a GPU: identity from launchers' environments, the "distributed" section of
// report.json, clock alignment against a known truth (and against Holistic Trace Analysis's one global
// subtraction), the merge's refusals, the straggler analysis and nccl-tests' bandwidths.
#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gpuchrono/distributed/clock_alignment.hpp>
#include <gpuchrono/distributed/collective_bandwidth.hpp>
#include <gpuchrono/job/job_merge.hpp>
#include "report/render/lateness_svg.hpp"
#include <gpuchrono/distributed/rank_identity.hpp>
#include "job/straggler_text.hpp"
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>

#include "synthetic_job.hpp"

#include <gpuchrono/api.hpp>

namespace gd = gpuchrono::distributed;
namespace gr = gpuchrono::report;

namespace {

gd::Environment env(std::map<std::string, std::string> vars) {
    return [vars](const std::string& name) -> std::optional<std::string> {
        const auto it = vars.find(name);
        return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
}

// Refused with a message holding `fragment`.
template <class E, class F>
void check_refused(F&& f, const std::string& fragment) {
    try {
        f();
    } catch (const E& e) {
        BOOST_TEST_MESSAGE("refused: " << e.what());
        BOOST_TEST(std::string(e.what()).find(fragment) != std::string::npos, "message \"" << e.what() << "\" lacks \"" << fragment << "\"");
        return;
    }
    BOOST_ERROR("not refused; expected a message with \"" << fragment << "\"");
}

std::filesystem::path scratch(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("gpuchrono-distributed-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::vector<std::filesystem::path> write_job(const std::filesystem::path& dir, const synthetic::JobShape& j,
                                             const std::vector<synthetic::RankClock>& clocks) {
    std::vector<std::filesystem::path> files;
    for (int r = 0; r < j.world_size; ++r) {
        files.push_back(dir / ("rank" + std::to_string(r) + ".json"));
        gr::save_report(synthetic::rank_report(j, r, clocks[static_cast<std::size_t>(r)]), files.back());
    }
    return files;
}

std::vector<synthetic::RankClock> skewed_clocks() {
    // offsets of milliseconds to seconds, drifts of tens of ppm: what unsynchronised hosts show
    return {{0, 0.0}, {3'000'000, 20e-6}, {-250'000'000, -35e-6}, {1'700'000'000, 50e-6}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(distributed_identity)

BOOST_AUTO_TEST_CASE(each_launcher_is_read_without_configuration) {
    const auto ompi = gd::identity_from_environment(
        env({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "8"}, {"PMIX_NAMESPACE", "prterun-x@1"}}));
    BOOST_TEST(ompi.rank == 3);
    BOOST_TEST(ompi.local_rank == 1);
    BOOST_TEST(ompi.world_size == 8);
    BOOST_TEST(ompi.launcher == "openmpi");
    BOOST_TEST(ompi.job_id == "prterun-x@1");
    BOOST_TEST(ompi.pid == static_cast<long>(::getpid()));
    BOOST_TEST(!ompi.host.empty());

    const auto slurm = gd::identity_from_environment(
        env({{"SLURM_PROCID", "5"}, {"SLURM_LOCALID", "1"}, {"SLURM_NTASKS", "16"}, {"SLURM_JOB_ID", "4242"}, {"SLURM_STEP_ID", "0"}}));
    BOOST_TEST(slurm.rank == 5);
    BOOST_TEST(slurm.world_size == 16);
    BOOST_TEST(slurm.job_id == "4242.0");
    BOOST_TEST(slurm.launcher == "slurm");

    const auto pmi = gd::identity_from_environment(env({{"PMI_RANK", "2"}, {"PMI_SIZE", "4"}}));
    BOOST_TEST(pmi.rank == 2);
    BOOST_TEST(pmi.local_rank == 2);  // not given: one node assumed
    BOOST_TEST(pmi.launcher == "pmi");

    const auto torch = gd::identity_from_environment(
        env({{"RANK", "1"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "2"}, {"TORCHELASTIC_RUN_ID", "abc"}, {"GPUCHRONO_JOB_ID", "mine"}}));
    BOOST_TEST(torch.rank == 1);
    BOOST_TEST(torch.launcher == "torchrun");
    BOOST_TEST(torch.job_id == "mine");  // GPUCHRONO_JOB_ID wins

    // mpirun inside a Slurm allocation: the MPI job's own numbers win.
    const auto both = gd::identity_from_environment(
        env({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}}));
    BOOST_TEST(both.launcher == "openmpi");
    BOOST_TEST(both.world_size == 2);

    const auto alone = gd::identity_from_environment(env({}));
    BOOST_TEST(alone.rank == 0);
    BOOST_TEST(alone.world_size == 1);
    BOOST_TEST(alone.launcher == "none");
}

BOOST_AUTO_TEST_CASE(bad_values_are_refused_with_the_variable_named) {
    check_refused<gd::IdentityError>([] { gd::identity_from_environment(env({{"RANK", "one"}, {"WORLD_SIZE", "2"}})); }, "RANK=\"one\" is not a decimal integer");
    check_refused<gd::IdentityError>([] { gd::identity_from_environment(env({{"RANK", "2"}, {"WORLD_SIZE", "2"}})); }, "rank 2 is outside 0..1");
    check_refused<gd::IdentityError>([] { gd::identity_from_environment(env({{"RANK", "-1"}, {"WORLD_SIZE", "2"}})); }, "rank -1 is outside");
    check_refused<gd::IdentityError>([] { gd::identity_from_environment(env({{"PMI_RANK", "0"}, {"PMI_SIZE", "0"}})); }, "world size 0");
    check_refused<gd::IdentityError>([] { gd::identity_from_environment(env({{"SLURM_PROCID", "0"}})); }, "SLURM_PROCID is set but SLURM_NTASKS is not");
    check_refused<gd::IdentityError>([] { gd::identity_from_environment(env({{"RANK", "0"}, {"WORLD_SIZE", "99999999999"}})); }, "too large");
    check_refused<gd::IdentityError>([] { gd::identity_from_environment(env({{"RANK", "0 "}, {"WORLD_SIZE", "2"}})); }, "not a decimal integer");
    check_refused<gd::IdentityError>([] { gd::validate({"h", 1, 0, 5, 4, "", "manual"}); }, "local rank 5");
}

BOOST_AUTO_TEST_CASE(set_by_hand) {
    gd::ScopeLog log(gd::RankIdentity{"myhost", 77, 2, 0, 3, "job-9", "manual"}, false);
    { auto s = log.scope("step"); }
    const gd::RankSection section = log.finish();
    BOOST_TEST(section.identity.rank == 2);
    BOOST_TEST(section.identity.job_id == "job-9");
    BOOST_TEST(section.anchors.size() == 2u);
    BOOST_TEST(section.scopes.size() == 1u);
    BOOST_TEST(section.scopes[0].end_ns >= section.scopes[0].start_ns);
    BOOST_TEST(section.anchors[1].steady_ns >= section.anchors[0].steady_ns);
    check_refused<gd::IdentityError>([] { gd::ScopeLog bad(gd::RankIdentity{"h", 1, 3, 0, 3, "", "manual"}, false); }, "rank 3 is outside 0..2");
}

BOOST_AUTO_TEST_CASE(uuid_is_written_as_nvidia_smi_does) {
    const unsigned char bytes[16] = {0x8d, 0x3c, 0x1f, 0x0e, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x01, 0x23, 0x45, 0x67};
    BOOST_TEST(gd::format_uuid(bytes) == "GPU-8d3c1f0e-1234-5678-9abc-def001234567");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(distributed_report_json)

BOOST_AUTO_TEST_CASE(the_section_survives_a_round_trip_and_old_files_still_read) {
    synthetic::JobShape j;
    j.activities_per_rank = 3;
    gr::Report report = synthetic::rank_report(j, 2, {1000, 1e-6});
    report.distributed->devices.push_back({0, "NVIDIA H100 80GB HBM3", "GPU-8d3c1f0e-1234-5678-9abc-def001234567", "0000:18:00.0"});
    report.distributed->anchors[1].cupti_ns.reset();
    const gr::Report back = gr::report_from_json(gr::to_json(report));
    BOOST_REQUIRE(back.distributed.has_value());
    BOOST_TEST((*back.distributed == *report.distributed));
    BOOST_TEST(gr::to_json(back) == gr::to_json(report));  // byte for byte

    // A schema-1 file from before the section reads with none.
    const gr::Report old = gr::load_report(std::filesystem::path(GPUCHRONO_TEST_DATA_DIR) / "report-v1.json");
    BOOST_TEST(!old.distributed.has_value());
    BOOST_TEST(gr::to_json(old).find("\"distributed\"") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_sections_are_refused_with_the_member_named) {
    synthetic::JobShape j;
    const std::string good = gr::to_json(synthetic::rank_report(j, 1, {}));
    auto edited = [&](auto&& edit) {
        nlohmann::ordered_json doc = nlohmann::ordered_json::parse(good);
        edit(doc["distributed"]);
        return doc.dump();
    };
    check_refused<gr::ReportError>([&] { gr::report_from_json(edited([](auto& d) { d["rank"] = 7; })); }, "distributed: gpuchrono: rank 7 is outside 0..3");
    check_refused<gr::ReportError>([&] { gr::report_from_json(edited([](auto& d) { d.erase("world_size"); })); }, "distributed.world_size: missing");
    check_refused<gr::ReportError>([&] { gr::report_from_json(edited([](auto& d) { d["anchors"][1]["steady_ns"] = "x"; })); },
                                   "distributed.anchors[1].steady_ns: expected an integer, found string");
    check_refused<gr::ReportError>([&] { gr::report_from_json(edited([](auto& d) { d["scopes"][0]["end_ns"] = 0; })); },
                                   "distributed.scopes[0]: ends (0) before it starts");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(distributed_alignment)

// Known offsets AND drifts: the merge, through each rank's start and end offsets to the reference, puts every
// scope within the offsets' error bound of the truth; Holistic Trace Analysis's alignment (one global minimum
// subtracted from everyone's raw timestamps) leaves the offsets and drift in.
BOOST_AUTO_TEST_CASE(offset_and_drift_are_recovered_far_better_than_one_global_subtraction) {
    synthetic::JobShape j;
    j.steps = 100;  // 1 s of run: 50 ppm of drift is 50 us by its end
    j.offset_error_ns = 3'000;
    const auto clocks = skewed_clocks();
    double ours = 0, hta = 0;
    std::int64_t global_min_local = INT64_MAX, global_min_true = INT64_MAX;
    for (int r = 0; r < j.world_size; ++r) {
        const auto& c = clocks[static_cast<std::size_t>(r)];
        global_min_local = std::min(global_min_local, synthetic::local_time(c, j.t0, synthetic::true_start(j, r, 0)));
        global_min_true = std::min(global_min_true, synthetic::true_start(j, r, 0));
    }
    for (int r = 0; r < j.world_size; ++r) {
        const auto& c = clocks[static_cast<std::size_t>(r)];
        const gr::Report rep = synthetic::rank_report(j, r, c);
        const auto maps = gd::clock_maps_for(*rep.distributed, gd::JobClock::reference_steady);
        BOOST_TEST(maps.steady_to_job.error_ns <= 5'000.0);
        for (int k = 0; k < j.steps; ++k) {
            const std::int64_t truth = synthetic::true_end(j, r, k);
            const std::int64_t local = synthetic::local_time(c, j.t0, truth);
            ours = std::max(ours, std::abs(static_cast<double>(maps.steady_to_job(local) - truth)));
            hta = std::max(hta, std::abs(static_cast<double>((local - global_min_local) - (truth - global_min_true))));
        }
    }
    BOOST_TEST_MESSAGE("largest error of a step's end: gpuchrono " << ours << " ns, one global subtraction (HTA) " << hta << " ns, "
                                                                  << hta / std::max(ours, 1.0) << "x");
    BOOST_TEST(ours <= 3'000.0 + 2.0);  // the error put into the offsets, plus rounding
    BOOST_TEST(hta >= 1'000'000.0);     // the ms..s offsets stay
}

BOOST_AUTO_TEST_CASE(drift_alone_is_corrected_where_a_constant_offset_is_not) {
    // One rank, no offset, 40 ppm drift over 10 s: a constant-offset alignment (fitted at the start) is
    // 400 us off by the end; the two-anchor fit is exact.
    gd::RankSection s;
    s.identity = {"h", 1, 1, 1, 2, "", "manual"};
    const std::int64_t t0 = 5'000'000'000, t1 = t0 + 10'000'000'000;
    const double drift = 40e-6;
    auto local = [&](std::int64_t t) { return t + static_cast<std::int64_t>(drift * static_cast<double>(t - t0)); };
    for (const std::int64_t t : {t0, t1}) {
        s.anchors.push_back({local(t), t, 0, std::nullopt});
        s.reference_offsets.push_back({local(t), t - local(t), 0, 0});
    }
    const auto maps = gd::clock_maps_for(s, gd::JobClock::reference_steady);
    const std::int64_t truth = t1 - 1'000;
    BOOST_TEST(std::abs(maps.steady_to_job(local(truth)) - truth) <= 1);
    const std::int64_t constant_offset_error = std::abs(local(truth) + (t0 - local(t0)) - truth);
    BOOST_TEST(constant_offset_error >= 399'000);
    BOOST_TEST(std::abs(maps.steady_to_job.rate - 1.0 / (1.0 + drift)) < 1e-9);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(distributed_merge)

BOOST_AUTO_TEST_CASE(a_late_rank_is_named_with_its_delay_despite_skewed_clocks) {
    synthetic::JobShape j;
    j.late_rank = 2;
    j.late_steps = {3, 7};
    j.delay_ns = 20'000'000;
    j.activities_per_rank = 50;
    j.kernel_per_step = true;
    const auto dir = scratch("late");
    const auto files = write_job(dir, j, skewed_clocks());
    const gd::MergedJob job = gd::merge_rank_reports({files[3], files[1], files[0], files[2]}, {dir / "trace.json"});
    BOOST_TEST((job.clock == gd::JobClock::reference_steady));
    BOOST_REQUIRE(job.ranks.size() == 4u);
    for (int r = 0; r < 4; ++r) BOOST_TEST(job.ranks[static_cast<std::size_t>(r)].identity.rank == r);
    // The offsets recovered: job clock - local at the start anchor = -offset of the synthetic clock.
    const auto clocks = skewed_clocks();
    for (int r = 0; r < 4; ++r) {
        const auto& m = job.ranks[static_cast<std::size_t>(r)];
        BOOST_TEST(std::abs(m.offset_ns + static_cast<double>(clocks[static_cast<std::size_t>(r)].offset_ns)) <= 2.0);
        BOOST_TEST(std::abs(m.drift_ppm - clocks[static_cast<std::size_t>(r)].drift * 1e6) <= 0.01);
    }
    BOOST_REQUIRE(job.stragglers.size() == 1u);
    const gd::ScopeStragglers& st = job.stragglers[0];
    BOOST_TEST(st.name == "step");
    BOOST_REQUIRE(st.steps.size() == 10u);
    for (const int k : {3, 7}) {
        BOOST_TEST(st.steps[static_cast<std::size_t>(k)].last_rank == 2);
        BOOST_TEST(std::abs(st.steps[static_cast<std::size_t>(k)].last_lateness_ns - 20'000'000) <= 10);
        BOOST_TEST(std::abs(st.steps[static_cast<std::size_t>(k)].last_excess_ns - 20'000'000) <= 10);
        BOOST_TEST(std::abs(st.steps[static_cast<std::size_t>(k)].waited_ns - 3 * 20'000'000) <= 30);
        // the step kernel's GPU time inside the pass: the late rank's is 20 ms longer (drift rescales it by < 1 ns/ms)
        BOOST_TEST(std::abs(st.steps[static_cast<std::size_t>(k)].last_gpu_excess_ns - 20'000'000) <= 10);
    }
    BOOST_TEST(st.times_last[2] == 2);
    BOOST_TEST(st.times_last[0] + st.times_last[1] + st.times_last[3] == 0);  // the other steps are ties
    BOOST_TEST(std::abs(st.total_lateness_ns[2] - 40'000'000) <= 100);
    // Activities: every rank's NCCL kernels found; wait vs transfer computed.
    BOOST_REQUIRE(job.collectives.size() == 1u);
    BOOST_TEST(job.collectives[0].collective == "AllReduce");
    BOOST_TEST(job.collectives[0].calls == 5u);

    const std::string text = gd::render_job_text(job);
    BOOST_TEST_MESSAGE(text);
    BOOST_TEST(text.find("scope \"step\"") != std::string::npos);
    const std::string svg = gd::render_lateness_svg(st);
    BOOST_TEST(svg.find("rank 2 step 3: 20.000 ms late") != std::string::npos);

    // The trace: one process per rank, tracks per stream, and rank 2's late step 3 starts where rank 0's does.
    std::ifstream in(dir / "trace.json");
    const nlohmann::json trace = nlohmann::json::parse(in);
    int processes = 0, stream_tracks = 0, kernels = 0;
    std::map<int, double> step3_ts;
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name") ++processes;
        if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"].get<std::string>().find("stream") != std::string::npos) ++stream_tracks;
        if (e["ph"] == "X" && e["cat"] == "kernel") ++kernels;
        if (e["ph"] == "X" && e["cat"] == "scope" && e["args"]["step"] == 3) step3_ts[e["pid"].get<int>()] = e["ts"].get<double>();
    }
    BOOST_TEST(processes == 4);
    BOOST_TEST(stream_tracks == 8);  // 4 ranks x 2 streams
    BOOST_TEST(kernels == 240);  // 50 + 10 step kernels per rank
    BOOST_REQUIRE(step3_ts.size() == 4u);
    for (const auto& [pid, ts] : step3_ts) BOOST_TEST(std::abs(ts - step3_ts[0]) <= 0.01, "rank " << pid << " step 3 at " << ts << " us");
    BOOST_TEST(!std::filesystem::exists(dir / "trace.json.spill"));
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(without_offsets_the_system_clock_is_used_and_says_so) {
    synthetic::JobShape j;
    const auto dir = scratch("system");
    std::vector<std::filesystem::path> files;
    for (int r = 0; r < j.world_size; ++r) {
        gr::Report rep = synthetic::rank_report(j, r, skewed_clocks()[static_cast<std::size_t>(r)]);
        rep.distributed->reference_offsets.clear();
        files.push_back(dir / ("r" + std::to_string(r) + ".json"));
        gr::save_report(rep, files.back());
    }
    const gd::MergedJob job = gd::merge_rank_reports(files);
    BOOST_TEST((job.clock == gd::JobClock::system));
    BOOST_TEST(job.alignment_note.find("2 hosts") != std::string::npos);
    BOOST_TEST(job.alignment_error_ns == 50.0);  // half the anchors' read width
    // The synthetic system clock is the truth + 123 ns for everyone: the steps line up again.
    for (const auto& s : job.stragglers[0].steps) BOOST_TEST(s.spread_ns <= 2);
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(inputs_that_do_not_make_one_job_are_refused) {
    synthetic::JobShape j;
    const auto dir = scratch("refusals");
    const auto files = write_job(dir, j, skewed_clocks());
    check_refused<gd::MergeError>([&] { gd::merge_rank_reports({files[0], files[1], files[3]}); }, "1 rank(s) have no report: 2");
    check_refused<gd::MergeError>([&] { gd::merge_rank_reports({files[0], files[1], files[1], files[2], files[3]}); }, "rank 1 is given twice");

    synthetic::JobShape other = j;
    other.job_id = "synthetic-2";
    gr::save_report(synthetic::rank_report(other, 2, {}), dir / "other.json");
    check_refused<gd::MergeError>([&] { gd::merge_rank_reports({files[0], files[1], dir / "other.json", files[3]}); },
                                  "belongs to job \"synthetic-2\"");
    synthetic::JobShape bigger = j;
    bigger.world_size = 8;
    gr::save_report(synthetic::rank_report(bigger, 2, {}), dir / "bigger.json");
    check_refused<gd::MergeError>([&] { gd::merge_rank_reports({files[0], files[1], dir / "bigger.json", files[3]}); }, "has world size 8");

    {
        std::string text;
        std::ifstream in(files[2]);
        std::stringstream ss;
        ss << in.rdbuf();
        text = ss.str();
        std::ofstream(dir / "truncated.json") << text.substr(0, text.size() / 2);
    }
    check_refused<gd::MergeError>([&] { gd::merge_rank_reports({files[0], files[1], dir / "truncated.json", files[3]}); }, "truncated.json: parse error");
    gr::save_report(gr::Report{}, dir / "plain.json");
    check_refused<gd::MergeError>([&] { gd::merge_rank_reports({files[0], dir / "plain.json"}); }, "plain.json: has no \"distributed\" section");
    check_refused<gd::MergeError>([&] { gd::merge_rank_reports({files[0], dir / "absent.json"}); }, "absent.json");
    check_refused<gd::MergeError>([&] { gd::merge_rank_reports({}); }, "at least one rank report");
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_collective_scope_with_bytes_gets_nccl_tests_bandwidths) {
    // 2 ranks, 5 passes of "allreduce" moving 1 GB in 10 ms each: algbw 100 GB/s, busbw 100 x 2(2-1)/2 = 100 GB/s.
    const auto dir = scratch("bandwidth");
    std::vector<std::filesystem::path> files;
    for (int r = 0; r < 2; ++r) {
        gr::Report rep;
        gd::RankSection s;
        s.identity = {"h", 10 + r, r, r, 2, "bw", "manual"};
        s.anchors = {{1'000, 5'000, 0, std::nullopt}, {1'000'000'000, 1'000'004'000, 0, std::nullopt}};
        for (int k = 0; k < 5; ++k) s.scopes.push_back({"allreduce", 10'000'000 + k * 20'000'000, 20'000'000 + k * 20'000'000, 0, 1'000'000'000});
        rep.distributed = s;
        files.push_back(dir / ("r" + std::to_string(r) + ".json"));
        gr::save_report(rep, files.back());
    }
    const gd::MergedJob job = gd::merge_rank_reports(files);
    bool found = false;
    for (const std::string& n : job.notes) {
        BOOST_TEST_MESSAGE(n);
        found |= n.find("allreduce: 1000000000 B, median pass 10000.000 us: algbw 100.000 GB/s, busbw 100.000 GB/s") != std::string::npos;
    }
    BOOST_TEST(found);
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(distributed_analysis)

BOOST_AUTO_TEST_CASE(nccl_kernel_names_are_recognised) {
    BOOST_TEST(gd::nccl_collective_of("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)") == "AllReduce");
    BOOST_TEST(gd::nccl_collective_of("void ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)") == "AllGather");
    BOOST_TEST(gd::nccl_collective_of("ncclDevKernel_ReduceScatter_Sum_bf16_RING_SIMPLE") == "ReduceScatter");
    BOOST_TEST(gd::nccl_collective_of("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)") == "SendRecv");
    BOOST_TEST(gd::nccl_collective_of("void gemm_kernel<float>()").empty());
}

BOOST_AUTO_TEST_CASE(wait_inside_a_collective_is_split_from_its_transfer) {
    // Rank 1 enters the all-reduce 300 ns after rank 0; both finish at 1000.
    const std::vector<std::vector<gd::CollectiveKernel>> kernels{{{"AllReduce", 0, 1000}}, {{"AllReduce", 300, 1000}}};
    const auto split = gd::split_collectives({0, 1}, kernels);
    BOOST_REQUIRE(split.size() == 1u);
    BOOST_TEST(split[0].wait_ns[0] == 300);
    BOOST_TEST(split[0].wait_ns[1] == 0);
    BOOST_TEST(split[0].transfer_ns[0] == 700);
    BOOST_TEST(split[0].transfer_ns[1] == 700);
}

BOOST_AUTO_TEST_CASE(overlap_and_busy_time_per_device) {
    auto kernel = [](const char* name, int device, std::uint64_t start, std::uint64_t end) {
        gpuchrono::KernelActivity a;
        a.name = name;
        a.device = device;
        a.start_ns = start;
        a.end_ns = end;
        return a;
    };
    const std::vector<gpuchrono::KernelActivity> a{kernel("gemm", 0, 0, 100), kernel("gemm", 0, 50, 150), kernel("ncclDevKernel_AllReduce_x", 0, 120, 220),
                                                   kernel("gemm", 1, 1000, 1010), kernel("gemm", 1, 1090, 1100)};
    const gd::Overlap o = gd::compute_communication_overlap(a);
    BOOST_TEST(o.communication_ns == 100);
    BOOST_TEST(o.overlapped_ns == 30);
    BOOST_TEST(o.fraction() == 0.3);
    const auto busy = gd::busy_per_device(a);
    BOOST_REQUIRE(busy.size() == 2u);
    BOOST_TEST(busy[0].busy_ns == 220);
    BOOST_TEST(busy[0].span_ns == 220);
    BOOST_TEST(busy[1].busy_ns == 20);
    BOOST_TEST(busy[1].span_ns == 100);
}

BOOST_AUTO_TEST_CASE(bandwidth_as_nccl_tests_defines_it) {
    using gd::Collective;
    // 1 GB in 10 ms over 8 ranks: algbw 100 GB/s.
    const auto ar = gd::collective_bandwidth(Collective::all_reduce, 1'000'000'000, 0.01, 8);
    BOOST_TEST(ar.algbw_bytes_per_second == 100e9, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(ar.busbw_bytes_per_second == 175e9, boost::test_tools::tolerance(1e-12));  // x 2*7/8
    BOOST_TEST(gd::collective_bandwidth(Collective::all_gather, 1'000'000'000, 0.01, 8).busbw_bytes_per_second == 87.5e9,
               boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gd::collective_bandwidth(Collective::reduce_scatter, 1'000'000'000, 0.01, 4).busbw_bytes_per_second == 75e9,
               boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gd::collective_bandwidth(Collective::all_to_all, 1'000'000'000, 0.01, 2).busbw_bytes_per_second == 50e9,
               boost::test_tools::tolerance(1e-12));
    for (const Collective c : {Collective::broadcast, Collective::reduce, Collective::send_recv})
        BOOST_TEST(gd::collective_bandwidth(c, 1'000'000'000, 0.01, 8).busbw_bytes_per_second == 100e9, boost::test_tools::tolerance(1e-12));
    BOOST_TEST((gd::collective_from_string("allreduce") == Collective::all_reduce));
    BOOST_TEST((gd::collective_from_string("Reduce-Scatter") == Collective::reduce_scatter));
    BOOST_TEST(!gd::collective_from_string("step").has_value());
    check_refused<std::invalid_argument>([] { gd::collective_bandwidth(Collective::all_reduce, 1, 0.0, 2); }, "must be > 0 s");
    check_refused<std::invalid_argument>([] { gd::collective_bandwidth(Collective::all_reduce, 1, 1.0, 0); }, ">= 1 rank");
}

BOOST_AUTO_TEST_SUITE_END()
