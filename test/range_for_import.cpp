// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The first loop a new user writes over per-block samples, in a file that only imports the module (no
// range-v3 header, no gpuchrono header): it must compile and run. ctest "cpu.range_for_through_import".
// The version comes through the import too: Version and version() are exported names.
// Made-up samples: four blocks, regions 0 and 1, 20 ns each; block 3 moved from SM 3 to SM 9.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

import gpuchrono;

int main() {
    std::vector<gpuchrono::BlockSample> blocks(4);
    for (std::uint32_t i = 0; i < blocks.size(); ++i) {
        blocks[i].block = i;
        blocks[i].region = i % 2;
        blocks[i].sm_start = i;
        blocks[i].sm_stop = i == 3 ? 9 : i;
        blocks[i].start_ns = 1'700'000'000'000'000'000 + i;
        blocks[i].stop_ns = blocks[i].start_ns + 20;
    }

    int failures = 0;
    const auto expect = [&failures](const char* what, double got, double want) {
        if (got != want) {
            std::printf("range_for_through_import: FAILED: %s: got %g, expected %g\n", what, got, want);
            ++failures;
        }
    };

    const gpuchrono::Version v = gpuchrono::version();
    const std::string numbers = std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
    if (std::string(v.text) != numbers) {
        std::printf("range_for_through_import: FAILED: version().text is \"%s\", its numbers say %s\n",
                    std::string(v.text).c_str(), numbers.c_str());
        ++failures;
    }

    double total_ns = 0;
    for (gpuchrono::Duration d : blocks | gpuchrono::views::block_durations) total_ns += d.ns();
    expect("sum of block_durations", total_ns, 80);

    double region_0_ns = 0;
    for (gpuchrono::Duration d : blocks | gpuchrono::views::for_region(0) | gpuchrono::views::block_durations)
        region_0_ns += d.ns();
    expect("sum over region 0", region_0_ns, 40);

    double skew_ns = 0;
    for (gpuchrono::Duration d : blocks | gpuchrono::views::launch_skew) skew_ns += d.ns();
    expect("sum of launch_skew", skew_ns, 0 + 1 + 2 + 3);

    std::uint32_t moved = 0;
    for (const gpuchrono::BlockSample& s : blocks | gpuchrono::views::sm_changed) moved = s.block;
    expect("the block that changed SM", moved, 3);

    std::uint32_t on_sm_2 = 0;
    for (const gpuchrono::BlockSample& s : blocks | gpuchrono::views::on_sm(2)) on_sm_2 = s.block;
    expect("the block on SM 2", on_sm_2, 2);

    if (failures == 0) std::printf("range_for_through_import: every range-for over the views ran as expected\n");
    return failures == 0 ? 0 : 1;
}
