// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The throughput measure() declared for a series, as the text and HTML reports both phrase it after how the
// series was taken: one wording, so that the two reports read the same figures the same way (private header).
#pragma once

#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/units.hpp>

#include <cmath>
#include <string>

namespace gpuchrono::report {

// "; 812.3 GB/s (24.2% of the 3352 GB/s peak); 1.234 G items/s", each part only where measured; empty when
// neither is. `percent` is the caller's own way of writing a ratio, as in the rest of its line.
template <class Percent>
std::string throughput_text(const MeasureSummary& m, const Percent& percent) {
    std::string text;
    if (std::isfinite(m.bytes_per_second)) {
        text += "; " + format_fixed(m.bytes_per_second / 1e9, 1) + " GB/s";
        if (std::isfinite(m.peak_bytes_per_second))
            text += " (" + percent(m.bytes_per_second / m.peak_bytes_per_second) + " of the " +
                    format_fixed(m.peak_bytes_per_second / 1e9, 0) + " GB/s peak)";
    }
    if (std::isfinite(m.items_per_second)) text += "; " + format_fixed(m.items_per_second / 1e9, 3) + " G items/s";
    return text;
}

}  // namespace gpuchrono::report
