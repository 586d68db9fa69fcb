// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/core/nvtx_range.hpp>

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>

// The build's default reaction (CMake cache variable GPUCHRONO_FINDING_REACTION): a bare word, stringified here.
#ifndef GPUCHRONO_FINDING_REACTION
#define GPUCHRONO_FINDING_REACTION report
#endif
#define GPUCHRONO_STRINGIFY_(x) #x
#define GPUCHRONO_STRINGIFY(x) GPUCHRONO_STRINGIFY_(x)

namespace gpuchrono {

namespace {

constexpr int unset = -1;

std::atomic<int> process_reaction{unset};
thread_local int thread_reaction = unset;

// A setting read from the environment variable `name`: `fallback` when it is unset or empty, else what `parse`
// makes of it. A value `parse` refuses is not silently dropped: stderr says that it is not one of `accepted` and
// what is done `instead`, in one format for every such variable.
template <class T, class Parse>
T setting_from_environment(const char* name, T fallback, Parse parse, const char* accepted, const std::string& instead) {
    const char* env = std::getenv(name);
    if (!env || !*env) return fallback;
    if (const std::optional<T> parsed = parse(env)) return *parsed;
    std::fprintf(stderr, "gpuchrono: %s=\"%s\" is not %s; %s\n", name, env, accepted, instead.c_str());
    return fallback;
}

Reaction built_in_default() noexcept {
    static const Reaction r = [] {
        const std::optional<Reaction> compiled = parse_reaction(GPUCHRONO_STRINGIFY(GPUCHRONO_FINDING_REACTION));
        const Reaction chosen = compiled.value_or(Reaction::report);
        return setting_from_environment("GPUCHRONO_FINDINGS", chosen, parse_reaction, "collect, report or throw",
                                        "findings are handled with \"" + std::string(to_string(chosen)) + "\"");
    }();
    return r;
}

// Sink and the set of (code, where) already reported share one lock: reporting is the rare path.
struct Reporting {
    std::mutex mutex;
    FindingSink sink;
    std::set<std::pair<std::string, std::string>> reported;
    std::map<const void*, std::string> places;  // return address -> "program+0x..." (dladdr is not free)
};

Reporting& reporting() {
    static Reporting* r = new Reporting();  // never destroyed: findings can be reported from static destructors
    return *r;
}

std::atomic<int> process_print_level{unset};

std::optional<Severity> parse_severity(std::string_view text) noexcept {
    if (text == "info") return Severity::info;
    if (text == "warning") return Severity::warning;
    if (text == "error") return Severity::error;
    return std::nullopt;
}

Severity built_in_print_level() noexcept {
    static const Severity level =
        setting_from_environment("GPUCHRONO_FINDINGS_PRINT", Severity::warning, parse_severity, "info, warning or error",
                                 "printing findings of severity warning and above");
    return level;
}

// A finding printed by default is a reason to act: info findings (context for reading a number right) would
// teach users to skip the lines that matter, so they are printed only when asked for.
void default_sink(const Finding& f) {
    if (f.severity < finding_print_level()) return;
    std::fprintf(stderr, "gpuchrono: %s\n", to_short_string(f).c_str());
}

// "gpu_tests+0x1a2b3" for a position-independent object (addr2line -e gpu_tests 0x1a2b3 gives the line),
// the absolute address for a fixed-position executable. The return address points after the call; one byte
// back is inside the call instruction, so addr2line names the caller's line.
std::string describe(const void* return_address) {
    const auto* inside_call = static_cast<const char*>(return_address) - 1;
    Dl_info info{};
    char text[64];
    if (dladdr(inside_call, &info) == 0 || info.dli_fbase == nullptr) {
        std::snprintf(text, sizeof text, "%p", static_cast<const void*>(inside_call));
        return text;
    }
    std::string object = info.dli_fname ? info.dli_fname : "";
    if (auto slash = object.find_last_of('/'); slash != std::string::npos) object.erase(0, slash + 1);
    const auto* header = static_cast<const Elf64_Ehdr*>(info.dli_fbase);
    const bool relocatable = header->e_type == ET_DYN;
    const auto offset = static_cast<unsigned long>(
        inside_call - (relocatable ? static_cast<const char*>(info.dli_fbase) : static_cast<const char*>(nullptr)));
    std::snprintf(text, sizeof text, "+0x%lx", offset);
    return (object.empty() ? std::string("program") : object) + text;
}

// "file.cpp:42": the file's name without its folders, and the line.
std::string file_and_line(const std::source_location& location) {
    std::string file = location.file_name();
    if (auto slash = file.find_last_of("/\\"); slash != std::string::npos) file.erase(0, slash + 1);
    return file + ":" + std::to_string(location.line());
}

// The binding's caller (detail::ScopedCallerName) on this thread, if one is named.
thread_local const std::string* caller_name = nullptr;

std::string where_of(const CallSite& site) {
    if (caller_name && !caller_name->empty()) return *caller_name;
    if (!site.where.empty()) return site.where;
    if (site.location) return file_and_line(*site.location);
    if (site.return_address == nullptr) return {};
    Reporting& r = reporting();
    std::lock_guard lock(r.mutex);
    auto it = r.places.find(site.return_address);
    if (it == r.places.end()) it = r.places.emplace(site.return_address, describe(site.return_address)).first;
    return it->second;
}

void stamp(Findings& found, const CallSite& site) {
    if (std::all_of(found.begin(), found.end(), [](const Finding& f) { return !f.where.empty(); })) return;
    const std::string where = where_of(site);
    for (Finding& f : found)
        if (f.where.empty()) f.where = where;
}

// `subject`: what makes the finding the same one again; its call site unless a series names it.
void report_once(const Finding& f, const std::string& subject) {
    Reporting& r = reporting();
    std::lock_guard lock(r.mutex);
    if (!r.reported.emplace(f.code, subject).second) return;
    if (r.sink)
        r.sink(f);
    else
        default_sink(f);
}

void react(const Findings& found, const std::optional<Measurement>& m, const std::string& series_subject = {}) {
    if (found.empty()) return;
    // Every finding handled becomes an NVTX mark named by its code, whatever the reaction, so a profiler's
    // timeline shows where it was detected.
    for (const Finding& f : found) detail::nvtx_mark(f.code.c_str(), static_cast<int>(f.severity));
    const Reaction reaction = finding_reaction();
    if (reaction == Reaction::collect) return;
    const Finding* to_throw = nullptr;
    for (const Finding& f : found) {
        if (reaction == Reaction::throw_error && f.severity != Severity::info) {
            if (!to_throw) to_throw = &f;
            continue;
        }
        report_once(f, series_subject.empty() ? f.where : series_subject);
    }
    if (to_throw) throw FindingError(*to_throw, found, m);
}

}  // namespace

const char* to_string(Reaction r) noexcept {
    switch (r) {
        case Reaction::collect: return "collect";
        case Reaction::report: return "report";
        case Reaction::throw_error: return "throw";
    }
    return "unknown";
}

std::optional<Reaction> parse_reaction(std::string_view text) noexcept {
    if (text == "collect") return Reaction::collect;
    if (text == "report") return Reaction::report;
    if (text == "throw") return Reaction::throw_error;
    return std::nullopt;
}

Reaction finding_reaction() noexcept {
    if (thread_reaction != unset) return static_cast<Reaction>(thread_reaction);
    const int process = process_reaction.load(std::memory_order_relaxed);
    return process != unset ? static_cast<Reaction>(process) : built_in_default();
}

void set_finding_reaction(Reaction r) noexcept { process_reaction.store(static_cast<int>(r), std::memory_order_relaxed); }

ScopedFindingReaction::ScopedFindingReaction(Reaction r) noexcept : previous_(thread_reaction) {
    thread_reaction = static_cast<int>(r);
}

ScopedFindingReaction::~ScopedFindingReaction() { thread_reaction = previous_; }

void set_finding_sink(FindingSink sink) {
    Reporting& r = reporting();
    std::lock_guard lock(r.mutex);
    r.sink = std::move(sink);
}

void set_finding_print_level(Severity least) noexcept {
    process_print_level.store(static_cast<int>(least), std::memory_order_relaxed);
}

Severity finding_print_level() noexcept {
    const int level = process_print_level.load(std::memory_order_relaxed);
    return level != unset ? static_cast<Severity>(level) : built_in_print_level();
}

void forget_reported_findings() noexcept {
    Reporting& r = reporting();
    std::lock_guard lock(r.mutex);
    r.reported.clear();
}

FindingError::FindingError(Finding finding, Findings all, std::optional<Measurement> measurement)
    : std::runtime_error("gpuchrono: " + to_string(finding)),
      finding_(std::move(finding)),
      all_(std::move(all)),
      measurement_(std::move(measurement)) {}

CallSite CallSite::at(std::source_location location) { return CallSite{nullptr, file_and_line(location), {}}; }

CallSite CallSite::located(std::source_location location) noexcept { return CallSite{nullptr, {}, location}; }

CallSite CallSite::returning_to(const void* return_address) noexcept { return CallSite{return_address, {}, {}}; }

void handle_findings(Measurement& m, Findings found, const CallSite& site) {
    if (found.empty()) return;
    stamp(found, site);
    for (const Finding& f : found) m.add_finding(f);
    react(found, m);
}

void handle_findings(Findings& found, const CallSite& site) {
    if (found.empty()) return;
    stamp(found, site);
    react(found, std::nullopt);
}

namespace detail {

void stamp_findings(Findings& found, const CallSite& site) {
    if (!found.empty()) stamp(found, site);
}

void react_to_findings(const Findings& found, const Measurement& m) { react(found, m); }

void handle_series_findings(Findings& found, std::string_view series_name, const CallSite& site) {
    if (found.empty()) return;
    stamp(found, site);
    // A prefix no "file:line" or "program+0x..." call site can carry, so the two kinds of key never meet.
    react(found, std::nullopt, "series \"" + std::string(series_name) + "\"");
}

ScopedCallerName::ScopedCallerName(std::string where) : where_(std::move(where)), previous_(caller_name) {
    caller_name = &where_;
}

ScopedCallerName::~ScopedCallerName() { caller_name = previous_; }

}  // namespace detail

}  // namespace gpuchrono
