"""What every OpenVINO report shares, laid out as OpenVINO's bug template asks: the environment fields (from
the environment the plain reproducer recorded in a matrix row) and the submission checklist. The ExecuTorch
reports' shared pieces are ``executorch_issue``.
"""

from typing import Any

from repro.reports import markdown as md
from repro.reports.matrix_row import MatrixRow

CHECKLIST = md.bullets([
    "[x] I'm reporting an issue. It's not a question.",
    "[x] I checked the problem with the documentation, FAQ, open issues, Stack Overflow, etc., and have not "
    "found a solution.",
    "[x] There is reproducer code and related data files such as images, videos, models, etc.",
])


def distribution(env: dict[str, Any]) -> str:
    return str(env.get("distribution") or env.get("os", "not recorded"))


def template_fields(row: MatrixRow, *, device_note: str, framework: str, model: str) -> str:
    """The environment fields of OpenVINO's bug template, from the environment the plain reproducer recorded in
    ``row`` (a matrix row); empty where it recorded none."""
    env, release = (row.get("plain") or {}).get("environment"), row["release"]
    if not env:
        return ""
    flags = f"; ISA flags: {env['cpu_flags']}" if env.get("cpu_flags") else ""
    capabilities = f"; `OPTIMIZATION_CAPABILITIES`: {env['optimization_capabilities']}" if env.get(
        "optimization_capabilities") else ""
    precision = (f"; `INFERENCE_PRECISION_HINT`: {env['inference_precision_hint']}" if env.get(
        "inference_precision_hint") else "")
    return md.bullets([
        f"**OpenVINO Version**: {env['openvino']} (pip wheel `openvino=={release}`)",
        f"**Operating System**: {distribution(env)} (kernel: {env.get('os', 'not recorded')})",
        f"**Device used for inference**: CPU ({env.get('cpu', 'not recorded')}{flags}{capabilities}{precision})"
        + (f"; {device_note}" if device_note else ""),
        f"**Framework**: {framework}",
        f"**Model used**: {model}",
        f"Python {env.get('python', '?')}, numpy {env.get('numpy', '?')}",
    ])
