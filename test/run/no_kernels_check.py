#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The injection library must carry no kernel of the library's: CUDA loads it while it initialises, and a fat binary
registered then hung a PyTorch program in its first cuBLAS call on an H100 (docs/run.md). Fails, naming them, when
the symbol table holds the registration code nvcc or clang emit for a .cu file.

    no_kernels_check.py NM LIBRARY
"""
import subprocess
import sys

REGISTRATION = ("__sti____cudaRegisterAll", "__cuda_module_ctor", "__cuda_register_globals", "__nv_cudaEntityRegisterCallback")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    nm, library = sys.argv[1:]
    listed = subprocess.run([nm, "-C", library], capture_output=True, text=True)
    if listed.returncode != 0:
        print(f"no_kernels_check: {nm} {library} failed: {listed.stderr.strip()}")
        return 1
    found = [line.strip() for line in listed.stdout.splitlines() if any(r in line for r in REGISTRATION)]
    if found:
        print(f"no_kernels_check: {library} registers kernels at load ({len(found)} symbols), e.g.:")
        print("\n".join("  " + f for f in found[:8]))
        print("a report-side source now reaches code with kernels (measure/, policies/, gpu/): move what it needs "
              "into a file of its own")
        return 1
    print(f"no_kernels_check: {library} registers no kernel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
