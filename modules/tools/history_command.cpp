// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono history: the performance history of a project's benchmarks (docs/history.md).
//
//     gpuchrono history add REPORT|FOLDER... [--commit SHA] [--branch B]   keep runs, filed under their commit
//     gpuchrono history check [--latest | --since REF]                      the CI gate: exit 1 on a regression
//     gpuchrono history show SERIES                                         a series as a table and a sparkline
//     gpuchrono history page OUT/ [--commit-url URL]                        OUT/index.html: trends and changes
//     gpuchrono history export --format csv|bmf|asv|pytest-benchmark [--commit SHA]   in other tools' formats
//     gpuchrono history bisect --series S --good REF [--report FILE] -- COMMAND...   a `git bisect run` step
//     gpuchrono history alias EXPERIMENT/OLD NEW                            a renamed series keeps its history
//     gpuchrono history series                                              the series kept
// Every subcommand takes --db PATH|postgresql://... (default: GPUCHRONO_HISTORY, else .gpuchrono/history.db).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"

#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

#if GPUCHRONO_WITH_HISTORY
#include "history/bisect.hpp"
#include "history/check.hpp"
#include "history/export.hpp"
#include "history/history_page.hpp"
#include "history/ingest.hpp"
#include "history/show.hpp"
#include "history/store.hpp"

namespace {

using namespace gpuchrono::history;

int usage(std::FILE* to) {
    std::fputs("usage: gpuchrono history COMMAND ... [--db PATH|postgresql://...]\n"
               "  add REPORT|FOLDER... [--commit SHA] [--branch B]  keeps the runs of reports (gpuchrono's, pytest-benchmark's,\n"
               "                                                    Google Benchmark's JSON, asv's results) under their commit\n"
               "                                                    (default: git HEAD), all in one transaction\n"
               "  check [--latest | --since REF]                    exit 1 on a regression the newest commit(s) brought,\n"
               "                                                    0 on none, 2 when it cannot judge\n"
               "  show SERIES                                       a series (EXPERIMENT/NAME or NAME) as a table and a sparkline\n"
               "  page OUT/ [--commit-url URL]                      OUT/index.html: a trend per series, its CI band and changes\n"
               "                                                    (URL: a commit's address with {hash} in it)\n"
               "  export --format csv|bmf|asv|pytest-benchmark      every run as CSV, or one commit's (--commit SHA, default:\n"
               "         [--commit SHA]                             the newest) as BMF, asv results or pytest-benchmark JSON,\n"
               "                                                    to standard output\n"
               "  bisect --series S --good REF [--report FILE]      for `git bisect run`: runs COMMAND (it writes FILE, default\n"
               "         [--threshold T] -- COMMAND...              report.json), compares series S with the good commit's runs\n"
               "                                                    on this machine: exit 0 good, 1 slower, 125 cannot judge\n"
               "  alias EXPERIMENT/OLD NEW                          reads the old name of a renamed series as the new one\n"
               "  series                                            the series the history keeps\n"
               "The database: --db, else GPUCHRONO_HISTORY, else .gpuchrono/history.db (SQLite).\n",
               to);
    return to == stdout ? 0 : 2;
}

struct Arguments {
    std::string db = default_store_location();
    std::string commit, branch, since, commit_url, format, series, good, report = "report.json";
    double threshold = 0.01;
    bool latest = false;
    std::vector<std::string> positional;
    std::vector<std::string> command;  // after "--": what bisect runs
};

Arguments parse(int argc, char** argv) {
    Arguments a;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const auto value = [&](const char* name) -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(std::string(name) + " needs a value");
            return argv[++i];
        };
        if (arg == "--") {
            for (++i; i < argc; ++i) a.command.emplace_back(argv[i]);
            break;
        }
        if (arg == "--db") a.db = value("--db");
        else if (arg == "--series") a.series = value("--series");
        else if (arg == "--good") a.good = value("--good");
        else if (arg == "--report") a.report = value("--report");
        else if (arg == "--threshold") {
            const std::string text = value("--threshold");
            char* end = nullptr;
            a.threshold = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !(a.threshold >= 0) || a.threshold > 10)
                throw std::invalid_argument("--threshold needs a relative change such as 0.02 (2%), not '" + text + "'");
        }
        else if (arg == "--commit") a.commit = value("--commit");
        else if (arg == "--branch") a.branch = value("--branch");
        else if (arg == "--since") a.since = value("--since");
        else if (arg == "--commit-url") a.commit_url = value("--commit-url");
        else if (arg == "--format") a.format = value("--format");
        else if (arg == "--latest") a.latest = true;
        else if (arg.starts_with("--")) throw std::invalid_argument("unknown option " + std::string(arg));
        else a.positional.emplace_back(arg);
    }
    if (a.latest && !a.since.empty()) throw std::invalid_argument("--latest and --since exclude each other");
    return a;
}

