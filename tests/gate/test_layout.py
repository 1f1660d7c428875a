"""README.md's Layout section says where each part of the project lives: every path it names exists, and every
folder of the packages and every command-line module of ``repro/`` is named in it, so the section cannot fall
behind the tree (it did once: it still described ``workaround/`` as one flat package after the split)."""

import re

import pytest

from tests.support.helpers import PROJECT

ENTRY = re.compile(r"^(?P<indent> {0,2})(?P<path>[\w./-]+)(\s|$)")


def layout_block():
    readme = (PROJECT / "README.md").read_text()
    section = readme.split("## Layout", 1)[1]
    return section.split("```", 2)[1]


def named_paths():
    """Each entry's path: at the margin from the project's root, two spaces in from the entry above it."""
    paths, parent = [], None
    for line in layout_block().splitlines():
        match = ENTRY.match(line)
        if match is None:
            continue
        path = match["path"]
        if not match["indent"]:
            parent = path if path.endswith("/") else None
            paths.append(path)
        elif parent is not None:
            paths.append(parent + path)
    return paths


def required():
    """The folders of repro/ (and its harness's), workaround/ (and its partitioner's) and tests/, and repro/'s
    modules."""
    folders = [*PROJECT.glob("repro/*/"), *PROJECT.glob("repro/harness/*/"), *PROJECT.glob("workaround/*/"),
               *PROJECT.glob("workaround/partitioner/*/"), *PROJECT.glob("tests/*/")]
    modules = [path for path in PROJECT.glob("repro/*.py") if path.name != "__init__.py"]
    return sorted(f"{path.relative_to(PROJECT)}/" for path in folders if path.name != "__pycache__") + sorted(
        str(path.relative_to(PROJECT)) for path in modules)


@pytest.mark.parametrize("path", named_paths())
def test_every_path_the_layout_names_exists(path):
    assert (PROJECT / path).exists(), f"README.md's Layout names {path}, which is not in the tree"


def test_the_layout_names_every_folder_and_command_line_module():
    block, named = layout_block(), set(named_paths())

    def mentioned(path):
        name = path.rstrip("/").rsplit("/", 1)[-1] + ("/" if path.endswith("/") else "")
        return path in named or name in block

    missing = [path for path in required() if not mentioned(path)]
    assert not missing, f"README.md's Layout does not say what these are: {missing}"
