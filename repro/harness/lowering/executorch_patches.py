"""ExecuTorch's OpenVINO backend with the changes we send upstream applied, for the gate to run.

The changes are tracked patch series (``repro/patches/executorch/<series>/NNNN-*.patch``, made with
``git format-patch`` against ExecuTorch main, whose ``backends/openvino`` Python files are byte-identical
to the 1.5.1 wheel's). They are proven the way a reviewer would check them: ``git apply`` to a copy of
what is installed, then run. Nothing here changes the installed packages.

- Python series (``copy-exclusion``, ``channels-last``, ``semantics``, ``llm-unquantized``,
  ``symbolic-sizes``, ``openvino-4wo-all-layers``, ``lfm2-conversation-start``): ``overlay`` copies the installed
  ``executorch/backends/openvino`` into ``<folder>/executorch/backends/`` (its sibling backends symlinked), and
  ``executorch/examples/models/llama`` and ``lfm2`` (the LLM pipeline's models) and ``extension/llm/export``
  likewise, and applies the series there. With ``<folder>`` first on ``PYTHONPATH`` a child
  process imports the patched backend: ``executorch`` is a namespace package, so ``executorch.exir`` and the rest
  still come from the installed wheel.
- The C++ series (``blob-lifetime``, ``output-order``): ``build_backend`` copies ``backends/openvino/runtime``
  from an ExecuTorch checkout, applies the series and compiles ``libexecutorch_backend_openvino.so`` against the
  installed wheel's headers and ``libexecutorch.so`` (about a second; the source dlopens OpenVINO's C API
  and needs no OpenVINO headers). The pybindings load that library through their RUNPATH, so a build
  first on ``LD_LIBRARY_PATH`` replaces the wheel's in a child process.
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

PATCHES = Path(__file__).resolve().parents[2] / "patches" / "executorch"
COPY_EXCLUSION, CHANNELS_LAST, SEMANTICS, BLOB_LIFETIME = "copy-exclusion", "channels-last", "semantics", \
    "blob-lifetime"
LLM_UNQUANTIZED = "llm-unquantized"  # export_llm with the OpenVINO backend and no weight compression exports
SYMBOLIC_SIZES = "symbolic-sizes"  # sizes, a KV cache's position and their checks delegated: dynamic shapes lower
OUTPUT_ORDER = "output-order"  # execute() sets each output before the inputs: shipped programs' copies right
PRECISION = "precision"  # the OpenVINO properties among the compile specs, at compile and at import
IMPORT_REASON = "import-reason"  # a model that does not import logs OpenVINO's reason (a foreign CPU's blob)
OPENVINO_4WO_ALL_LAYERS = "openvino-4wo-all-layers"  # openvino_4wo compresses the output layer at 4 bits too
LFM2_CONVERSATION_START = "lfm2-conversation-start"  # LFM2's conv state zero at position 0: reset() resets it
PYTHON_SERIES = (COPY_EXCLUSION, CHANNELS_LAST, SEMANTICS, LLM_UNQUANTIZED, SYMBOLIC_SIZES,
                 OPENVINO_4WO_ALL_LAYERS, LFM2_CONVERSATION_START)
# Change the C++ runtime, in the order they apply.
RUNTIME_SERIES = (BLOB_LIFETIME, OUTPUT_ORDER, PRECISION, IMPORT_REASON)
OP_TESTS = "backends/openvino/tests/*"  # what a series adds to or changes in ExecuTorch's own op tests
RUNTIME = Path("backends/openvino/runtime")
BACKEND_LIBRARY = "libexecutorch_backend_openvino.so"
SOURCE_VARIABLE = "EXECUTORCH_SOURCE"  # a checkout of pytorch/executorch, for the C++ series


class PatchFailed(RuntimeError):
    """A patch does not apply, or the patched backend does not build; the message says which and why."""


def patch_files(name: str) -> list[Path]:
    """The patch files of series ``name``, in the order they apply."""
    patches = sorted((PATCHES / name).glob("*.patch"))
    if not patches:
        raise PatchFailed(f"no patch series {name!r} in {PATCHES}")
    return patches


def python_series(names: Iterable[str] = PYTHON_SERIES) -> list[Path]:
    """The patch files of the Python series ``names``, series by series in the order they apply."""
    return [patch for name in names for patch in patch_files(name)]


def apply(patches: Iterable[Path], directory: str | Path, include: str | None = None) -> None:
    """``git apply`` each patch in ``directory`` (paths in the patches are relative to ExecuTorch's root);
    with ``include`` (a path pattern), only the files it matches."""
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(Path(directory).resolve().parent)}  # no enclosing repo
    for patch in patches:
        command = ["git", "apply", *([f"--include={include}"] if include else []), str(patch)]
        result = subprocess.run(command, cwd=directory, env=env, check=False, capture_output=True, text=True)
        if result.returncode:
            raise PatchFailed(f"{patch.name} does not apply in {directory}: {result.stderr.strip()}")


def installed_folder(package: str) -> Path:
    """The folder of an installed package (``executorch.backends``), as this interpreter imports it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PatchFailed(f"{package} is not installed here")
    return Path(next(iter(spec.submodule_search_locations)))


# The installed wheel's trees a Python series may change, relative to the executorch package folder.
PATCHED_TREES = (Path("backends/openvino"), Path("examples/models/llama"), Path("examples/models/lfm2"),
                 Path("extension/llm/export"))


def overlay(folder: str | Path, patches: Iterable[Path], include: str | None = None) -> Path:
    """``folder`` holding ``executorch/backends`` with the installed OpenVINO backend copied and patched (see
    the module docstring), and ``executorch/examples/models`` with the installed LLM example likewise; returns
    ``folder``, to put first on ``PYTHONPATH``."""
    installed = installed_folder("executorch.backends").parent
    root = Path(folder)
    for tree in PATCHED_TREES:
        copy_beside_links(installed, root / "executorch", tree)
    apply(patches, root / "executorch", include)
    return root


def copy_beside_links(installed: Path, copy: Path, tree: Path) -> None:
    """``copy / tree`` a copy of ``installed / tree``; in each regular package on the way down, what lies beside
    the path symlinked, so the package imports whole from ``copy`` (``executorch`` itself is a namespace
    package: the wheel's portion supplies the rest)."""
    source, target = installed, copy
    for depth, part in enumerate(tree.parts):
        target.mkdir(parents=True, exist_ok=True)
        for entry in source.iterdir() if depth else ():
            if entry.name not in (part, "__pycache__") and not os.path.lexists(target / entry.name):
                (target / entry.name).symlink_to(entry)
        source, target = source / part, target / part
    if target.is_symlink():  # linked beside a tree copied before (examples/models/llama beside lfm2)
        target.unlink()
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))


