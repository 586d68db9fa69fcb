// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The subcommands of `gpuchrono`, each a main() of its own: gpuchrono-report and gpuchrono-compare are the same
// code under their old names.
#pragma once

int report_main(int argc, char** argv);   // gpuchrono report ... / gpuchrono merge ... (argv[1] == "merge")
int compare_main(int argc, char** argv);  // gpuchrono compare ...
int run_main(int argc, char** argv);      // gpuchrono run [options] -- PROGRAM ARGS...
int diff_main(int argc, char** argv);     // gpuchrono diff A B
int history_main(int argc, char** argv);  // gpuchrono history COMMAND ...
