#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The code blocks of the documents, as files: what CI builds is what a reader copies.

A fenced code block whose previous line is `<!-- snippet: NAME -->` becomes the file NAME (a relative path) under
--out, byte for byte; `<!-- snippet: skip -->` marks a block that is not built (a shell session, an excerpt of
output, a fragment). Files under one folder with a CMakeLists.txt form one CMake project (readme/CMakeLists.txt,
readme/host.cpp and readme/kernels.cu); a Python file outside such a folder is compiled on its own.

    snippets.py --out DIR [--source-dir SRC --git-repository URL --git-tag COMMIT] DOC.md...
        writes the files and DIR/snippets.cmake, one call per thing to build:
          snippet_project(<folder> <how> <document>)   how: package, module, fetchcontent or subdirectory
          snippet_python(<file> <document>)
        and stops (exit 1) on a marked block that nothing here can build, so no block goes unbuilt unnoticed.
    snippets.py --check-marked DOC.md...
        exit 1 unless every document exists, has markers, and every block with a language is marked.

How a project takes gpuchrono decides how it is built (test/consumers/CMakeLists.txt): find_package(gpuchrono ...
COMPONENTS module) is `module`, another find_package(gpuchrono ...) is `package`, FetchContent_Declare(gpuchrono
...) is `fetchcontent` and add_subdirectory(<path with gpuchrono in it>) is `subdirectory`. A FetchContent
project gets two values replaced, and only those: GIT_REPOSITORY becomes --git-repository and GIT_TAG becomes
--git-tag (a clone of this checkout and its commit, where the document names the project's repository and a
release or commit). An add_subdirectory project gets its path as a link to --source-dir.
"""
import argparse
import pathlib
import re
import sys

MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)")
VALUE = r'("[^"]*"|<[^>]*>|[^\s)]+)'  # a CMake argument, or a <placeholder> as documents write one


class SnippetError(Exception):
    pass


class Block:
    def __init__(self, document, line, language, text, marker):
        self.document, self.line, self.language, self.text, self.marker = document, line, language, text, marker

    def where(self):
        return f"{self.document}:{self.line}"


def blocks(document: pathlib.Path, shown_as: str):
    """Every fenced code block of a Markdown file, with the marker on the line before it (or None)."""
    lines = document.read_text(encoding="utf-8").splitlines(keepends=True)
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            marker = MARKER.match(lines[i])
            if marker and not (i + 1 < len(lines) and FENCE.match(lines[i + 1])):
                raise SnippetError(f"{shown_as}:{i + 1}: the marker `{marker.group(1)}` is not on the line right "
                                   "before a fenced code block")
            i += 1
            continue
        indent, fence, language = len(opening.group(1)), opening.group(2), opening.group(3)
        previous = MARKER.match(lines[i - 1]) if i > 0 else None
        body = []
        j = i + 1
        while j < len(lines):
            closing = re.match(r"^ {0,3}(" + re.escape(fence[0]) + r"{" + str(len(fence)) + r",})\s*$", lines[j])
            if closing:
                break
            line = lines[j]
            strip = min(indent, len(line) - len(line.lstrip(" ")))
            body.append(line[strip:])
            j += 1
        else:
            raise SnippetError(f"{shown_as}:{i + 1}: the code block is never closed")
        yield Block(shown_as, i + 1, language, "".join(body), previous.group(1) if previous else None)
        i = j + 1


def checked_name(block):
    name = block.marker
    path = pathlib.PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or name.endswith("/") or name == "snippets.cmake":
        raise SnippetError(f"{block.where()}: `{name}` is not a relative file path inside the snippets folder")
    return path


def how_built(project, cmakelists):
    """How a project's CMakeLists.txt takes gpuchrono, which decides its consumer settings."""
    text = re.sub(r"#[^\n]*", "", cmakelists.text)  # comments do not count
    if re.search(r"FetchContent_Declare\(\s*gpuchrono\b", text):
        return "fetchcontent"
    subdirectory = re.search(r"add_subdirectory\(\s*" + VALUE, text)
    if subdirectory and "gpuchrono" in subdirectory.group(1):
        return "subdirectory"
    package = re.search(r"find_package\(\s*gpuchrono\b([^)]*)\)", text)
    if package and re.search(r"\bCOMPONENTS\b[^)]*\bmodule\b", package.group(1)):
        return "module"
    if package:
        return "package"
    raise SnippetError(f"{cmakelists.where()}: the project {project}/ takes gpuchrono none of the ways the consumer "
                       "matrix builds (find_package, FetchContent_Declare or add_subdirectory of it)")