int add(const Arguments& a) {
    if (a.positional.empty()) throw std::invalid_argument("add needs a report file or folder");
    // Every file read before anything is written: a bad one among them leaves the history as it was.
    std::vector<RunRecord> runs;
    for (const auto& given : a.positional)
        for (const auto& file : report_files(given)) runs.push_back(read_run(file, {a.commit, a.branch}));
    // One transaction for them all: a run the store refuses (a unit that changed) leaves none of them written.
    auto store = open_store(a.db);
    store->add_all(runs);
    for (const auto& run : runs) {
        std::printf("added %s: %zu series at commit %s to %s\n", run.report_path.c_str(), run.points.size(),
                    run.commit.hash.substr(0, 12).c_str(), store->location().c_str());
    }
    return 0;
}

int check(const Arguments& a) {
    auto store = open_store(a.db);
    CheckOptions options;
    options.since = a.since;
    // A branch or tag names its commit through git, where the command runs in the repository.
    if (!a.since.empty())
        if (const auto c = commit_from_git(".", a.since)) options.since = c->hash;
    const CheckResult r = check_history(*store, options);
    for (const auto& alert : r.regressions) std::printf("REGRESSION %s\n", alert.sentence.c_str());
    for (const auto& alert : r.improvements) std::printf("improvement %s\n", alert.sentence.c_str());
    for (const auto& alert : r.new_baselines) std::printf("new baseline %s\n", alert.sentence.c_str());
    for (const auto& line : r.not_judged) std::printf("not judged %s\n", line.c_str());
    std::printf("history check: %s\n", r.summary.c_str());
    return r.exit_code();
}

int show(const Arguments& a) {
    if (a.positional.size() != 1) throw std::invalid_argument("show needs one series (EXPERIMENT/NAME or NAME)");
    auto store = open_store(a.db);
    const auto series = store->find_series(a.positional[0]);
    if (!series) throw HistoryError("the history " + store->location() + " has no series '" + a.positional[0] + "'");
    const auto points = store->points(series->id);
    const auto detector = detector_points(points);
    std::vector<ChangePoint> changes;
    try {
        changes = detect_changes(detector);
    } catch (const std::invalid_argument& e) {
        throw HistoryError("series " + series_label(*series) + ": " + e.what());
    }
    std::fputs(render_series(*series, points, changes).c_str(), stdout);
    return 0;
}

int page(const Arguments& a) {
    if (a.positional.size() != 1) throw std::invalid_argument("page needs one folder to write index.html into");
    auto store = open_store(a.db);
    PageOptions options;
    options.commit_url = a.commit_url;
    const auto file = write_history_page(*store, a.positional[0], options);
    std::printf("wrote %s\n", file.string().c_str());
    return 0;
}

int export_history(const Arguments& a) {
    if (a.format != "csv" && a.format != "bmf" && a.format != "asv" && a.format != "pytest-benchmark")
        throw std::invalid_argument("export needs --format csv, bmf, asv or pytest-benchmark" +
                                    (a.format.empty() ? std::string() : ", not '" + a.format + "'"));
    auto store = open_store(a.db);
    const std::string text = a.format == "csv" ? export_csv(*store)
        : a.format == "bmf"                    ? export_bmf(*store, a.commit)
        : a.format == "asv"                    ? export_asv(*store, a.commit)
                                               : export_pytest_benchmark(*store, a.commit);
    std::fputs(text.c_str(), stdout);
    return 0;
}

// The command's exit status, or why it did not run (no shell between: its arguments are passed as given).
int run_command(const std::vector<std::string>& command, std::string& why_not) {
    std::vector<std::string> args = command;
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    if (const int error = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ); error != 0) {
        why_not = "cannot start '" + command[0] + "': " + std::strerror(error);
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    if (WIFSIGNALED(status)) {
        why_not = "'" + command[0] + "' was ended by signal " + std::to_string(WTERMSIG(status));
        return -1;
    }
    return WEXITSTATUS(status);
}

// Exit codes for `git bisect run`: 0 good, 1 bad, 125 skip this commit; 128 stops the bisect (a mistake in its
// setup that every commit would meet).
constexpr int bisect_abort = 128;

