// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/stats/verdict.hpp>

#include <ostream>

namespace gpuchrono {

const char* to_string(Verdict v) noexcept {
    switch (v) {
        case Verdict::faster: return "faster";
        case Verdict::slower: return "slower";
        case Verdict::no_difference: return "no difference";
        case Verdict::inconclusive: return "inconclusive";
    }
    return "unknown";
}

std::ostream& operator<<(std::ostream& os, Verdict v) { return os << to_string(v); }

}  // namespace gpuchrono