def pinned(cmakelists, repository, tag):
    """The FetchContent project with GIT_REPOSITORY and GIT_TAG replaced, and nothing else."""
    text = cmakelists.text
    for keyword, value in (("GIT_REPOSITORY", repository), ("GIT_TAG", tag)):
        text, count = re.subn(r"(\b" + keyword + r"\s+)" + VALUE, lambda m: m.group(1) + value, text)
        if count != 1:
            raise SnippetError(f"{cmakelists.where()}: FetchContent_Declare(gpuchrono ...) must name {keyword} "
                               f"once (found {count})")
    return text


def extract(documents, out, source_dir=None, repository=None, tag=None):
    named = {}
    for document, shown_as in documents:
        for block in blocks(document, shown_as):
            if block.marker is None or block.marker == "skip":
                continue
            name = checked_name(block)
            if name in named:
                raise SnippetError(f"{block.where()}: `{name}` is also the snippet at {named[name].where()}")
            named[name] = block
    projects = {name.parent: block for name, block in named.items() if name.name == "CMakeLists.txt"}
    calls, files = [], {}
    for name, block in sorted(named.items()):
        owner = next((folder for folder in [name.parent, *name.parent.parents] if folder in projects), None)
        if owner is None and name.suffix == ".py":
            calls.append(f"snippet_python({name} {block.document})")
        elif owner is None:
            raise SnippetError(f"{block.where()}: nothing builds the snippet `{name}`: put it in a folder with a "
                               "CMakeLists.txt snippet, make it a .py file, or mark the block "
                               "`<!-- snippet: skip -->`")
        files[name] = block.text
    for project, cmakelists in sorted(projects.items()):
        how = how_built(project, cmakelists)
        if how == "fetchcontent":
            if not (repository and tag):
                raise SnippetError(f"{cmakelists.where()}: a FetchContent project needs --git-repository and --git-tag")
            files[project / "CMakeLists.txt"] = pinned(cmakelists, repository, tag)
        calls.append(f"snippet_project({project} {how} {cmakelists.document})")
        if how == "subdirectory":
            if not source_dir:
                raise SnippetError(f"{cmakelists.where()}: an add_subdirectory project needs --source-dir")
            path = re.search(r"add_subdirectory\(\s*" + VALUE, re.sub(r"#[^\n]*", "", cmakelists.text)).group(1)
            link = out / project / path.strip('"')
            link.parent.mkdir(parents=True, exist_ok=True)
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(pathlib.Path(source_dir).resolve(), target_is_directory=True)
    for name, text in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
    manifest = "# Written by test/consumers/snippets.py: what the documents' snippets build as.\n"
    (out / "snippets.cmake").write_text(manifest + "".join(call + "\n" for call in calls), encoding="utf-8")
    return calls


def unmarked(documents):
    """What keeps a document from having every code block built: it is missing, has no marker, or a block with a
    language has none."""
    problems = []
    for document, shown_as in documents:
        if not document.is_file():
            problems.append(f"{shown_as}: missing")
            continue
        found = list(blocks(document, shown_as))
        if not any(block.marker for block in found):
            problems.append(f"{shown_as}: no `<!-- snippet: NAME -->` marker in it")
        problems += [f"{block.where()}: a ```{block.language} block without a marker (`<!-- snippet: NAME -->`, "
                     "or `<!-- snippet: skip -->`)" for block in found if block.language and block.marker is None]
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("documents", nargs="+", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path)
    parser.add_argument("--check-marked", action="store_true")
    parser.add_argument("--root", type=pathlib.Path, help="documents are named relative to it in messages")
    parser.add_argument("--source-dir")
    parser.add_argument("--git-repository")
    parser.add_argument("--git-tag")
    args = parser.parse_args(argv)
    root = args.root.resolve() if args.root else None

    def shown(document):
        absolute = document.resolve()
        return str(absolute.relative_to(root)) if root and root in absolute.parents else str(document)

    documents = [(document, shown(document)) for document in args.documents]
    try:
        if args.check_marked:
            problems = unmarked(documents)
            for problem in problems:
                print(f"snippets: {problem}", file=sys.stderr)
            return 1 if problems else 0
        if not args.out:
            parser.error("--out is needed to extract")
        args.out.mkdir(parents=True, exist_ok=True)
        for call in extract(documents, args.out, args.source_dir, args.git_repository, args.git_tag):
            print(call)
        return 0
    except SnippetError as error:
        print(f"snippets: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
