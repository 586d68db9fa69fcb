# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Turns the wheel `pip wheel .` builds (distribution "gpuchrono") into a CUDA-major variant such as "gpuchrono-cu13":
the same files under the variant's name, with the requirements of that variant added (the matching CUPTI wheel).
CuPy and NVIDIA name their per-CUDA wheels the same way; the import name stays `gpuchrono`.

    python scripts/wheel_variant.py WHEEL NAME OUTDIR [--requires REQ]...

Prints the path of the wheel written. Standard library only (it runs in the build's venv before auditwheel)."""
from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import sys
import zipfile


def record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("wheel")
    p.add_argument("name", help="the variant's distribution name, e.g. gpuchrono-cu13")
    p.add_argument("outdir")
    p.add_argument("--requires", action="append", default=[], help="a Requires-Dist line to add")
    args = p.parse_args()

    base = os.path.basename(args.wheel)
    m = re.fullmatch(r"([^-]+)-([^-]+)-(.+)\.whl", base)
    if not m:
        sys.exit(f"wheel_variant: {base} is not a wheel file name")
    old_dist, version, tags = m.groups()
    new_dist = re.sub(r"[-_.]+", "_", args.name).lower()  # the file-name form of the distribution name
    old_info, new_info = f"{old_dist}-{version}.dist-info/", f"{new_dist}-{version}.dist-info/"

    with zipfile.ZipFile(args.wheel) as src:
        entries = [(i, src.read(i.filename)) for i in src.infolist() if not i.is_dir()]

    out_entries: list[tuple[str, bytes]] = []
    for info, data in entries:
        name = info.filename
        if name == old_info + "RECORD":
            continue  # written anew below
        if name.startswith(old_info):
            name = new_info + name[len(old_info):]
        if name == new_info + "METADATA":
            text = data.decode()
            head, sep, body = text.partition("\n\n")  # headers, then the description
            lines = [f"Name: {args.name}" if line.startswith("Name: ") else line for line in head.splitlines()]
            at = max((i for i, line in enumerate(lines) if line.startswith("Requires-Dist:")), default=len(lines) - 1)
            lines[at + 1:at + 1] = [f"Requires-Dist: {r}" for r in args.requires]
            data = ("\n".join(lines) + "\n" + ("\n" + body if sep else "")).encode()
        out_entries.append((name, data))

    record = "".join(f"{n},{record_hash(d)},{len(d)}\n" for n, d in out_entries) + f"{new_info}RECORD,,\n"
    out_entries.append((new_info + "RECORD", record.encode()))

    os.makedirs(args.outdir, exist_ok=True)
    out = os.path.join(args.outdir, f"{new_dist}-{version}-{tags}.whl")
    modes = {i.filename: i.external_attr for i, _ in entries}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in out_entries:
            zi = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            old_name = old_info + name[len(new_info):] if name.startswith(new_info) else name
            zi.external_attr = modes.get(old_name, 0o644 << 16)
            dst.writestr(zi, data)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
