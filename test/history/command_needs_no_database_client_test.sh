#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The `gpuchrono` command starts on a machine without SQLite or libpq (a GPU node that only runs `gpuchrono run`):
# neither is among the libraries its ELF file asks the dynamic loader for at start (DT_NEEDED); the history loads
# them when it opens a database. Fails when someone links either again.
# Usage: command_needs_no_database_client_test.sh GPUCHRONO
set -uo pipefail
program=$1
if ! command -v readelf >/dev/null; then
  echo "FAILED: readelf (binutils) is needed to read $program's dynamic section"; exit 1
fi
needed=$(readelf -d "$program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if [ -z "$needed" ]; then
  echo "FAILED: readelf found no NEEDED entry in $program (not a dynamically linked ELF file?)"; exit 1
fi
echo "$program needs at start:" $needed
if ! grep -q '^libc\.so' <<<"$needed"; then
  echo "FAILED: the list lacks libc, so it was not read right"; exit 1
fi
if grep -E '^(libpq|libsqlite3)\.' <<<"$needed"; then
  echo "FAILED: the command links a database client at start; load it where a database is opened instead"; exit 1
fi
echo "ok: neither libpq nor libsqlite3 is needed at start"
