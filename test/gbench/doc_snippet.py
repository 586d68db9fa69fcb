#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes one marked code block of a document to a file, byte for byte, so the test builds what a reader copies.
    doc_snippet.py DOCUMENT NAME OUT   (NAME: the block's `<!-- snippet: NAME -->` marker)"""
import pathlib
import sys
import types


def main():
    document, name, out = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
    extractor = pathlib.Path(__file__).resolve().parents[1] / "consumers" / "snippets.py"
    snippets = types.ModuleType("snippets")
    exec(compile(extractor.read_text(), str(extractor), "exec"), snippets.__dict__)
    found = [b for b in snippets.blocks(document, document.name) if b.marker == name]
    if len(found) != 1:
        sys.exit(f"doc_snippet.py: {document.name} has {len(found)} blocks marked `<!-- snippet: {name} -->`, not one")
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text() != found[0].text:  # unchanged: no rebuild
        out.write_text(found[0].text)


if __name__ == "__main__":
    main()
