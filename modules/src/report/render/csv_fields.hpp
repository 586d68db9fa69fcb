// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The two things every CSV file of a report writes the same way: a number in its shortest exact form (so a
// spreadsheet sees the same double the report holds; NaN and infinities as an empty field) and a row of fields
// already quoted where they need it. Internal to the report renderers.
#pragma once

#include <charconv>
#include <cmath>
#include <initializer_list>
#include <string>

namespace gpuchrono::detail::csv {

inline std::string number(double v) {
    if (!std::isfinite(v)) return {};
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, end);
}

inline void row(std::string& out, std::initializer_list<std::string> fields) {
    bool first = true;
    for (const std::string& f : fields) {
        if (!first) out += ',';
        out += f;
        first = false;
    }
    out += '\n';
}

}  // namespace gpuchrono::detail::csv
