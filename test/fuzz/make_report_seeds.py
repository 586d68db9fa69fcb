#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the crafted seeds of fuzz_report_json: a small valid report cut from test/data/report-v1.json and
variants carrying inputs once read wrong (signed overflow in a driver version, a cycle count that
overflows a double-to-integer cast, a 1e300 ns sample, names with invalid UTF-8) and JSON edge cases
(out-of-range numbers, duplicate keys, a wrong type deep inside, a newer schema)."""
import copy, json, pathlib, sys

here = pathlib.Path(__file__).parent
out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "corpus/fuzz_report_json"
out.mkdir(parents=True, exist_ok=True)
full = json.loads((here / "../data/report-v1.json").read_text())

small = copy.deepcopy(full)
small["experiments"] = small["experiments"][:1]
e = small["experiments"][0]
e["series"] = e["series"][:2]
e["metrics"] = e["metrics"][:2]
e["timelines"] = e["timelines"][:1]
e["timelines"][0]["samples"] = e["timelines"][0]["samples"][:3]
e["sweeps"] = e["sweeps"][:1]
for c in e["sweeps"][0]["curves"]:
    c["points"] = c["points"][:3]

def write(name, doc=None, text=None):
    data = text if text is not None else json.dumps(doc, separators=(",", ":")).encode()
    (out / name).write_bytes(data)

def variant(name, change):
    d = copy.deepcopy(small)
    change(d)
    write(name, d)

write("small-report", small)
variant("driver-version-overflow", lambda d: d["device"].__setitem__("driver_version", "2147484.0"))
variant("runtime-version-negative", lambda d: d["device"].__setitem__("runtime_version", "-1.-5"))
variant("cycles-max-u64", lambda d: d["experiments"][0]["timelines"][0]["samples"][0].__setitem__("accumulated_cycles", 18446744073709551615))
variant("sample-1e300-ns", lambda d: d["experiments"][0]["series"][0].__setitem__("samples_ns", [1e300, 5.0, 1e-300]))
variant("start-after-stop", lambda d: d["experiments"][0]["timelines"][0]["samples"][0].__setitem__("stop_ns", 1))
variant("region-out-of-range", lambda d: d["experiments"][0]["timelines"][0]["samples"][0].__setitem__("region", 4000000000))
variant("newer-schema-version", lambda d: d.__setitem__("schema_version", 2))
variant("wrong-type-deep", lambda d: d["experiments"][0]["series"][0]["samples_ns"].__setitem__(1, "7"))
variant("empty-sweep-curve", lambda d: d["experiments"][0]["sweeps"][0]["curves"][0].__setitem__("points", []))
variant("zero-sm-count", lambda d: d["experiments"][0]["timelines"][0].__setitem__("sm_count", 0))
text = json.dumps(small, separators=(",", ":"))
name = small["experiments"][0]["series"][0]["name"]
write("invalid-utf8-name", text=text.replace(json.dumps(name), '"sw\xff\xfe"').encode("latin-1"))
write("number-out-of-range", text=text.replace('"sm_count":16', '"sm_count":1e400', 1).encode())
write("duplicate-keys", text=text.replace('"schema_version":1', '"schema_version":1,"schema_version":"one"', 1).encode())
write("negative-unsigned", text=text.replace('"sm_count":16', '"sm_count":-16', 1).encode())
print(f"{len(list(out.iterdir()))} files in {out}")
