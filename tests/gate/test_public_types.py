"""``from workaround import ...`` gives a user's type checker the real types: the package ships ``py.typed``, and
its names are imported lazily (PEP 562) so that ``import workaround`` stays cheap; the ``TYPE_CHECKING`` imports
are what mypy reads instead of ``__getattr__``'s ``object``. A strict user script type-checks, and a wrong one is
caught: the names are neither ``object`` nor ``Any``."""

import ast
import subprocess
import sys
import textwrap

import pytest

import workaround
from tests.support.helpers import PROJECT

pytest.importorskip("mypy", reason="mypy is in the test group: reinstall the env")

USER_SCRIPT = '''\
from pathlib import Path

from workaround import PRECISION_KEY, CopySafeOpenvinoPartitioner, Finding, check_program, copy_safe_openvino


def export(specs: list[object]) -> CopySafeOpenvinoPartitioner:
    with copy_safe_openvino():
        return CopySafeOpenvinoPartitioner(specs)


def findings(path: Path) -> list[str]:
    found: list[Finding] = check_program(path, target_cpu="avx2")
    key: str = PRECISION_KEY
    return [key, *(finding.detail for finding in found)]
'''
WRONG_SCRIPT = '''\
from workaround import check_program, is_installed

count: int = check_program("model.pte")
name: str = is_installed()
'''


def type_checked(tmp_path, source):
    """mypy --strict over ``source`` as a user's script, ExecuTorch and torch taken as Any (not followed: what is
    checked is the package's own surface, in seconds)."""
    script = tmp_path / "user_script.py"
    script.write_text(source)
    config = tmp_path / "mypy.ini"
    config.write_text(textwrap.dedent("""\
        [mypy]
        strict = True
        [mypy-torch.*,executorch.*,flatbuffers.*,numpy.*]
        follow_imports = skip
        ignore_missing_imports = True
        [mypy-workaround.*]
        follow_imports = silent
        """))
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config), "--no-incremental",
                           str(script)], capture_output=True, text=True, cwd=PROJECT, check=False)


def test_the_type_checking_imports_name_each_public_name_where_it_lives():
    tree = ast.parse((PROJECT / "workaround" / "__init__.py").read_text())
    guarded = next(node for node in tree.body
                   if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    imported = {alias.asname: statement.module for statement in guarded.body
                if isinstance(statement, ast.ImportFrom) for alias in statement.names}
    assert imported == workaround._HOMES


def test_a_strict_user_script_type_checks(tmp_path):
    result = type_checked(tmp_path, USER_SCRIPT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_wrong_call_is_caught_so_the_names_are_not_any(tmp_path):
    result = type_checked(tmp_path, WRONG_SCRIPT)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Incompatible types in assignment (expression has type "list[Finding]", variable has type "int")' \
        in result.stdout
    assert 'expression has type "bool", variable has type "str"' in result.stdout
