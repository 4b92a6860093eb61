"""Where the test suite's time goes: a pytest plugin for measuring issue 17's one-minute target.

    PYTHONPATH=benchmarks pytest -p suite_timing                 # the suite as CI runs it, timed
    PYTHONPATH=benchmarks pytest -p suite_timing --suite-timing-top 40

Each pytest-xdist worker (or the single process) records, per test: its wall time (setup, call and
teardown), the time spent inside printshop's `check` and `build` (outermost calls only: a build's
own check is the build's), and its CPU time; at the end, its own CPU time and its children's (the
builds' render processes, Ghostscript, qpdf, pip, Chromium). The controller then prints:

- when the workers started their first test and ended their last, against the run's start and end: the fixed
  cost of bringing the workers up (importing, collecting) and of the tail;
- each worker's busy time, its CPU and its children's;
- the summed time in `check`, in `build` and in the tests' own work, per test file and for the slowest tests.

It also lists the CPU time of the processes each test started (`printshop`, Ghostscript, qpdf, pip,
Chromium; a build's own render processes count as its children too), by program, and the tests with
the most.

Figures are wall-clock on a shared machine: compare runs taken side by side, and calibrate with a
fixed loop (`python -c "for i in range(10_000_000): pass"`) as the other benchmarks here do. Nothing
is written outside a temporary folder; the plugin changes no test's behaviour beyond wrapping the
two functions in a timer.
"""

from __future__ import annotations

import json
import os
import resource
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pytest

_FOLDER_ENV = "PRINTSHOP_SUITE_TIMING_DIR"
_rows: list[dict] = []
_current: dict | None = None
_depth = 0
_started = time.time()


def pytest_addoption(parser):
    parser.addoption(
        "--suite-timing-top", type=int, default=25, help="how many of the slowest tests to list"
    )


def pytest_configure(config):
    if os.environ.get("PYTEST_XDIST_WORKER") is None and _FOLDER_ENV not in os.environ:
        os.environ[_FOLDER_ENV] = tempfile.mkdtemp(prefix="suite-timing-")  # the workers inherit it
        config._suite_timing_started = time.time()


def _wrap() -> None:
    import printshop.pipeline.build as build_module

    for name in ("check", "build"):
        real = getattr(build_module, name)
        if getattr(real, "_suite_timed", False):
            continue

        def timed(*args, _real=real, _name=name, **kwargs):
            global _depth
            if _depth or _current is None:
                return _real(*args, **kwargs)
            _depth += 1
            started = time.perf_counter()
            try:
                return _real(*args, **kwargs)
            finally:
                _depth -= 1
                _current[_name] += time.perf_counter() - started
                _current[_name + "s"] += 1

        timed._suite_timed = True
        timed.__wrapped__ = real
        setattr(build_module, name, timed)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wrap_popen() -> None:
    """Counts the child processes each test starts, by program name (`printshop`, `gs`, `qpdf`, …)."""
    import subprocess

    real = subprocess.Popen.__init__
    if getattr(real, "_suite_timed", False):
        return

    def counted(self, args, *rest, **kwargs):
        if _current is not None:
            first = args if isinstance(args, (str, bytes)) else (list(args)[:3] or [""])
            if not isinstance(first, (str, bytes)):
                # `python -m printshop` and `python script.py` are named after the module or script
                words = [str(word) for word in first]
                name = Path(words[0]).name
                if name.startswith("python") and len(words) > 1:
                    if words[1] == "-c":
                        name = "python -c"
                    else:
                        name = (
                            words[2] if words[1] == "-m" and len(words) > 2 else Path(words[1]).name
                        )
            else:
                name = Path(str(first).split()[0]).name
            _current["children"].append(name)
        return real(self, args, *rest, **kwargs)

    counted._suite_timed = True
    subprocess.Popen.__init__ = counted


_wrap_popen()
# when `-p` imports the plugin: before tests/conftest.py and the test modules import the two
# functions
_wrap()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _current
    _current = {
        "test": item.nodeid,
        "start": time.time(),
        "check": 0.0,
        "build": 0.0,
        "checks": 0,
        "builds": 0,
        "children": [],
    }
    cpu, children = time.process_time(), _children_cpu()
    yield
    _current["end"] = time.time()
    _current["cpu"] = time.process_time() - cpu
    _current["children_cpu"] = _children_cpu() - children
    _rows.append(_current)
    _current = None


