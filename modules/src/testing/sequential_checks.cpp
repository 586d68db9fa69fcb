// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/testing/sequential_checks.hpp>

#include <sstream>
#include <string>

namespace gpuchrono {

namespace {

std::string names(const SequentialComparison& c) { return "\"" + c.name_b + "\" against \"" + c.name_a + "\""; }

std::string figures(const SequentialComparison& c) {
    std::ostringstream os;
    os << c;
    return os.str();
}

}  // namespace

CheckResult check_not_slower(const SequentialComparison& c) {
    if (c.verdict == Verdict::slower) return {false, names(c) + " is slower: " + figures(c)};
    return {true, names(c) + " is not slower: " + figures(c)};
}

CheckResult check_faster(const SequentialComparison& c) {
    if (c.verdict == Verdict::faster) return {true, names(c) + " is faster: " + figures(c)};
    return {false, names(c) + " is not shown faster: " + figures(c)};
}

namespace detail {
CheckResult refused_check(const SequentialCompareOptions& options, const std::exception& e) {
    return {false, "cannot compare \"" + options.name_b + "\" with \"" + options.name_a + "\": " + e.what()};
}
}  // namespace detail

}  // namespace gpuchrono
