// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono: one command for the tools.
//
//     gpuchrono run [options] -- PROGRAM ARGS...   the time of every kernel of an unmodified program (docs/run.md)
//     gpuchrono diff A B                            which kernels of two runs changed
//     gpuchrono report REPORT.json                  renders a saved report (as gpuchrono-report)
//     gpuchrono compare BASE.json NEW.json          compares two saved reports (as gpuchrono-compare)
//     gpuchrono merge RANK.json... -o JOB.json      merges the reports of a job's ranks
//     gpuchrono history add|check|show ...          the performance history (docs/history.md)
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <gpuchrono/version.hpp>

#include <gpuchrono/api.hpp>

#include "commands.hpp"

namespace {

int usage(std::FILE* to) {
    std::fputs("usage: gpuchrono COMMAND ...\n"
               "  run [options] -- PROGRAM ARGS...  records every kernel, copy and NVTX range of PROGRAM (no change to it)\n"
               "  diff A B                          per kernel the change from run A to run B, with its CI\n"
               "  report REPORT.json [--out DIR]    prints a saved report, writes its files\n"
               "  compare BASE.json NEW.json        did a series get slower between two saved reports\n"
               "  merge RANK.json... -o JOB.json    merges the reports of a job's ranks\n"
               "  history add|check|show ...        the performance history: keep runs per commit, gate CI on regressions\n"
               "  gpuchrono COMMAND --help tells more.\n",
               to);
    return to == stdout ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage(stderr);
    const std::string_view command = argv[1];
    if (command == "-h" || command == "--help" || command == "help") return usage(stdout);
    if (command == "--version") {
        std::printf("gpuchrono %s\n", std::string(gpuchrono::version().text).c_str());
        return 0;
    }
    // Each subcommand sees itself as argv[0] ("gpuchrono-report"-style messages stay as they were).
    std::vector<char*> rest(argv + 1, argv + argc);
    rest.push_back(nullptr);
    const int n = argc - 1;
    if (command == "run") return run_main(n, rest.data());
    if (command == "diff") return diff_main(n, rest.data());
    if (command == "report") return report_main(n, rest.data());
    if (command == "compare") return compare_main(n, rest.data());
    if (command == "merge") return report_main(argc, argv);  // report_main reads argv[1] == "merge"
    if (command == "history") return history_main(n, rest.data());
    std::fprintf(stderr, "gpuchrono: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
