# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""On a GPU: every Python snippet of the documents (the blocks marked `<!-- snippet: NAME.py -->`), run as shown.
Without a device the consumer matrix only compiles them; a snippet that imports a package not installed here
(torch, triton, cupy) is skipped, naming it."""
import ast
import pathlib
import runpy
import types

import pytest

pytestmark = pytest.mark.gpu
ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTS = ["README.md", "docs/install.md", "docs/python.md"]


def _extractor():
    # test/consumers/snippets.py reads the markers; executed, not imported, so no bytecode lands in the checkout.
    path = ROOT / "test" / "consumers" / "snippets.py"
    module = types.ModuleType("snippets")
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module


def _python_snippets():
    snippets = _extractor()
    found = []
    for document in DOCUMENTS:
        if (ROOT / document).is_file():
            found += [pytest.param(block, id=block.marker)
                      for block in snippets.blocks(ROOT / document, document)
                      if block.marker and block.marker != "skip" and block.marker.endswith(".py")]
    return found


@pytest.mark.parametrize("block", _python_snippets())
def test_snippet_runs(block, tmp_path, monkeypatch):
    tree = ast.parse(block.text, filename=block.where())
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else []
        for name in names:
            pytest.importorskip(name.split(".")[0], reason=f"{block.where()} imports {name}")
    script = tmp_path / pathlib.PurePosixPath(block.marker).name
    script.write_text(block.text)
    monkeypatch.chdir(tmp_path)  # reports a snippet writes land here
    runpy.run_path(str(script), run_name="__main__")
