"""docs/design.md's module map, held to the tree: a maintainer reading it meets every module of ``workaround/``."""

import re

from tests.support.helpers import PROJECT

DESIGN = PROJECT / "docs" / "design.md"


def mapped() -> set[str]:
    """Every module or package named in the first column of the design's "module | one job" table, as a path
    inside ``workaround/``."""
    text = DESIGN.read_text()
    table = text[text.index("| module (in `workaround/`) | one job |"):]
    rows = table[:table.index("\n\n")].splitlines()[2:]
    return {name for row in rows for name in re.findall(r"`([a-z_/]+\.py|[a-z_/]+/)`", row.split("|")[1])}


def in_the_tree() -> set[str]:
    """Every module of ``workaround/`` and every package in it (a package's own row says what it holds)."""
    folder = PROJECT / "workaround"
    return ({path.relative_to(folder).as_posix() for path in folder.rglob("*.py")
             if path.name != "__init__.py" or path.parent == folder}
            | {f"{path.parent.relative_to(folder).as_posix()}/" for path in folder.rglob("*/__init__.py")})


def test_the_design_maps_every_module_of_the_workaround_and_nothing_else():
    assert mapped() == in_the_tree(), {"not mapped": in_the_tree() - mapped(), "gone": mapped() - in_the_tree()}
