#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctest consumer.snippets.extraction: snippets.py on snippets_fixture.md writes each marked block verbatim, sorts
the projects by how they take gpuchrono, pins a FetchContent project by two values only, and stops on every block
it could not build.  Usage: snippets_test.py WORK_DIR"""
import pathlib
import shutil
import subprocess
import sys

here = pathlib.Path(__file__).resolve().parent
work = pathlib.Path(sys.argv[1])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
fixture = here / "snippets_fixture.md"


def run(*args):
    return subprocess.run([sys.executable, str(here / "snippets.py"), *map(str, args)], capture_output=True, text=True)


def expect(condition, what):
    if not condition:
        sys.exit(f"snippets_test: {what}")


# The fixture extracts, and every block in it is accounted for.
out = work / "fixture"
done = run("--out", out, "--git-repository", "file:///clone.git", "--git-tag", "0123abcd", "--source-dir", here,
           fixture)
expect(done.returncode == 0, f"extracting the fixture failed:\n{done.stderr}")
expect(run("--check-marked", fixture).returncode == 0, "the fixture has an unmarked block")
manifest = (out / "snippets.cmake").read_text().splitlines()[1:]
expect(manifest == [f"snippet_python(python/quickstart.py {fixture})",
                    f"snippet_project(app package {fixture})",
                    f"snippet_project(fetched fetchcontent {fixture})",
                    f"snippet_project(modules module {fixture})"], f"unexpected manifest {manifest}")

# Verbatim: the text between the fences, a list item's indentation taken off.
text = fixture.read_text()
for name in ["app/CMakeLists.txt", "app/main.cpp", "modules/CMakeLists.txt", "python/quickstart.py"]:
    expect((out / name).read_text() in text, f"{name} is not the fixture's block verbatim")
expect((out / "app/kernels.cu").read_text() == "#include <gpuchrono/gpuchrono.hpp>\n\n__global__ void nothing() {}\n",
       "the indented block kept its indentation")
# FetchContent: GIT_REPOSITORY and GIT_TAG replaced, nothing else.
fetched = (out / "fetched/CMakeLists.txt").read_text()
shown = text.split("<!-- snippet: fetched/CMakeLists.txt -->\n```cmake\n")[1].split("```")[0]
expect(fetched == shown.replace("<gpuchrono's repository>", "file:///clone.git").replace("v0.3.0", "0123abcd"),
       f"the FetchContent project changed beyond its two values:\n{fetched}")

# Each of these stops the extraction, naming the document's line.
failures = {
    "nothing builds": "<!-- snippet: notes/run.sh -->\n```sh\nmake\n```\n",
    "nothing builds the snippet `lone.cpp`": "<!-- snippet: lone.cpp -->\n```c++\nint main() {}\n```\n",
    "not on the line right before": "<!-- snippet: a.py -->\n\n```python\npass\n```\n",
    "is also the snippet at": "<!-- snippet: a.py -->\n```python\n1\n```\n<!-- snippet: a.py -->\n```python\n2\n```\n",
    "not a relative file path": "<!-- snippet: ../a.py -->\n```python\npass\n```\n",
    "none of the ways": "<!-- snippet: p/CMakeLists.txt -->\n```cmake\nproject(p)\n```\n",
    "never closed": "<!-- snippet: a.py -->\n```python\npass\n",
}
for i, (message, document) in enumerate(failures.items()):
    md = work / f"failing{i}.md"
    md.write_text(document)
    result = run("--out", work / f"failing{i}", md)
    expect(result.returncode == 1 and message in result.stderr and f"{md}:" in result.stderr,
           f"expected a stop naming `{message}` and the line, got ({result.returncode}): {result.stderr}")
unmarked = work / "unmarked.md"
unmarked.write_text("<!-- snippet: a.py -->\n```python\npass\n```\n\n```c++\nint x;\n```\n")
result = run("--check-marked", unmarked, work / "absent.md")
expect(result.returncode == 1 and f"{unmarked}:6: a ```c++ block" in result.stderr and "absent.md: missing" in result.stderr,
       f"--check-marked let an unmarked block or a missing document pass: {result.stderr}")
print(f"snippets_test: the fixture's 4 projects and files, and {len(failures) + 1} refusals, as expected")
