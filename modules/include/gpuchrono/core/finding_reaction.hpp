// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What happens when a finding is detected. Whatever the reaction, the finding is attached to its Measurement
// (Measurement::findings(), Series::findings(), Summary::findings): the reaction only decides what happens
// besides.
//
//   Reaction::collect      nothing else: read the findings when you want them.
//   Reaction::report       (default) each finding goes to the sink, stderr unless set_finding_sink() replaced it,
//                          ONCE per code and call site: a loop of 10,000 timed samples with the same mistake
//                          prints one line, two timers in different places print one line each. The stderr sink
//                          prints warnings and errors only, each as one short line (to_short_string); info
//                          findings stay in the Measurement and the report unless set_finding_print_level()
//                          or GPUCHRONO_FINDINGS_PRINT=info asks for them. A sink of the user's gets every one.
//   Reaction::throw_error  a finding of severity warning or error throws FindingError, carrying the finding and
//                          the measurement it was found on; info findings go to the sink as with report.
//                          From ScopedTimer's destructor, which cannot throw, the exception becomes a failed
//                          Measurement whose error() is the finding (ScopedTimer's own rule).
//
// Choosing it, later choices winning:
//   compile time  the CMake cache variable GPUCHRONO_FINDING_REACTION (collect, report or throw) when the
//                 library is built;
//   environment   GPUCHRONO_FINDINGS=collect|report|throw, read once, at the first finding;
//   run time      set_finding_reaction(r) for the process, and ScopedFindingReaction for one thread and scope.
//
// Costs: nothing here runs unless a detector found something. Detection itself is inside the policies.
#pragma once

#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/measurement.hpp>

#include <functional>
#include <optional>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuchrono {

enum class Reaction { collect, report, throw_error };

// "collect", "report", "throw".
const char* to_string(Reaction r) noexcept;

// Accepts exactly what to_string produces ("throw" for throw_error); nothing for anything else.
std::optional<Reaction> parse_reaction(std::string_view text) noexcept;

// The reaction in force on this thread: the innermost ScopedFindingReaction, else the process-wide one.
Reaction finding_reaction() noexcept;

// The process-wide reaction (threads without a ScopedFindingReaction use it).
void set_finding_reaction(Reaction r) noexcept;

// Sets the reaction of the calling thread until it goes out of scope, then restores the one before. Nests.
class ScopedFindingReaction {
public:
    explicit ScopedFindingReaction(Reaction r) noexcept;
    ~ScopedFindingReaction();
    ScopedFindingReaction(const ScopedFindingReaction&) = delete;
    ScopedFindingReaction& operator=(const ScopedFindingReaction&) = delete;

private:
    int previous_;
};

// Receives each reported finding once per (code, call site). Called under a lock: keep it short, and do not
// time anything from it. An empty function restores the default sink (one line on stderr per finding).
using FindingSink = std::function<void(const Finding&)>;
void set_finding_sink(FindingSink sink);

// The least severity the default sink prints (Severity::warning unless GPUCHRONO_FINDINGS_PRINT=info|warning|error
// in the environment, read once, or this call chose). Findings below it are still attached and reported to a
// sink set with set_finding_sink().
void set_finding_print_level(Severity least) noexcept;
Severity finding_print_level() noexcept;

// Forgets which (code, call site) pairs were already reported, so each is reported once more.
void forget_reported_findings() noexcept;

// Thrown under Reaction::throw_error. what() is the finding's one-line text (to_string(Finding)).
class FindingError : public std::runtime_error {
public:
    FindingError(Finding finding, Findings all, std::optional<Measurement> measurement);

    const Finding& finding() const noexcept { return finding_; }  // the first warning or error
    const Findings& findings() const noexcept { return all_; }    // everything detected with it
    // The measurement the findings were detected on (its duration is usable); none for series-level findings.
    const std::optional<Measurement>& measurement() const noexcept { return measurement_; }

private:
    Finding finding_;
    Findings all_;
    std::optional<Measurement> measurement_;
};

// Where a finding was detected in the user's program (see Finding::where).
struct CallSite {
    const void* return_address = nullptr;  // into the user's code, when only that is known
    std::string where;                     // "file:line", when a source location was given
    // The user's source location, kept as it is and written as "file:line" only when a finding needs it: a
    // timer's stop passes one every time, and most stops find nothing.
    std::optional<std::source_location> location{};

    static CallSite at(std::source_location location = std::source_location::current());
    static CallSite located(std::source_location location) noexcept;
    static CallSite returning_to(const void* return_address) noexcept;
};

// Stamps each finding's `where` from the call site, attaches the findings to `m`, then reacts (report or throw,
// see above). Findings that carry a `where` already keep it. Throws FindingError under throw_error.
void handle_findings(Measurement& m, Findings found, const CallSite& site);

// The same for findings about a series or a set of samples, which have no single Measurement.
void handle_findings(Findings& found, const CallSite& site);

namespace detail {
// The two halves of handle_findings, for findings a Measurement learns after it was returned (a lazy
// EventPolicy interval, checked when duration() first reads it): the interval stamps them with its timer's
// call site, and the Measurement, having attached them, reacts.
void stamp_findings(Findings& found, const CallSite& site);
void react_to_findings(const Findings& found, const Measurement& m);

// For findings about a whole series (summary()): reported once per (code, series name) rather than per call
// site, so the summary() a user calls and the report later built from the same series (make_series,
// write_report) do not report one finding twice. Stamps and throws as handle_findings does.
void handle_series_findings(Findings& found, std::string_view series_name, const CallSite& site);

// While it lives, findings stamped on this thread name `where` ("script.py:12") instead of the call site the
// library was handed: for a binding whose user's line no std::source_location can hold (the Python package
// passes its caller's frame). Nests; restores the one before.
class ScopedCallerName {
public:
    explicit ScopedCallerName(std::string where);
    ~ScopedCallerName();
    ScopedCallerName(const ScopedCallerName&) = delete;
    ScopedCallerName& operator=(const ScopedCallerName&) = delete;

private:
    std::string where_;
    const std::string* previous_;
};
}  // namespace detail

}  // namespace gpuchrono
