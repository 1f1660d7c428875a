"""The torch-free checker (``openvino-pte-check``) and re-stamper (``openvino-pte-restamp``): what a shipped
``.pte`` will do where it is deployed, read from its bytes and its OpenVINO blobs with ``openvino`` and ``numpy``
only. ``pte/`` reads and verifies the file itself. Never imports torch, executorch or ``workaround.partitioner``
(an import-linter rule in ``pyproject.toml``, run by ``tox -e lint``)."""
