// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One report file into one run: its format recognised from its content, its commit from the caller, the report
// or git. The readers of each format are in their own files (report_run.cpp, job_run.cpp, pytest_benchmark_run.cpp,
// google_benchmark_run.cpp).
#include "history/run_formats.hpp"

#include "history/ingest.hpp"
#include "history/store.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

namespace gpuchrono::history {
namespace {

// Larger than any report gpuchrono or the benchmark tools write with their samples; refused before reading.
constexpr std::uintmax_t max_file_bytes = std::uintmax_t{1} << 30;

std::string read_text(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw HistoryError(file.string() + ": no such report file");
    if (std::filesystem::file_size(file, ec) > max_file_bytes)
        throw HistoryError(file.string() + ": larger than 1 GiB, not a report");
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) throw HistoryError(file.string() + ": cannot be read");
    if (text.str().empty()) throw HistoryError(file.string() + ": empty (an interrupted write?)");
    return std::move(text).str();
}

// Python's json module (asv, pytest-benchmark) writes NaN, Infinity and -Infinity, which JSON does not have:
// outside strings they are read as null, the library's way of writing a figure that is not finite.
std::string python_non_finite_as_null(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) out += text[++i];
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        bool replaced = false;
        for (const std::string_view token : {"-Infinity", "Infinity", "NaN"})
            if (text.compare(i, token.size(), token) == 0) {
                out += "null";
                i += token.size() - 1;
                replaced = true;
                break;
            }
        if (!replaced) out += c;
    }
    return out;
}

json::Json parse(const std::filesystem::path& file, const std::string& text) {
    try {
        return json::Json::parse(text);
    } catch (const json::Json::parse_error& e) {
        if (text.find("Infinity") != std::string::npos || text.find("NaN") != std::string::npos) {
            try {
                return json::Json::parse(python_non_finite_as_null(text));
            } catch (const json::Json::parse_error&) {
                // Not that: the first error is the one to report.
            }
        }
        const bool at_end = e.byte >= text.size();
        throw HistoryError(file.string() + ": not valid JSON at byte " + std::to_string(e.byte) +
                           (at_end ? " (the file ends early: truncated?)" : ""));
    }
}

void check_points(const RunRecord& run) {
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& p : run.points) {
        if (!seen.insert({p.experiment, p.series}).second)
            throw HistoryError(run.report_path + ": series '" + p.series + "' of experiment '" + p.experiment +
                               "' appears twice");
        if (!std::isfinite(p.median))
            throw HistoryError(run.report_path + ": series '" + p.series + "' of experiment '" + p.experiment +
                               "' has no median (no successful sample)");
    }
    if (run.points.empty()) throw HistoryError(run.report_path + ": holds no series with a median to keep");
}

}  // namespace

RunRecord read_run(const std::filesystem::path& file, const IngestOptions& options) {
    const std::string text = read_text(file);
    const json::Json document = parse(file, text);
    RunRecord run;
    try {
        if (!document.is_object()) json::fail("", std::string("expected an object, found ") + document.type_name());
        const std::string schema = document.contains("schema") && document["schema"].is_string()
            ? document["schema"].get<std::string>() : "";
        if (schema == "gpuchrono-report") run = run_from_report(text);
        else if (schema == "gpuchrono-job") run = run_from_job(document);
        else if (document.contains("machine_info") && document.contains("benchmarks")) run = run_from_pytest_benchmark(document);
        else if (document.contains("context") && document.contains("benchmarks")) run = run_from_google_benchmark(document);
        else if (is_asv_results(document)) run = run_from_asv(document);
        else
            throw HistoryError(file.string() + ": not a report the history reads (a gpuchrono report or job, the JSON "
                               "of pytest-benchmark or Google Benchmark, or an asv results file)");
    } catch (const json::ReadError& e) {
        throw HistoryError(file.string() + ": " + e.what());
    } catch (const report::ReportError& e) {
        throw HistoryError(file.string() + ": " + e.what());
    }
    run.report_path = file.string();
    check_points(run);

    // The commit: as given (completed by git where git knows it), else the report's own, else git's HEAD.
    const auto folder = std::filesystem::absolute(file).parent_path();
    if (!options.commit.empty()) {
        if (auto c = commit_from_git(folder, options.commit)) run.commit = *c;
        else run.commit = CommitInfo{options.commit, {}, {}, {}, std::nullopt};
    } else if (run.commit.hash.empty()) {
        auto c = commit_from_git(folder, "HEAD");
        if (!c)
            throw HistoryError(file.string() + ": no commit to file it under: its folder is not in a git repository "
                               "(or git is not installed); give one with --commit SHA");
        run.commit = *c;
    }
    if (!options.branch.empty()) run.commit.branch = options.branch;
    return run;
}

std::vector<std::filesystem::path> report_files(const std::filesystem::path& file_or_folder) {
    std::error_code ec;
    if (!std::filesystem::is_directory(file_or_folder, ec)) return {file_or_folder};
    std::vector<std::filesystem::path> found;
    for (auto it = std::filesystem::recursive_directory_iterator(file_or_folder, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        const auto name = it->path().filename();
        if (!it->is_regular_file()) continue;
        // asv keeps a machine's results beside its machine.json, one file per commit and environment.
        const bool asv_results = it->path().extension() == ".json" && name != "machine.json" &&
                                 std::filesystem::is_regular_file(it->path().parent_path() / "machine.json");
        if (name == "report.json" || name == "job.json" || asv_results) found.push_back(it->path());
    }
    if (ec) throw HistoryError(file_or_folder.string() + ": cannot list the folder: " + ec.message());
    if (found.empty())
        throw HistoryError(file_or_folder.string() + ": holds no report.json, job.json or asv results (MACHINE/*.json "
                           "beside a machine.json)");
    std::sort(found.begin(), found.end());
    return found;
}

}  // namespace gpuchrono::history
