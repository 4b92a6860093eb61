"""The memo registry (printshop/memo.py, printshop/memos.py): every process-wide memo is declared
there, the registry lists and clears them, and PRINTSHOP_MEMO=off changes no byte of a build."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import printshop
from printshop import memo, memos
from printshop.project.paths import DEFAULT_DATA_DIR

PACKAGE = Path(printshop.__file__).parent

# module-level mutable state that is not a memo (what each holds: printshop/memos.py's docstring)
NOT_MEMOS = {
    ("check_codes.py", "CATALOGUE"),
    ("pipeline/workers.py", "_STATE"),
    ("typeset/fonts.py", "_registered"),
    ("typeset/templating.py", "_pruned"),
    ("reportlab_patches.py", "_finding"),
    ("reportlab_patches.py", "PATCHES"),
    ("reportlab_patches.py", "_AFTER_IMPORT"),
    ("memo.py", "REGISTRY"),
}
MEMO_MAKERS = {
    "Memo",
    "SizedMemo",
    "dict",
    "OrderedDict",
    "WeakKeyDictionary",
    "set",
    "defaultdict",
}


def _module_level_memos(path: Path) -> list[str]:
    """What `path` keeps at module level outside the registry: tables made there, functions cached
    there."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            value, target = (
                node.value,
                node.targets[0] if isinstance(node, ast.Assign) else node.target,
            )
            empty = isinstance(value, (ast.Dict, ast.List, ast.Set)) and not (
                getattr(value, "keys", None) or getattr(value, "elts", None)
            )
            made = (
                isinstance(value, ast.Call)
                and ast.unparse(value.func).split(".")[-1] in MEMO_MAKERS
            )
            if empty or made:
                found.append(ast.unparse(target))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                text = ast.unparse(decorator)
                if "cache" in text and not text.startswith("memos."):
                    found.append(f"{node.name} (@{text})")
    return found


def test_every_module_level_memo_is_declared_in_the_registry():
    undeclared = [
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "memos.py"
        for name in _module_level_memos(path)
        if (path.relative_to(PACKAGE).as_posix(), name) not in NOT_MEMOS
    ]
    assert undeclared == []


def test_every_declared_memo_says_what_it_is_keyed_by_and_is_used_where_it_says():
    for info in pkgutil.walk_packages(printshop.__path__, "printshop."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)  # (every memoized function is then defined)
    for name, kind, _, keyed_by, used_in in memo.listing():
        assert keyed_by and used_in, name
        where, _, what = used_in.partition(" ")
        source = (PACKAGE / where).read_text(encoding="utf-8")
        assert what.split()[0] in source, (name, used_in)
        assert kind != "NoneType", f"{name}: declared, but no function is memoized with it"


def test_clear_all_forgets_what_every_memo_keeps():
    from printshop.project.units import parse_length

    parse_length("63mm")
    assert memos.LENGTHS_READ and memo.REGISTRY["lengths_read"].size() > 0
    memo.clear_all()
    assert all(size == 0 for _, _, size, _, _ in memo.listing())
    assert parse_length("63mm") == memos.LENGTHS_READ["63mm"]  # kept again afterwards


def test_with_memos_off_nothing_is_kept():
    child = (
        "from printshop import memo, memos\n"
        "from printshop.project.units import parse_length\n"
        "from printshop.project.paths import user_cache_dir\n"
        "assert not memo.ON\n"
        "parse_length('63mm'); memos.FITTED['x'] = 1; memos.SUBSETS.put('x', b'abc')\n"
        "assert not memos.LENGTHS_READ and not memos.FITTED and not len(memos.SUBSETS)\n"
        "assert user_cache_dir('fits') is None\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PRINTSHOP_MEMO": "off"},
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def _files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".printshop-cache" not in path.parts
    }


def test_the_catalogue_built_with_memos_off_is_the_same_bytes_as_with_them_on(tmp_path):
    """Every game and language, the pnp target on A4 (Letter sheets add no other work a memo
    keeps), built in two processes (the switch is read at import): one with every memo off, one
    with them on and an empty user cache folder. Seen failing without
    reportlab_patches.split_without_changing_lines (a French booklet differed)."""
    builds = {}
    for setting in ("off", "on"):
        env = {
            **os.environ,
            "PRINTSHOP_MEMO": setting,
            "PRINTSHOP_CACHE": str(tmp_path / "cache"),
            "SOURCE_DATE_EPOCH": "1700000000",
        }
        command = [sys.executable, "-m", "printshop", "build", "--quiet", "--force"]
        command += ["--target", "pnp", "--paper", "a4", "--data", str(DEFAULT_DATA_DIR)]
        command += ["--out", str(tmp_path / setting)]
        builds[setting] = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    for setting, process in builds.items():
        output, _ = process.communicate(timeout=900)
        assert process.returncode == 0, (setting, output[-2000:])
    off, on = _files(tmp_path / "off"), _files(tmp_path / "on")
    assert len(on) > 50 and sorted(off) == sorted(on)
    assert [name for name in on if off[name] != on[name]] == []


def test_a_files_stamp_tells_another_file_of_the_same_size_and_time(tmp_path):
    """Memos keyed by a file (images, fonts, a text's lines) took (mtime, size): a symbolic link
    re-pointed to a file of the same size and time, or such a file put in place, looked unchanged to
    a session (issue 54, watch and a symlink swapped). The stamp holds which file it is too."""
    import os

    from printshop.memo import file_stamp

    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text("title: one\n")
    second.write_text("title: two\n")
    times = first.stat()
    os.utime(second, ns=(times.st_atime_ns, times.st_mtime_ns))
    link = tmp_path / "text.yaml"
    link.symlink_to(first.name)
    before = file_stamp(link)
    assert file_stamp(link) == before  # the same file, untouched: the same stamp
    swap = tmp_path / "swap"
    swap.symlink_to(second.name)
    os.replace(swap, link)
    assert file_stamp(link) != before
    assert file_stamp(tmp_path / "gone.yaml") == (0,)