int bisect(const Arguments& a) {
    const auto stop = [](const std::string& why) {
        std::fprintf(stderr, "gpuchrono history bisect: %s (stopping the bisect)\n", why.c_str());
        return bisect_abort;
    };
    if (a.series.empty() || a.good.empty() || a.command.empty())
        return stop("needs --series NAME, --good REF and, after --, the command that writes the report");
    std::unique_ptr<Store> store;
    BisectOptions options;
    options.series = a.series;
    options.threshold = a.threshold;
    options.good = a.good;
    // A branch or tag names its commit through git, where the command runs in the repository.
    if (const auto c = commit_from_git(".", a.good)) options.good = c->hash;
    try {
        store = open_store(a.db);
        if (!store->find_series(a.series)) return stop("the history " + store->location() + " has no series '" + a.series + "'");
    } catch (const std::exception& e) {
        return stop(e.what());
    }
    const std::filesystem::path report = a.report;
    std::error_code ec;
    const bool existed = std::filesystem::exists(report, ec);
    const auto written_before = existed ? std::filesystem::last_write_time(report, ec) : std::filesystem::file_time_type{};
    std::string why_not;
    const int status = run_command(a.command, why_not);
    if (status < 0) return stop(why_not);
    if (status != 0) {
        std::printf("history bisect: cannot judge this commit: '%s' exited with %d (a build or run that fails is "
                    "skipped)\n", a.command[0].c_str(), status);
        return 125;
    }
    if (!std::filesystem::exists(report, ec) || (existed && std::filesystem::last_write_time(report, ec) == written_before)) {
        std::printf("history bisect: cannot judge this commit: '%s' wrote no new %s (give the report's path with "
                    "--report)\n", a.command[0].c_str(), report.string().c_str());
        return 125;
    }
    RunRecord measured;
    try {
        // The commit under test is not stored: a label spares asking git about it.
        measured = read_run(report, {"bisect-candidate", ""});
    } catch (const HistoryError& e) {
        std::printf("history bisect: cannot judge this commit: %s\n", e.what());
        return 125;
    }
    BisectResult r;
    try {
        r = judge_against_good(*store, measured, options);
    } catch (const HistoryError& e) {
        return stop(e.what());
    }
    std::printf("history bisect: %s\n", r.sentence.c_str());
    return r.exit_code();
}

int alias(const Arguments& a) {
    if (a.positional.size() != 2) throw std::invalid_argument("alias needs EXPERIMENT/OLD and NEW");
    const auto slash = a.positional[0].find('/');
    if (slash == std::string::npos) throw std::invalid_argument("alias: name the old series as EXPERIMENT/OLD");
    auto store = open_store(a.db);
    const std::string experiment = a.positional[0].substr(0, slash);
    store->add_alias(experiment, a.positional[0].substr(slash + 1), a.positional[1]);
    std::printf("%s is read as %s/%s from now on\n", a.positional[0].c_str(), experiment.c_str(), a.positional[1].c_str());
    return 0;
}

int list(const Arguments& a) {
    auto store = open_store(a.db);
    for (const auto& s : store->series()) std::printf("%s (%s)\n", series_label(s).c_str(), s.unit.c_str());
    return 0;
}

}  // namespace

int history_main(int argc, char** argv) {
    if (argc < 2) return usage(stderr);
    const std::string_view command = argv[1];
    if (command == "-h" || command == "--help" || command == "help") return usage(stdout);
    try {
        const Arguments a = parse(argc, argv);
        if (command == "add") return add(a);
        if (command == "check") return check(a);
        if (command == "show") return show(a);
        if (command == "page") return page(a);
        if (command == "export") return export_history(a);
        if (command == "alias") return alias(a);
        if (command == "bisect") return bisect(a);
        if (command == "series") return list(a);
        std::fprintf(stderr, "gpuchrono history: unknown command '%s'\n", argv[1]);
        return usage(stderr);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuchrono history %s: %s\n", argv[1], e.what());
        // Under `git bisect run` an exit of 2 would mark the commit bad: a mistake in the command stops the bisect.
        return command == "bisect" ? 128 : 2;
    }
}
#else
int history_main(int, char**) {
    std::fputs("gpuchrono history: this gpuchrono was built without the performance history: install SQLite's "
               "development files (Debian: libsqlite3-dev) and configure with -DGPUCHRONO_BUILD_HISTORY=ON\n",
               stderr);
    return 2;
}
#endif