def source_tree(given: str | Path | None = None) -> Path | None:
    """The ExecuTorch checkout to build from: ``given``, else $EXECUTORCH_SOURCE; None when neither is set.
    A folder without ExecuTorch's OpenVINO runtime in it is an error, not a skip."""
    folder = given or os.environ.get(SOURCE_VARIABLE)
    if not folder:
        return None
    if not (Path(folder) / RUNTIME / "OpenvinoBackend.cpp").is_file():
        raise PatchFailed(f"{folder} is not an ExecuTorch checkout: it has no {RUNTIME}/OpenvinoBackend.cpp")
    return Path(folder)


def checkout_argument(parser: argparse.ArgumentParser, given: str | Path | None) -> Path:
    """The checkout a command line names (``--executorch-source``, else $EXECUTORCH_SOURCE); a usage error on
    ``parser`` (one line, exit 2) where it names none or not a checkout."""
    try:
        source = source_tree(given)
    except PatchFailed as error:
        parser.error(str(error))
    if source is None:
        parser.error(f"give --executorch-source DIR or set {SOURCE_VARIABLE}")
    return source


def patched_runtime(source: str | Path, folder: str | Path, patches: Iterable[Path] = ()) -> Path:
    """``folder`` holding ``backends/openvino/runtime`` copied from the checkout ``source``, the runtime's
    part of ``patches`` applied (a series may change Python files too); returns ``folder``."""
    shutil.copytree(Path(source) / RUNTIME, Path(folder) / RUNTIME)
    apply(patches, folder, include=f"{RUNTIME}/*")
    return Path(folder)


