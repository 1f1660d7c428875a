"""docs/design.md's module map, held to the tree: a maintainer reading it meets every module of ``workaround/``."""

import re

from tests.helpers import PROJECT

DESIGN = PROJECT / "docs" / "design.md"


def mapped() -> set[str]:
    """Every module or folder named in the first column of the design's "module | one job" table."""
    text = DESIGN.read_text()
    table = text[text.index("| module | one job |"):]
    rows = table[:table.index("\n\n")].splitlines()[2:]
    return {name for row in rows for name in re.findall(r"`([a-z_]+\.py|[a-z_]+/)`", row.split("|")[1])}


def in_the_tree() -> set[str]:
    folder = PROJECT / "workaround"
    return ({path.name for path in folder.glob("*.py") if path.name != "__init__.py"}
            | {f"{path.parent.name}/" for path in folder.glob("*/__init__.py")})


def test_the_design_maps_every_module_of_the_workaround_and_nothing_else():
    assert mapped() == in_the_tree(), {"not mapped": in_the_tree() - mapped(), "gone": mapped() - in_the_tree()}
