#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# `gpuchrono history` as CI calls it: exit statuses, refusals that write nothing, and on the shared H100 history
# (when it is there) the gate failing where `spin 20us` got slower and `show` marking the change; asv results
# read and every export format written; bisect's exit statuses for `git bisect run`.
# Usage: history_command_test.sh GPUCHRONO SOURCE_DIR
set -uo pipefail
gpuchrono=$1
source_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/history.db"
failures=0
expect() {  # expect STATUS WHAT COMMAND...: runs COMMAND, fails the test unless it exits STATUS
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAILED: $what: exit $got, expected $want"; sed 's/^/    /' "$tmp/out"; failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}
contains() {  # contains TEXT WHAT: the last command's output holds TEXT
  if ! grep -qF -- "$1" "$tmp/out"; then
    echo "FAILED: $2: no '$1' in"; sed 's/^/    /' "$tmp/out"; failures=$((failures + 1))
  fi
}

expect 2 "check of an empty history cannot judge" "$gpuchrono" history check --db "$db"
contains "cannot judge" "check of an empty history"

head -c 300 "$source_dir/test/data/history/pytest-benchmark.json" > "$tmp/truncated.json"
expect 2 "a truncated report is refused" "$gpuchrono" history add "$tmp/truncated.json" \
  "$source_dir/test/data/history/google-benchmark.json" --commit c1 --db "$db"
contains "$tmp/truncated.json" "the refusal names the file"
expect 0 "series of the history" "$gpuchrono" history series --db "$db"
if [ -s "$tmp/out" ]; then echo "FAILED: the refused add wrote series:"; cat "$tmp/out"; failures=$((failures + 1)); fi

expect 0 "pytest-benchmark JSON is added" "$gpuchrono" history add "$source_dir/test/data/history/pytest-benchmark.json" --db "$db"
expect 0 "series of the history" "$gpuchrono" history series --db "$db"
contains "kernels/tests/test_kernels.py::test_saxpy[1M] (ns)" "the pytest-benchmark series"
expect 2 "an unknown option is refused" "$gpuchrono" history check --sincere --db "$db"
expect 2 "a server that does not answer" "$gpuchrono" history series --db "postgresql://nobody:secret@127.0.0.1:1/none"
if grep -q secret "$tmp/out"; then echo "FAILED: a password was printed"; failures=$((failures + 1)); fi

# A database client the machine lacks is named in one sentence, with the package that holds it; the override
# variables name the library's file (here one that is not there, as on a machine without the package).
expect 2 "no SQLite library: refused with a sentence" env GPUCHRONO_SQLITE="$tmp/absent/libsqlite3.so.0" \
  "$gpuchrono" history series --db "$tmp/elsewhere.db"
contains "cannot load $tmp/absent/libsqlite3.so.0 (named by GPUCHRONO_SQLITE), which a history database file (SQLite) needs: install libsqlite3-0" \
  "the sentence names the library, its use and its package"
if [ -e "$tmp/elsewhere.db" ]; then echo "FAILED: a database was created without SQLite"; failures=$((failures + 1)); fi
if "$gpuchrono" history series --db "postgresql://127.0.0.1:1/none" 2>&1 | grep -q "without PostgreSQL support"; then
  echo "skipped: no libpq case (this gpuchrono was built without PostgreSQL support)"
else
  expect 2 "no libpq: refused with a sentence" env GPUCHRONO_LIBPQ="$tmp/absent/libpq.so.5" \
    "$gpuchrono" history series --db "postgresql://127.0.0.1:1/none"
  contains "which a history database on PostgreSQL needs: install libpq5" "the sentence names libpq's package"
fi

# asv's results folder is read as asv keeps it; each export format is written and the JSON ones parse.
expect 0 "an asv results folder is added" "$gpuchrono" history add "$source_dir/test/data/history/asv-results" --db "$db"
contains "5 series at commit 9c1e4b7a2d3f" "the asv results file's series and commit"
for format in asv pytest-benchmark; do
  expect 0 "export as $format" "$gpuchrono" history export --format "$format" --db "$db"
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" || { echo "FAILED: the $format export is not JSON"; failures=$((failures + 1)); }
done
expect 2 "an unknown export format is refused" "$gpuchrono" history export --format xml --db "$db"

# bisect: the good commit's runs (three processes, 0.4% apart) against a fresh report the command writes.
bisect_db="$tmp/bisect.db"
cat > "$tmp/scaled_run.py" <<'PY'
# scaled_run.py SOURCE TARGET COMMIT FACTOR: the pytest-benchmark file at COMMIT, each benchmark's median times
# FACTOR with 20 rounds spread +-0.5% about it
import json, sys
source, target, commit, factor = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
d = json.load(open(source))
d["commit_info"]["id"] = commit
for b in d["benchmarks"]:
    median = b["stats"]["median"] * factor
    b["stats"]["data"] = [median * (1 + 0.0005 * (i - 10)) for i in range(20)]
    b["stats"].update(median=median, min=min(b["stats"]["data"]), max=max(b["stats"]["data"]), rounds=20)
json.dump(d, open(target, "w"))
PY
write_run() { python3 "$tmp/scaled_run.py" "$source_dir/test/data/history/pytest-benchmark.json" "$@"; }
for process in 1 2 3; do
  write_run "$tmp/good$process.json" good0001 "1.00$((process * 2))"
  "$gpuchrono" history add "$tmp/good$process.json" --db "$bisect_db" >/dev/null || { echo "FAILED: add of a good run"; failures=$((failures + 1)); }
done
series="kernels/tests/test_kernels.py::test_saxpy[1M]"
bisect() { "$gpuchrono" history bisect --series "$series" --good good0001 --report "$tmp/bisect/report.json" --db "$bisect_db" "$@"; }
mkdir -p "$tmp/bisect"
expect 1 "bisect: 10% slower is bad" bisect -- python3 "$tmp/scaled_run.py" "$source_dir/test/data/history/pytest-benchmark.json" "$tmp/bisect/report.json" candidate 1.10
contains "bad: $series is slower by +9.5" "bisect says how much slower (1.10 against the good runs about 1.004)"
expect 0 "bisect: as fast is good" bisect -- python3 "$tmp/scaled_run.py" "$source_dir/test/data/history/pytest-benchmark.json" "$tmp/bisect/report.json" candidate 1.004
contains "good: $series" "bisect says good"
expect 125 "bisect: a command that fails is skipped" bisect -- false
expect 125 "bisect: a command that writes no new report is skipped" bisect -- true
contains "wrote no new" "bisect says the report is old"
expect 128 "bisect: an unknown series stops the bisect" "$gpuchrono" history bisect --series nothing --good good0001 --db "$bisect_db" -- true
expect 128 "bisect: an unknown good commit stops the bisect" "$gpuchrono" history bisect --series "$series" --good f00 \
  --report "$tmp/bisect/report.json" --db "$bisect_db" -- python3 "$tmp/scaled_run.py" "$source_dir/test/data/history/pytest-benchmark.json" "$tmp/bisect/report.json" candidate 1
expect 128 "bisect: no command stops the bisect" "$gpuchrono" history bisect --series "$series" --good good0001 --db "$bisect_db"

archive=""
for candidate in "${GPUCHRONO_SHARED_DATA:-}" "$source_dir/shared/data" "$source_dir/../shared/data"; do
  if [ -n "$candidate" ] && [ -f "$candidate/history-h100-2026-11-27.tar.gz" ]; then
    archive="$candidate/history-h100-2026-11-27.tar.gz"; break
  fi
done
if [ -z "$archive" ]; then
  echo "skipped: the CI loop on the shared H100 history (history-h100-2026-11-27.tar.gz not in shared/data beside or inside the checkout)"
else
  mkdir "$tmp/data" && tar xzf "$archive" -C "$tmp/data"
  failed_at=""
  for c in $(seq -w 0 24); do
    "$gpuchrono" history add "$tmp/data/c$c/report.json" --commit "c$c" --branch main --db "$tmp/loop.db" >/dev/null || {
      echo "FAILED: add of c$c"; failures=$((failures + 1)); }
    "$gpuchrono" history check --latest --db "$tmp/loop.db" > "$tmp/check" 2>&1
    status=$?
    if [ "$status" = 1 ]; then failed_at="$failed_at c$c"; fi
    if [ "$c" -ge 10 ] && [ "$status" = 2 ]; then echo "FAILED: c$c could not judge"; cat "$tmp/check"; failures=$((failures + 1)); fi
  done
  echo "the gate failed at:$failed_at"
  case "$failed_at" in
    " c20" | " c21" | " c22") echo "ok: the gate failed once, within two commits of the step at c20" ;;
    *) echo "FAILED: the gate should fail once at c20..c22, failed at:$failed_at"; failures=$((failures + 1)) ;;
  esac
  expect 0 "show of a series" "$gpuchrono" history show "spin 20us" --db "$tmp/loop.db"
  contains "slower by" "show marks the change"
  contains "c20" "show lists the commits"
  expect 0 "page of the history" "$gpuchrono" history page "$tmp/page" --commit-url 'https://example.org/commit/{hash}' --db "$tmp/loop.db"
  sections=$(grep -c "<section>" "$tmp/page/index.html")
  if [ "$sections" != 8 ]; then echo "FAILED: the page has $sections series sections, not 8"; failures=$((failures + 1)); fi
  if ! grep -qF 'href="https://example.org/commit/c20"' "$tmp/page/index.html"; then
    echo "FAILED: the page does not link the commit where spin 20us changed"; failures=$((failures + 1))
  fi
  expect 0 "export as CSV" "$gpuchrono" history export --format csv --db "$tmp/loop.db"
  rows=$(wc -l < "$tmp/out")
  if [ "$rows" != 201 ]; then echo "FAILED: the CSV has $rows lines, not a header and 25 x 8 runs"; failures=$((failures + 1)); fi
  expect 0 "export as BMF" "$gpuchrono" history export --format bmf --commit c20 --db "$tmp/loop.db"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 8 and d["measurements/spin 20us"]["latency"]["value"] > 0' "$tmp/out" \
    || { echo "FAILED: the BMF of c20"; failures=$((failures + 1)); }
  expect 2 "export needs a format" "$gpuchrono" history export --db "$tmp/loop.db"
  # In headless Chromium as the report pages are: no console error, every picture drawn, fits a phone's width.
  python3 "$source_dir/scripts/check-html" "$tmp/page/index.html" > "$tmp/out" 2>&1
  case $? in
    0) echo "ok: the page passes check-html" ;;
    77) echo "skipped: check-html of the page (no Chromium, its driver or Selenium)" ;;
    *) echo "FAILED: check-html of the page"; sed 's/^/    /' "$tmp/out"; failures=$((failures + 1)) ;;
  esac
fi
echo "history_command_test: $failures failure(s)"
[ "$failures" = 0 ]