def build_backend(source: str | Path, folder: str | Path, patches: Iterable[Path] = (),
                  wheel: str | Path | None = None) -> Path:
    """Compile ``libexecutorch_backend_openvino.so`` from ``source``'s runtime with ``patches`` applied, into
    ``folder``, against the executorch package folder ``wheel`` (default: the one this interpreter imports;
    see the module docstring); returns ``folder``, to put first on ``LD_LIBRARY_PATH``."""
    wheel = Path(wheel) if wheel else installed_folder("executorch")
    tree = patched_runtime(source, Path(folder) / "source", patches)
    compiler = os.environ.get("CXX", "g++")
    command = build_command(compiler, wheel, tree / RUNTIME / "OpenvinoBackend.cpp",
                            Path(folder) / BACKEND_LIBRARY)
    try:
        result = subprocess.run(command, check=False, capture_output=True, text=True)
    except FileNotFoundError:
        raise PatchFailed(f"no C++ compiler {compiler!r} (set CXX)") from None
    if result.returncode:
        raise PatchFailed(f"building {BACKEND_LIBRARY} failed: {result.stderr.strip()[-2000:]}")
    return Path(folder)


def build_command(compiler: str, wheel: str | Path, source_file: str | Path, library: str | Path) -> list[str]:
    """The one compiler call that builds the backend against an installed executorch wheel."""
    return [compiler, "-std=c++17", "-O2", "-fPIC", "-shared", f"-I{wheel}/include",
            f"-I{wheel}/include/executorch/runtime/core/portable_type/c10", "-DC10_USING_CUSTOM_GENERATED_MACROS",
            str(source_file), "-o", str(library), f"-L{wheel}/lib", "-lexecutorch", "-ldl"]


def with_search_paths(python_path: str | Path | None = None, library_path: str | Path | None = None,
                      base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Environment variables for a child: ``base`` (default: this process's) with the folders put first on
    PYTHONPATH and LD_LIBRARY_PATH."""
    env = dict(os.environ if base is None else base)
    for variable, folder in (("PYTHONPATH", python_path), ("LD_LIBRARY_PATH", library_path)):
        if folder is not None:
            env[variable] = os.pathsep.join(filter(None, [str(folder), env.get(variable)]))
    return env


def main(argv: list[str] | None = None) -> None:
    """``python -m repro.harness.lowering.executorch_patches overlay DIR`` / ``build DIR --source CHECKOUT``: make
    the patched backend for a run by hand, and print the variable to set."""
    from repro.harness import cli
    from workaround.checker.command_line import OneLineErrors

    parser = OneLineErrors(prog="python -m repro.harness.lowering.executorch_patches",
                           description="ExecuTorch's OpenVINO backend with our patches, for a run by hand; "
                                       "exit status: 0 made, 1 a patch or the build failed, 2 usage error")
    commands = parser.add_subparsers(dest="command", required=True)
    overlay_command = commands.add_parser("overlay", help="the Python series applied to a copy of the installed "
                                                          "backend (then: PYTHONPATH=DIR)")
    overlay_command.add_argument("folder", type=Path, metavar="DIR", help="a folder that does not exist yet")
    overlay_command.add_argument("--series", action="append", choices=PYTHON_SERIES,
                                 help="repeatable; default: every Python series")
    build_command_parser = commands.add_parser("build", help="the runtime rebuilt from a checkout with the C++ "
                                                              "series (then: LD_LIBRARY_PATH=DIR)")
    build_command_parser.add_argument("folder", type=Path, metavar="DIR", help="a folder that does not exist yet")
    build_command_parser.add_argument("--source", type=Path, default=None,
                                      help=f"an ExecuTorch checkout (default: ${SOURCE_VARIABLE})")
    args = parser.parse_args(argv)
    if args.folder.exists() or args.folder.is_symlink():
        parser.error(f"{args.folder} exists: give a new folder (nothing is overwritten)")
    if problem := cli.cannot_write_into(args.folder):
        parser.error(f"cannot write {args.folder}: {problem}")
    source = None
    if args.command == "build":
        try:
            source = source_tree(args.source)
        except PatchFailed as error:
            parser.error(str(error))
        if source is None:
            parser.error(f"build: give --source CHECKOUT or set {SOURCE_VARIABLE}")
    try:
        if args.command == "overlay":
            overlay(args.folder, python_series(args.series or PYTHON_SERIES))
            print(f"PYTHONPATH={args.folder.resolve()}")
        else:
            assert source is not None  # build: checked above, before anything is made
            args.folder.mkdir(parents=True)
            build_backend(source, args.folder, [patch for name in RUNTIME_SERIES for patch in patch_files(name)])
            print(f"LD_LIBRARY_PATH={args.folder.resolve()}")
    except PatchFailed as error:
        parser.exit(1, f"{parser.prog}: {error}\n")


if __name__ == "__main__":
    main()
