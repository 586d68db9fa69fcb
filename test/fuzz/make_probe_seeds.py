#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the seed inputs of fuzz_probe_decode (layout: see the comment at the top of fuzz_probe_decode.cpp).
Each seed is probe memory a kernel could leave behind: a clean run, a loop, dropped blocks, an SM change,
a second launch into the same probe, an unnamed region id, overwritten slots and a truncated buffer."""
import struct, sys, pathlib

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "corpus/fuzz_probe_decode")
out.mkdir(parents=True, exist_ok=True)

T0 = 1_700_000_000_000_000_000  # a %globaltimer value of the right size

def header(dropped=0, first_inv=0, last=0, invalid=0, grid=1, threads=256, max_invalid=0):
    return struct.pack("<5Q2I", dropped, first_inv, last, invalid, grid, threads, max_invalid)

def span(start_ns=T0, cycles0=1000, ns=100_000, hz=1.98e9, sm=0):
    return struct.pack("<4Q2I", start_ns, cycles0, start_ns + ns, cycles0 + int(ns * hz / 1e9), sm, sm)

def record(block, region, start, ns, cycles0=5000, hz=1.98e9, count=1, acc_ns=None, sm=(3, 3), flags=0,
           writes=1, grid=7, acc_cycles=None):
    stop = start + ns
    c1 = cycles0 + int(ns * hz / 1e9)
    acc_ns = ns if acc_ns is None else acc_ns
    acc_cycles = max(c1 - cycles0, 0) if acc_cycles is None else acc_cycles
    return struct.pack("<8Q6I2I", start, stop, cycles0, c1, count, acc_ns, acc_cycles, grid,
                       block, region, sm[0], sm[1], flags, writes, 0, 0)

def seed(name, mode, capacity, records, hdr=None, step=32, sms=132, resident=8, truncate=None):
    body = struct.pack("<BBHBB", mode, capacity, step, sms, resident)
    body += hdr if hdr is not None else header(grid=capacity)
    body += span() + struct.pack("<2d", 140.0, 12.0) + b"".join(records)
    if truncate is not None:
        body = body[:truncate]
    (out / name).write_bytes(body)

one = [record(b, 0, T0 + 100 * b, 50_000, sm=(b % 4, b % 4)) for b in range(4)]
seed("clean-4-blocks", 0, 4, one)
seed("clean-4-blocks-overhead", 16, 4, one)
seed("reference-clock", 32, 4, one)
two = [record(b, r, T0 + 1000 * b + 20_000 * r, 10_000, sm=(b, b)) for b in range(3) for r in range(2)]
seed("two-regions", 1, 3, two)
seed("loop", 0, 2, [record(b, 0, T0, 80_000, count=100, acc_ns=70_000, flags=1) for b in range(2)])
seed("loop-sm-changed", 0, 1, [record(0, 0, T0, 80_000, count=10, acc_ns=70_000, flags=3, sm=(1, 2))])
seed("sm-changed", 0, 2, [record(0, 0, T0, 9000, sm=(1, 5)), record(1, 0, T0, 9000, sm=(2, 2))])
seed("dropped", 0, 2, one[:2], hdr=header(dropped=6, first_inv=(~(T0 - 50)) & (2**64 - 1), last=T0 + 90_000, grid=8))
seed("only-dropped", 0, 1, [b"\0" * 96], hdr=header(dropped=3, grid=3))
seed("nothing-recorded", 0, 2, [b"\0" * 96] * 2)
seed("written-twice", 0, 2, [record(0, 0, T0, 1000, writes=2), record(1, 0, T0, 1000)])
seed("two-launches", 0, 2, [record(0, 0, T0, 1000, grid=7), record(1, 0, T0, 1000, grid=8)])
seed("unnamed-region", 0, 1, [record(0, 0, T0, 1000)], hdr=header(invalid=4, max_invalid=9))
seed("overwritten-slot", 0, 2, [record(1, 0, T0, 1000), record(0, 0, T0, 1000)])
seed("stop-before-start", 0, 1, [record(0, 0, T0, 1000) [:8] + struct.pack("<Q", T0 - 5) + record(0, 0, T0, 1000)[16:]])
seed("cycles-backwards", 0, 1, [record(0, 0, T0, 1000, cycles0=2**63, hz=-1e9)])
seed("truncated", 0, 4, one, truncate=200)
seed("wrong-size", 4, 4, one)
seed("zero-step", 0, 4, one, step=0)
seed("unknown-occupancy", 0, 4, one, sms=0, resident=0)
print(f"{len(list(out.iterdir()))} seeds in {out}")
