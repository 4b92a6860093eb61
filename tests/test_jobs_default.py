"""How many processes a build uses when `--jobs` is not given: $PRINTSHOP_JOBS, else the cores this
process may run on (its affinity, not every core of the machine)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import printshop.pipeline.workers as workers
from printshop.cli import main
from printshop.pipeline.build import build
from printshop.project.paths import default_jobs


def test_printshop_jobs_sets_the_default(monkeypatch):
    monkeypatch.setenv("PRINTSHOP_JOBS", "3")
    assert default_jobs() == 3
    monkeypatch.setenv("PRINTSHOP_JOBS", " 1 ")
    assert default_jobs() == 1


@pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or (os.cpu_count() or 1) < 2,
    reason="needs a system with CPU affinity and two cores",
)
def test_without_it_the_default_is_the_cores_this_process_may_use():
    """A process pinned to one core (taskset, a CI runner's cgroup) renders in one process, not in
    as many as the machine has cores."""
    code = (
        "import os; os.environ.pop('PRINTSHOP_JOBS', None); os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
        "from printshop.project.paths import default_jobs; print(default_jobs())"
    )
    pinned = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert pinned.stdout.strip() == "1"
    free = subprocess.run(
        [
            sys.executable,
            "-c",
            code.replace("os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); ", ""),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert free.stdout.strip() == str(len(os.sched_getaffinity(0)))


@pytest.mark.parametrize("value", ["0", "two", "-1", "1.5", "²"])
@pytest.mark.parametrize("command", ["build", "validate"])
def test_a_malformed_value_is_a_usage_error_and_nothing_is_written(
    value, command, monkeypatch, tmp_path, capsys
):
    monkeypatch.setenv("PRINTSHOP_JOBS", value)
    out = tmp_path / "out"
    argv = (
        ["build", "comrade", "--out", str(out), "--quiet"]
        if command == "build"
        else ["validate", "comrade"]
    )
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert (
        f"PRINTSHOP_JOBS is '{value}'" in err
        and "whole number of processes" in err
        and "Traceback" not in err
    )
    assert not out.exists()
    with pytest.raises(ValueError):
        default_jobs()


def test_a_malformed_value_is_refused_even_with_jobs_given(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("PRINTSHOP_JOBS", "many")
    assert main(["validate", "comrade", "--jobs", "1"]) == 2
    assert main(["build", "comrade", "--out", str(tmp_path / "out"), "--jobs", "1", "--quiet"]) == 2
    assert (
        capsys.readouterr().err.count("PRINTSHOP_JOBS is 'many'") == 2
        and not (tmp_path / "out").exists()
    )


def test_a_build_without_jobs_follows_it(monkeypatch, tmp_path):
    """PRINTSHOP_JOBS=1: the jobs run in this process, no pool; 2: in a pool of processes. `jobs=`
    given wins over it. (Two papers: two kits and their calibration pages, work enough for a pool.)"""
    pools = []
    real = workers.run_parallel

    def counted(todo, *args, **kwargs):
        pools.append(len(todo))
        return real(todo, *args, **kwargs)

    monkeypatch.setattr(workers, "run_parallel", counted)
    settings = dict(games=["comrade"], langs=["en"], papers=["a4", "letter"], force=True)
    monkeypatch.setenv("PRINTSHOP_JOBS", "1")
    assert not build(out_dir=tmp_path / "one", **settings).report.has_errors and pools == []
    monkeypatch.setenv("PRINTSHOP_JOBS", "2")
    assert not build(out_dir=tmp_path / "two", **settings).report.has_errors and pools == [4]
    monkeypatch.setenv("PRINTSHOP_JOBS", "1")
    assert not build(
        out_dir=tmp_path / "given", jobs=2, **settings
    ).report.has_errors and pools == [4, 4]
    assert (tmp_path / "one" / "comrade" / "en" / "comrade-en-cards-a4.pdf").read_bytes() == (
        tmp_path / "two" / "comrade" / "en" / "comrade-en-cards-a4.pdf"
    ).read_bytes()


def test_one_kit_and_its_calibration_page_are_drawn_without_a_pool(monkeypatch, tmp_path):
    """One game, language and paper: one kit and a calibration page, quicker in the building process
    than with a pool started for them, whatever the number of processes allowed; the bytes are the
    same."""
    pools = []
    real = workers.run_parallel
    monkeypatch.setattr(
        workers,
        "run_parallel",
        lambda todo, *args, **kwargs: pools.append(len(todo)) or real(todo, *args, **kwargs),
    )
    result = build(
        out_dir=tmp_path / "alone", games=["comrade"], langs=["en"], papers=["a4"], jobs=4
    )
    assert not result.report.has_errors and pools == []
    assert sorted(result.rendered_jobs) == ["calibration en a4", "comrade en a4"]
    paired = build(
        out_dir=tmp_path / "paired", games=["comrade"], langs=["en", "fr"], papers=["a4"], jobs=4
    )
    assert not paired.report.has_errors and pools == [4]  # two kits: a pool
    name = Path("comrade") / "en" / "comrade-en-cards-a4.pdf"
    assert (tmp_path / "alone" / name).read_bytes() == (tmp_path / "paired" / name).read_bytes()


def test_help_names_the_default(monkeypatch, capsys):
    monkeypatch.setenv("PRINTSHOP_JOBS", "5")
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    assert "$PRINTSHOP_JOBS" in capsys.readouterr().out.replace("\n", " ")
