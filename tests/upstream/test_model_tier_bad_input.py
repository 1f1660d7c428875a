"""repro/model_tier.py given bad input or a missing library, run as users run it: a usage error is one line and
exit 2, a missing transformers (it comes with tox -e models only) one line and 125, could not test (it was a
traceback and exit 1, the tier's "a run differs from eager")."""

import importlib.util

import pytest

from tests.support.bad_input import assert_one_line, assert_refused_creating_nothing
from tests.support.helpers import REPRO, run_cli

pytest.importorskip("torch")


@pytest.mark.skipif(importlib.util.find_spec("transformers") is not None, reason="transformers is installed here")
def test_without_transformers_it_could_not_test():
    result = run_cli("python", REPRO / "model_tier.py", "--models", "bert_with_attention_mask", timeout=300)
    assert_one_line(result, 125, "COULD NOT TEST: transformers not installed (tox -e models installs")


@pytest.mark.parametrize(("arguments", "says"), [
    (["--models", "nosuch"], "--models: unknown nosuch"),
    (["--json", "{file}/records.json"], "--json: cannot write into"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
], ids=["unknown_model", "json_under_a_file", "unknown_flag"])
def test_bad_input_is_one_line_and_creates_nothing(tmp_path, arguments, says):
    assert_refused_creating_nothing(tmp_path, REPRO / "model_tier.py", arguments, says)
