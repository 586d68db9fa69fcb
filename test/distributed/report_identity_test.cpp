// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Every report says which process wrote it (new_report() + the writers, without a ScopeLog), a scope that
// launched on several devices gives per-device busy time and span, and the merge's memory stays bounded by
// the largest rank, not the job. CPU only: activities are synthetic, with a known truth.
#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gpuchrono/core/device_busy.hpp>
#include <gpuchrono/job/job_merge.hpp>
#include <gpuchrono/report/model/report_section.hpp>
#include "report/render/chrome_trace.hpp"
#include "report/render/device_busy_text.hpp"
#include <gpuchrono/report/render/text_report.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>

#include "synthetic_job.hpp"

#include <gpuchrono/api.hpp>

namespace gd = gpuchrono::distributed;
namespace gr = gpuchrono::report;

namespace {

// The launcher variables identity_from_environment() reads: cleared for a test, restored after it, so that
// the machine's own environment (a CI runner under Slurm) cannot decide the outcome.
const char* const launcher_variables[] = {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_MCA_orte_jobid",
                                          "PMIX_NAMESPACE", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS", "SLURM_JOB_ID", "SLURM_STEP_ID",
                                          "PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE", "PMI_KVSNAME", "RANK", "LOCAL_RANK", "WORLD_SIZE",
                                          "TORCHELASTIC_RUN_ID", "GPUCHRONO_JOB_ID"};

class Environment {
public:
    explicit Environment(std::map<std::string, std::string> set) {
        for (const char* name : launcher_variables) {
            if (const char* v = std::getenv(name)) saved_[name] = v;
            ::unsetenv(name);
        }
        for (const auto& [name, value] : set) ::setenv(name.c_str(), value.c_str(), 1);
    }
    ~Environment() {
        for (const char* name : launcher_variables) ::unsetenv(name);
        for (const auto& [name, value] : saved_) ::setenv(name.c_str(), value.c_str(), 1);
    }
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;

private:
    std::map<std::string, std::string> saved_;
};

std::filesystem::path scratch(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("gpuchrono-report-identity-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

gpuchrono::KernelActivity activity(int device, std::uint32_t stream, std::uint64_t start, std::uint64_t end) {
    gpuchrono::KernelActivity a;
    a.name = "k" + std::to_string(device) + "_" + std::to_string(stream);
    a.device = device;
    a.stream = stream;
    a.start_ns = start;
    a.end_ns = end;
    return a;
}

// One KernelPolicy-like measurement that launched on devices 0 and 1: device 0 busy 100 (two overlapping
// kernels on two streams, 0..60 and 40..100), span 100; device 1 busy 30 of a 230 span (1000..1010,
// 1210..1230). `shift` moves everything on device 1 later by that much.
gpuchrono::Measurement two_device_measurement(std::uint64_t shift) {
    std::vector<gpuchrono::KernelActivity> a{activity(0, 7, 0, 60), activity(0, 8, 40, 100), activity(1, 9, 1000 + shift, 1010 + shift),
                                             activity(1, 9, 1210 + shift, 1230 + shift)};
    auto m = gpuchrono::Measurement::completed("kernel", gpuchrono::Duration::from_ns(130), 0);
    m.set_activities(std::move(a), gpuchrono::Duration::from_ns(static_cast<double>(1230 + shift)));
    return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(distributed_every_report)

BOOST_AUTO_TEST_CASE(new_report_records_the_launchers_identity_and_a_start_anchor) {
    const Environment env({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "8"},
                           {"GPUCHRONO_JOB_ID", "job-42"}});
    const gr::Report r = gr::new_report();
    BOOST_REQUIRE(r.distributed.has_value());
    const gd::RankSection& section = *r.distributed;
    BOOST_TEST(section.identity.rank == 3);
    BOOST_TEST(section.identity.local_rank == 1);
    BOOST_TEST(section.identity.world_size == 8);
    BOOST_TEST(section.identity.job_id == "job-42");
    BOOST_TEST(section.identity.launcher == "openmpi");
    BOOST_TEST(section.identity.pid == static_cast<long>(::getpid()));
    BOOST_TEST(!section.identity.host.empty());
    BOOST_REQUIRE(section.anchors.size() == 1u);
    BOOST_TEST(section.anchors[0].steady_ns <= gd::steady_now_ns());
    BOOST_TEST(section.scopes.empty());
}

BOOST_AUTO_TEST_CASE(each_launcher_is_read_by_new_report_too) {
    const std::vector<std::pair<std::map<std::string, std::string>, std::string>> launchers{
        {{{"SLURM_PROCID", "5"}, {"SLURM_LOCALID", "1"}, {"SLURM_NTASKS", "6"}}, "slurm"},
        {{{"PMI_RANK", "5"}, {"MPI_LOCALRANKID", "1"}, {"PMI_SIZE", "6"}}, "pmi"},
        {{{"RANK", "5"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "6"}}, "torchrun"},
    };
    for (const auto& [vars, launcher] : launchers) {
        const Environment env(vars);
        const gr::Report r = gr::new_report();
        BOOST_REQUIRE(r.distributed.has_value());
        BOOST_TEST(r.distributed->identity.launcher == launcher);
        BOOST_TEST(r.distributed->identity.rank == 5);
        BOOST_TEST(r.distributed->identity.local_rank == 1);
        BOOST_TEST(r.distributed->identity.world_size == 6);
    }
    const Environment none({});
    const gr::Report single = gr::new_report();
    BOOST_REQUIRE(single.distributed.has_value());
    BOOST_TEST(single.distributed->identity.rank == 0);
    BOOST_TEST(single.distributed->identity.world_size == 1);
}

BOOST_AUTO_TEST_CASE(a_launcher_value_that_cannot_be_true_is_said_in_the_notes) {
    const Environment env({{"RANK", "abc"}, {"WORLD_SIZE", "4"}});
    const gr::Report r = gr::new_report();
    BOOST_TEST(!r.distributed.has_value());
    BOOST_REQUIRE(r.notes.size() == 1u);
    BOOST_TEST(r.notes[0].find("RANK") != std::string::npos, r.notes[0]);
    BOOST_TEST(r.notes[0].find("not recorded") != std::string::npos, r.notes[0]);
}

BOOST_AUTO_TEST_CASE(writing_adds_the_end_anchor_and_the_devices_and_reading_keeps_them) {
    const Environment env({{"RANK", "1"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "2"}});
    gr::Report r = gr::new_report();
    gr::Experiment e;
    e.id = "two-devices";
    gpuchrono::Series series("scope");
    series.add(two_device_measurement(0));
    e.series.push_back(gr::make_series(series));
    r.experiments.push_back(std::move(e));

    const gr::Report back = gr::report_from_json(gr::to_json(r));
    BOOST_REQUIRE(back.distributed.has_value());
    BOOST_TEST((back.distributed->identity == r.distributed->identity));
    BOOST_REQUIRE(back.distributed->anchors.size() == 2u);
    BOOST_TEST((back.distributed->anchors[0] == r.distributed->anchors[0]));
    BOOST_TEST(back.distributed->anchors[1].steady_ns >= back.distributed->anchors[0].steady_ns);
    BOOST_TEST(back.distributed->anchors[1].system_ns >= back.distributed->anchors[0].system_ns);
    // Devices 0 and 1 are named: identified (a CUDA machine) or, where no device can be described (here),
    // each said in the notes. Never silently absent.
    for (const int d : {0, 1}) {
        const bool identified = std::any_of(back.distributed->devices.begin(), back.distributed->devices.end(),
                                            [&](const gd::DeviceIdentity& x) { return x.index == d && x.uuid.rfind("GPU-", 0) == 0; });
        const bool noted = std::any_of(back.notes.begin(), back.notes.end(), [&](const std::string& n) {
            return n.rfind("device " + std::to_string(d) + " is not identified", 0) == 0;
        });
        BOOST_TEST(identified != noted, "device " << d << ": identified " << identified << ", noted " << noted);
    }
    // The report in memory is not changed by writing it; a file read back is written as it was read.
    BOOST_TEST(r.distributed->anchors.size() == 1u);
    BOOST_TEST(gr::to_json(back) == gr::to_json(gr::report_from_json(gr::to_json(back))));
}

BOOST_AUTO_TEST_CASE(a_scope_logs_section_is_written_as_it_is) {
    gd::RankSection s = gd::start_rank_section({"h", 7, 0, 0, 1, "", "manual"}, false);
    s.anchors.push_back(gd::take_clock_anchor(false));
    gr::Report r;
    r.device.index = 3;
    r.distributed = s;
    std::vector<std::string> notes;
    const auto out = gd::finished_report_section(r, notes);
    BOOST_REQUIRE(out.has_value());
    BOOST_TEST((*out == s));
    BOOST_TEST(notes.empty());
    BOOST_TEST((gd::devices_of(r) == std::vector<int>{3}));
}

BOOST_AUTO_TEST_CASE(reports_written_without_a_scope_log_merge_as_one_job) {
    const auto dir = scratch("plain-ranks");
    std::vector<std::filesystem::path> files;
    for (int rank : {1, 0}) {
        const Environment env({{"RANK", std::to_string(rank)}, {"WORLD_SIZE", "2"}, {"GPUCHRONO_JOB_ID", "plain"}});
        gr::Report r = gr::new_report();
        files.push_back(dir / ("rank" + std::to_string(rank) + ".json"));
        gr::save_report(r, files.back());
    }
    const gd::MergedJob job = gd::merge_rank_reports(files);
    BOOST_TEST(job.job_id == "plain");
    BOOST_REQUIRE(job.ranks.size() == 2u);
    BOOST_TEST(job.ranks[0].identity.rank == 0);
    BOOST_TEST(job.ranks[1].identity.rank == 1);
    BOOST_TEST(job.ranks[0].identity.pid == static_cast<long>(::getpid()));
    // one host, the system clock: the bound is the anchors' read width, far below a millisecond
    BOOST_TEST(job.alignment_error_ns < 1e6);
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(old_files_without_series_devices_still_read) {
    const std::string old = R"({"schema":"gpuchrono-report","schema_version":1,"generator":"gpuchrono 0.1.0","created_utc":"","host":"h",
        "experiments":[{"id":"x","series":[{"name":"s","policy":"event","samples_ns":[1,2,3]}]}]})";
    const gr::Report r = gr::report_from_json(old);
    BOOST_TEST(!r.distributed.has_value());
    BOOST_REQUIRE(r.experiments.at(0).series.size() == 1u);
    BOOST_TEST(r.experiments[0].series[0].devices.empty());
    BOOST_TEST(r.experiments[0].series[0].device_busy.empty());
    const std::string bad = R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"id":"x","series":[{"name":"s",
        "device_busy":[{"device":0,"busy_ns":50,"span_ns":10}]}]}]})";
    try {
        (void)gr::report_from_json(bad);
        BOOST_ERROR("a busy time above its span was accepted");
    } catch (const gr::ReportError& e) {
        BOOST_TEST(std::string(e.what()).find("device_busy[0]") != std::string::npos, e.what());
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(distributed_several_devices)

BOOST_AUTO_TEST_CASE(a_measurement_gives_busy_time_and_span_per_device) {
    const auto busy = two_device_measurement(0).device_busy();
    BOOST_REQUIRE(busy.size() == 2u);
    BOOST_TEST(busy[0].device == 0);
    BOOST_TEST(busy[0].busy_ns == 100);  // 0..60 and 40..100 on two streams: their union, not 120
    BOOST_TEST(busy[0].span_ns == 100);
    BOOST_TEST(busy[0].activities == 2u);
    BOOST_TEST(busy[1].device == 1);
    BOOST_TEST(busy[1].busy_ns == 30);
    BOOST_TEST(busy[1].span_ns == 230);
    BOOST_TEST(gpuchrono::Measurement::completed("host-clock", gpuchrono::Duration::from_ns(5), -1).device_busy().empty());
}

BOOST_AUTO_TEST_CASE(a_series_carries_its_devices_and_the_median_per_device_through_json) {
    gpuchrono::Series series("two devices");
    // device 1's kernels 0, 500 and 2000 ns later: span stays 230, busy 30; device 0 unchanged
    for (const std::uint64_t shift : {0u, 500u, 2000u}) series.add(two_device_measurement(shift));
    // one sample widened on device 1: its gap grows by 1000 (span 1230), the median stays 230
    {
        std::vector<gpuchrono::KernelActivity> a{activity(0, 7, 0, 100), activity(1, 9, 1000, 1010), activity(1, 9, 2210, 2230)};
        auto m = gpuchrono::Measurement::completed("kernel", gpuchrono::Duration::from_ns(130), 0);
        m.set_activities(std::move(a), gpuchrono::Duration::from_ns(2230));
        series.add(std::move(m));
    }
    const gr::SampleSeries s = gr::make_series(series);
    BOOST_TEST((s.devices == std::vector<int>{0, 1}));
    BOOST_REQUIRE(s.device_busy.size() == 2u);
    BOOST_TEST(s.device_busy[0].busy_ns == 100);
    BOOST_TEST(s.device_busy[0].span_ns == 100);
    BOOST_TEST(s.device_busy[0].activities == 7u);
    BOOST_TEST(s.device_busy[1].busy_ns == 30);
    BOOST_TEST(s.device_busy[1].span_ns == 230);
    BOOST_TEST(s.device_busy[1].activities == 8u);

    gr::Report r;
    gr::Experiment e;
    e.id = "x";
    e.series.push_back(s);
    r.experiments.push_back(e);
    const gr::Report back = gr::report_from_json(gr::to_json(r));
    const gr::SampleSeries& b = back.experiments.at(0).series.at(0);
    BOOST_TEST((b.devices == s.devices));
    BOOST_TEST((b.device_busy == s.device_busy));

    // report.txt shows them too: one row per device, busy as a share of the span (30 of 230 ns: 13.0%).
    const std::string text = gr::render_experiment_text(e);
    BOOST_TEST(text.find("Busy time per device") != std::string::npos);
    const std::string rows = gr::render_device_busy_text(e, "");
    BOOST_TEST(rows.find("100.0%") != std::string::npos, rows);
    BOOST_TEST(rows.find("13.0%") != std::string::npos, rows);
    BOOST_TEST(std::count(rows.begin(), rows.end(), '\n') == 4);  // header, rule, two devices
}

BOOST_AUTO_TEST_CASE(the_trace_has_a_process_per_device_and_a_track_per_stream) {
    gr::Report r;
    gr::Experiment e;
    e.id = "x";
    e.activities = two_device_measurement(0).activities();
    e.activities.push_back(activity(1, 10, 1100, 1150));
    r.experiments.push_back(e);
    const nlohmann::json trace = nlohmann::json::parse(gr::render_chrome_trace(r));
    std::set<int> processes;
    std::set<std::pair<int, int>> tracks;
    std::size_t slices = 0;
    for (const auto& ev : trace.at("traceEvents")) {
        if (ev.value("ph", "") == "M" && ev.value("name", "") == "process_name") processes.insert(ev.at("pid").get<int>());
        if (ev.value("ph", "") == "M" && ev.value("name", "") == "thread_name") tracks.insert({ev.at("pid").get<int>(), ev.at("tid").get<int>()});
        if (ev.value("ph", "") == "X") ++slices;
    }
    const int p0 = gr::chrome_trace_activity_pid, p1 = gr::chrome_trace_activity_pid + 1;
    BOOST_TEST((processes == std::set<int>{p0, p1}));
    BOOST_TEST((tracks == std::set<std::pair<int, int>>{{p0, 7}, {p0, 8}, {p1, 9}, {p1, 10}}));
    BOOST_TEST(slices == 5u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(distributed_merge_scale)

// The merge's memory bound: each reading thread holds one rank's activities at a time (reduced to spill
// records before it reads another) and the merge keeps only the NCCL kernels (10% of the synthetic ones)
// across ranks. Ranks of different sizes show which: a thread's peak is the largest rank's count, not the
// job's sum, and every activity still reaches the trace.
BOOST_AUTO_TEST_CASE(the_merge_holds_one_ranks_activities_at_a_time) {
    const auto dir = scratch("scale");
    synthetic::JobShape j;
    j.world_size = 6;
    const std::vector<std::size_t> sizes{200, 1000, 50, 3000, 10, 700};
    std::vector<std::filesystem::path> files;
    std::uint64_t total = 0, nccl = 0;
    for (int r = 0; r < j.world_size; ++r) {
        j.activities_per_rank = sizes[static_cast<std::size_t>(r)];
        total += j.activities_per_rank;
        nccl += j.activities_per_rank / 10;  // every 10th synthetic kernel is an NCCL all-reduce
        files.push_back(dir / ("rank" + std::to_string(r) + ".json"));
        gr::save_report(synthetic::rank_report(j, r, {r * 1000, 0.0}), files.back());
    }
    const gd::MergedJob job = gd::merge_rank_reports(files, {dir / "trace.json"});
    BOOST_TEST(job.peak_activities_held == 3000u);
    BOOST_TEST(job.reader_threads >= 1u);
    BOOST_TEST(job.reader_threads <= 4u);
    BOOST_TEST(job.nccl_kernels_kept == nccl);
    std::uint64_t merged = 0;
    for (const auto& rank : job.ranks) merged += rank.activities;
    BOOST_TEST(merged == total);
    std::ifstream in(dir / "trace.json");
    const nlohmann::json trace = nlohmann::json::parse(in);
    std::uint64_t kernels = 0;
    for (const auto& ev : trace.at("traceEvents"))
        if (ev.value("ph", "") == "X" && ev.value("cat", "") == "kernel") ++kernels;
    BOOST_TEST(kernels == total);
    BOOST_TEST(!std::filesystem::exists(dir / "trace.json.spill"));
    std::filesystem::remove_all(dir);
}

// test/data/merged-job holds this job's merge as a one-thread merge reading with nlohmann-json wrote it: reading
// ranks on several threads, with another parser, and writing the trace from a buffer must not change a byte of
// the trace nor a field of job.json (whose "file" members are compared by file name: the folder is scratch).
// The files are given in reverse rank order, so admission order and rank order differ.
BOOST_AUTO_TEST_CASE(a_synthetic_job_merges_to_the_reference_trace_and_job) {
    const auto dir = scratch("reference");
    synthetic::JobShape shape;
    shape.world_size = 4;
    shape.activities_per_rank = 30;
    shape.late_rank = 2;
    shape.late_steps = {3};
    shape.delay_ns = 20'000'000;
    shape.kernel_per_step = true;
    std::vector<std::filesystem::path> files;
    for (int r = shape.world_size - 1; r >= 0; --r) {
        const synthetic::RankClock clock{(r % 7) * 1'000'000 - 3'000'000, ((r % 5) - 2) * 10e-6};
        files.push_back(dir / ("rank" + std::to_string(r) + ".json"));
        gr::save_report(synthetic::rank_report(shape, r, clock), files.back());
    }
    const gd::MergedJob job = gd::merge_rank_reports(files, {dir / "trace.json"});
    gd::save_job(job, dir / "job.json");
    const auto text = [](const std::filesystem::path& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    };
    const std::filesystem::path reference = std::filesystem::path(GPUCHRONO_TEST_DATA_DIR) / "merged-job";
    const std::string trace = text(dir / "trace.json"), expected_trace = text(reference / "trace.json");
    BOOST_REQUIRE(!expected_trace.empty());
    BOOST_TEST(trace.size() == expected_trace.size());
    BOOST_TEST((trace == expected_trace), "the trace differs from test/data/merged-job/trace.json");
    nlohmann::json merged = nlohmann::json::parse(text(dir / "job.json"));
    for (auto& rank : merged.at("ranks")) rank["file"] = std::filesystem::path(rank.at("file").get<std::string>()).filename().string();
    const nlohmann::json expected_job = nlohmann::json::parse(text(reference / "job.json"));
    BOOST_TEST((merged == expected_job), "job.json differs from test/data/merged-job/job.json:\n" << nlohmann::json::diff(expected_job, merged).dump(1));
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(distributed_streamed_activities)

// The merge's reader hands activities out as they are read: the same records as load_report's, in file
// order, the report left without them, and a bad activity refused with its path counted as if it had stayed.
BOOST_AUTO_TEST_CASE(streamed_activities_equal_the_loaded_ones_and_errors_name_the_member) {
    const auto dir = scratch("stream");
    synthetic::JobShape j;
    j.activities_per_rank = 25;
    j.kernel_per_step = true;
    gr::Report r = synthetic::rank_report(j, 1, {0, 0.0});
    gr::Experiment second;
    second.id = "second";
    second.activities = {activity(1, 3, 10, 20)};
    r.experiments.push_back(second);
    gr::save_report(r, dir / "rank.json");

    const gr::Report loaded = gr::load_report(dir / "rank.json");
    std::vector<gpuchrono::KernelActivity> streamed;
    const gr::Report rest = gr::load_report_streaming_activities(dir / "rank.json", [&](gpuchrono::KernelActivity&& a) { streamed.push_back(std::move(a)); });
    std::vector<gpuchrono::KernelActivity> expected;
    for (const auto& e : loaded.experiments) expected.insert(expected.end(), e.activities.begin(), e.activities.end());
    BOOST_TEST(expected.size() == 25u + 10u + 1u);
    BOOST_TEST((streamed == expected));
    BOOST_REQUIRE(rest.experiments.size() == 2u);
    BOOST_TEST(rest.experiments[0].activities.empty());
    BOOST_TEST(rest.experiments[1].activities.empty());
    BOOST_TEST(rest.experiments[1].id == "second");
    BOOST_TEST((rest.distributed == loaded.distributed));

    // The 4th activity's start_ns made a string: refused naming experiments[0].activities[3], though the first
    // three were already handed out and dropped.
    nlohmann::ordered_json doc;
    {
        std::ifstream in(dir / "rank.json");
        doc = nlohmann::ordered_json::parse(in);
    }
    doc["experiments"][0]["activities"][3]["start_ns"] = "soon";
    std::ofstream(dir / "bad.json") << doc.dump();
    try {
        gr::load_report_streaming_activities(dir / "bad.json", [](gpuchrono::KernelActivity&&) {});
        BOOST_ERROR("a string start_ns was accepted");
    } catch (const gr::ReportError& e) {
        BOOST_TEST(std::string(e.what()).find("bad.json: experiments[0].activities[3].start_ns") != std::string::npos, e.what());
    }
    std::filesystem::remove_all(dir);
}

// Activities of every shape the strict reader takes, not only the one the writer makes: members it ignores,
// nulls, integral floats, a negative device, names with escapes and non-ASCII text, members in another order.
// Streamed, each arrives once and equals load_report's, whichever parser read it; a member named twice midway
// is refused with its path after the activities before it were handed out, none of them twice.
BOOST_AUTO_TEST_CASE(streamed_activities_of_any_accepted_shape_arrive_once_and_equal_the_loaded_ones) {
    const auto dir = scratch("stream-shapes");
    synthetic::JobShape j;
    j.activities_per_rank = 40;
    gr::save_report(synthetic::rank_report(j, 0, {0, 0.0}), dir / "rank.json");
    nlohmann::ordered_json doc;
    {
        std::ifstream in(dir / "rank.json");
        doc = nlohmann::ordered_json::parse(in);
    }
    auto& activities = doc["experiments"][0]["activities"];
    activities[5]["comment"] = "a member no reader knows";
    activities[9]["graph_id"] = nullptr;
    activities[12]["bytes"] = 4096.0;
    activities[15]["device"] = -3;
    activities[18]["name"] = "kernel<\"quoted\">\t\u00e9 \u6838";
    activities[21] = nlohmann::ordered_json{{"end_ns", activities[21]["end_ns"]}, {"start_ns", activities[21]["start_ns"]}, {"kind", "memcpy"}};
    activities[30]["grid"] = nlohmann::ordered_json::array({1, 2});
    std::ofstream(dir / "shapes.json") << doc.dump(1);

    const gr::Report loaded = gr::load_report(dir / "shapes.json");
    std::vector<gpuchrono::KernelActivity> streamed;
    gr::load_report_streaming_activities(dir / "shapes.json", [&](gpuchrono::KernelActivity&& a) { streamed.push_back(std::move(a)); });
    BOOST_REQUIRE(loaded.experiments.size() == 1u);
    BOOST_TEST(loaded.experiments[0].activities.size() == 40u);
    BOOST_TEST((streamed == loaded.experiments[0].activities));
    BOOST_TEST(streamed.at(15).device == -3);
    BOOST_TEST(streamed.at(12).bytes == 4096u);
    BOOST_TEST((streamed.at(21).kind == gpuchrono::ActivityKind::memcpy));

    // "stream" twice in the 26th activity (the 25th with a stream: the 22nd has none): the text is written by
    // hand, as nlohmann keeps one of two members.
    std::string text = doc.dump(1);
    std::size_t at = 0;
    for (int k = 0; k < 25; ++k) at = text.find("\"stream\":", at + 1);
    text.insert(at, "\"stream\": 1,");
    std::ofstream(dir / "twice.json") << text;
    std::size_t handed_out = 0;
    try {
        gr::load_report_streaming_activities(dir / "twice.json", [&](gpuchrono::KernelActivity&&) { ++handed_out; });
        BOOST_ERROR("a member named twice was accepted");
    } catch (const gr::ReportError& e) {
        BOOST_TEST(std::string(e.what()).find("experiments[0].activities[25].stream: the member \"stream\" appears twice") != std::string::npos, e.what());
    }
    BOOST_TEST(handed_out == 25u);

    // A NUL byte and more after the document: nlohmann's reader ends the text at the NUL, and so does the
    // streamed reading, whichever parser read it.
    std::ofstream(dir / "nul.json", std::ios::binary) << doc.dump(1) << std::string(1, '\0') << "}";
    std::vector<gpuchrono::KernelActivity> after_nul;
    gr::load_report_streaming_activities(dir / "nul.json", [&](gpuchrono::KernelActivity&& a) { after_nul.push_back(std::move(a)); });
    BOOST_TEST((after_nul == gr::load_report(dir / "nul.json").experiments.at(0).activities));
    BOOST_TEST(after_nul.size() == 40u);
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
