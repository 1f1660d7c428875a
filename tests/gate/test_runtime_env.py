"""``openvino-runtime-env`` and ``point_executorch_at_openvino()``: what a model owner runs so that ExecuTorch's
runtime finds OpenVINO (``workaround.contract.openvino_library``). The runner's own failure without it, and its
generation with it, are held in tests/runner."""

import ctypes
import importlib.util
import os
import shlex

import pytest

from tests.support.helpers import run_cli
from workaround import runtime_env
from workaround.contract import openvino_library


def test_it_prints_a_shell_line_naming_a_library_that_loads():
    result = run_cli("python", "-m", "workaround.runtime_env")
    assert result.returncode == 0, result.stderr
    [word] = shlex.split(result.stdout.removeprefix("export "))
    name, path = word.split("=", 1)
    assert name == openvino_library.VARIABLE
    ctypes.CDLL(path)  # what the backend's dlopen does


def test_a_usage_error_is_one_line_and_exit_2():
    result = run_cli("python", "-m", "workaround.runtime_env", "--shell", "fish")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1
    assert "unrecognized arguments" in result.stderr


def test_without_openvino_it_says_so_in_one_line_and_exits_1(monkeypatch, capsys):
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "openvino" else found(name))
    assert runtime_env.main([]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "openvino-runtime-env: openvino is not installed here: pip install openvino\n"


@pytest.mark.parametrize("already", [None, "/opt/openvino/libopenvino_c.so"], ids=["unset", "set by the user"])
def test_the_python_call_sets_the_variable_only_where_unset(monkeypatch, already):
    if already is None:
        monkeypatch.delenv(openvino_library.VARIABLE, raising=False)
    else:
        monkeypatch.setenv(openvino_library.VARIABLE, already)
    named = openvino_library.point_executorch_at_openvino()
    assert str(named) == (already or str(openvino_library.installed_library()))
    assert os.environ[openvino_library.VARIABLE] == str(named)
