# Sourced by the project's scripts: puts the CMake and Ninja that scripts/setup installed first on PATH.
gpuchrono_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$gpuchrono_root/.tools/venv/bin:$PATH"
