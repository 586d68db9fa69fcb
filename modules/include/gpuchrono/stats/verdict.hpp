// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a comparison of two series decides: B is faster or slower than A by at least the threshold, the two are
// the same within it, or the samples cannot tell yet. compare() and the sequential test both answer with it.
#pragma once

#include <iosfwd>

namespace gpuchrono {

enum class Verdict { faster, slower, no_difference, inconclusive };

// "faster", "slower", "no difference", "inconclusive".
const char* to_string(Verdict v) noexcept;
std::ostream& operator<<(std::ostream& os, Verdict v);

}  // namespace gpuchrono
