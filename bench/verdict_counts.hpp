// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How many comparisons of a row ended in each verdict: the tally the comparison benchmarks judge their error
// rates by, kept in one place so that they count the same way.
#pragma once

#include <gpuchrono/measure/compare.hpp>

#include <cstdio>

struct VerdictCounts {
    int faster = 0, slower = 0, none = 0, inconclusive = 0;
    void add(gpuchrono::Verdict v) {
        switch (v) {
            case gpuchrono::Verdict::faster: ++faster; break;
            case gpuchrono::Verdict::slower: ++slower; break;
            case gpuchrono::Verdict::no_difference: ++none; break;
            case gpuchrono::Verdict::inconclusive: ++inconclusive; break;
        }
    }
    void print(int n) const {
        std::printf("faster %d, slower %d, no difference %d, inconclusive %d (of %d)", faster, slower, none, inconclusive, n);
    }
};
