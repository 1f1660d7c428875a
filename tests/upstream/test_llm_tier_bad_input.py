"""repro/llm_tier.py given bad input, run as users run it: a usage error is one line and exit 2, found before any
export, and nothing is written."""

import pytest

from tests.support.bad_input import assert_refused_creating_nothing
from tests.support.helpers import REPRO

pytest.importorskip("torch")


@pytest.mark.parametrize(("arguments", "says"), [
    (["--cases", "llama3_2-kv-static-none,gpt2-kv-static-none"], "not an LLM case: 'gpt2-kv-static-none'"),
    (["--cases", "llama3_2-kv-static-2wo"], "--cases: not an LLM case: 'llama3_2-kv-static-2wo'"),
    (["--cases", "llama3_2"], "--cases: not an LLM case: 'llama3_2'"),
    (["--json", "{file}/records.json"], "--json: cannot write into"),
    (["--jobs", "0"], "--jobs: must be at least 1, got 0"),
], ids=["unknown_model_class", "unknown_compression", "not_four_parts", "json_under_a_file", "no_jobs"])
def test_bad_input_is_one_line_and_creates_nothing(tmp_path, arguments, says):
    assert_refused_creating_nothing(tmp_path, REPRO / "llm_tier.py", arguments, says)