def pytest_sessionfinish(session):
    folder = os.environ.get(_FOLDER_ENV)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if folder is None or (worker is None and hasattr(session.config, "workerinput")):
        return
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    record = {
        "worker": worker or "main",
        "started": _started,
        "rows": _rows,
        "cpu": own.ru_utime + own.ru_stime,
        "children_cpu": children.ru_utime + children.ru_stime,
    }
    Path(folder, f"{record['worker']}.json").write_text(json.dumps(record), encoding="utf-8")


def pytest_terminal_summary(terminalreporter, config):
    if os.environ.get("PYTEST_XDIST_WORKER") is not None or not hasattr(
        config, "_suite_timing_started"
    ):
        return
    folder = Path(os.environ[_FOLDER_ENV])
    records = [
        json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))
    ]
    if not records:
        return
    write = terminalreporter.write_line
    began, now = config._suite_timing_started, time.time()
    write("")
    write(f"suite timing: {now - began:.1f} s from the controller's start to this summary")
    for record in records:
        rows = record["rows"]
        if not rows:
            continue
        first, last = min(r["start"] for r in rows), max(r["end"] for r in rows)
        busy = sum(r["end"] - r["start"] for r in rows)
        write(
            f"  {record['worker']}: first test at {first - began:.1f} s, last ended at {last - began:.1f} s; "
            f"busy {busy:.1f} s; CPU {record['cpu']:.1f} s, its children's {record['children_cpu']:.1f} s"
        )
    rows = [row for record in records for row in record["rows"]]
    total = sum(r["end"] - r["start"] for r in rows)
    checks, builds = sum(r["check"] for r in rows), sum(r["build"] for r in rows)
    write(
        f"  summed test time {total:.1f} s: check {checks:.1f} s ({sum(r['checks'] for r in rows)} calls), "
        f"build {builds:.1f} s ({sum(r['builds'] for r in rows)} calls), the tests' own {total - checks - builds:.1f} s"
    )
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for r in rows:
        entry = by_file[r["test"].split("::")[0]]
        entry[0] += r["end"] - r["start"]
        entry[1] += r["check"]
        entry[2] += r["build"]
        entry[3] += r["cpu"] + r["children_cpu"]
    write("  per file (wall, of which check, build; CPU with the children's):")
    for name, (wall, check, build, cpu) in sorted(by_file.items(), key=lambda item: -item[1][0])[
        :20
    ]:
        write(f"    {wall:6.1f} s  check {check:5.1f}  build {build:5.1f}  CPU {cpu:5.1f}  {name}")
    write(
        "  CPU: the tests' own processes {:.1f} s, their children {:.1f} s; children started, by program:".format(
            sum(r["cpu"] for r in rows), sum(r["children_cpu"] for r in rows)
        )
    )
    programs: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for r in rows:
        for name in set(
            r["children"]
        ):  # a test's children's CPU is shared out over the programs it started
            programs[name][0] += r["children"].count(name)
            programs[name][1] += r["children_cpu"] * r["children"].count(name) / len(r["children"])
    for name, (count, cpu) in sorted(programs.items(), key=lambda item: -item[1][1])[:12]:
        write(f"    {cpu:6.1f} s  {count:4d} runs  {name}")
    write("  the most CPU in children (a build's render processes included):")
    for r in sorted(rows, key=lambda r: -r["children_cpu"])[:10]:
        write(f"    {r['children_cpu']:6.2f} s  {len(r['children']):3d} programs  {r['test']}")
    write("  slowest tests (wall, of which check, build):")
    for r in sorted(rows, key=lambda r: r["start"] - r["end"])[
        : config.getoption("suite_timing_top")
    ]:
        write(
            f"    {r['end'] - r['start']:6.2f} s  check {r['check']:5.2f}  build {r['build']:5.2f}  {r['test']}"
        )
