"""repro/attachments/openvino_import_lifetime.py, the plain OpenVINO reproducer of the blob-lifetime change,
held to the release table on the installed release (no ExecuTorch needed: it runs in every tox env)."""

import json

from tests.helpers import ATTACHMENTS, run_cli
from tests.outcomes import UPSTREAM_CHANGED
from tests.release_behaviour import C_API_IN_WHEEL_FROM, IMPORT_KEEPS_CALLER_BUFFER_FROM, installed_openvino

SCRIPT = ATTACHMENTS / "openvino_import_lifetime.py"


def run(*args):
    return run_cli("python", SCRIPT, *args, timeout=300)


def test_import_lifetime_reproducer_matches_the_release_table():
    release = installed_openvino()
    expected = (125 if release < C_API_IN_WHEEL_FROM else 1 if release >= IMPORT_KEEPS_CALLER_BUFFER_FROM else 0)
    result = run("--json")
    report = json.loads(result.stdout)
    assert result.returncode == report["exit_code"] == expected, (
        f"OpenVINO {release}: {report['verdict']}. " + (UPSTREAM_CHANGED if expected == 1 else ""))
    if expected == 1:
        assert report["actual"] != report["expected"]


def test_text_report_shows_expected_and_actual_and_ends_with_the_verdict():
    lines = run().stdout.splitlines()
    if installed_openvino() >= C_API_IN_WHEEL_FROM:
        assert lines[1].startswith("expected y[0] = x + c = [")
        assert lines[2].startswith("actual   y[0]         = [")
    assert lines[-1].split(":")[0] in ("OK", "BUG REPRODUCED", "COULD NOT TEST")


def test_unknown_argument_is_a_usage_error():
    result = run("--jsn")
    assert result.returncode == 2
    assert result.stderr.strip() == ("openvino_import_lifetime.py: error: unknown arguments "
                                     "(usage: openvino_import_lifetime.py [--json])")

