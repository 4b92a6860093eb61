"""`printshop validate` keeps what fitting each text came to between runs
(printshop/write/fitstore.py): a second run fits nothing it fitted before, reports exactly what a
run without the store reports, and never serves an outcome for another text, font or code."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from printshop import memo
from printshop.cli import main
from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.write import fitstore
from tests.conftest import copy_data, edit, line_of


def _validate(data, *, games=("comrade",), jobs=1):
    """(report lines, the store's hits and misses) of one validation, as a new process would run it."""
    memo.clear("fitted")  # a new process remembers no fits, nor texts laid out
    memo.clear("laid_out")
    with fitstore.kept_fits() as store:
        report, _ = check(data, games=list(games), keep_layouts=False, jobs=jobs)
    counts = (store.hits, store.misses) if store is not None else None
    return [d.format() for d in report.items], counts


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("PRINTSHOP_CACHE", str(folder))
    return folder / "fits" / fitstore.FILE_NAME


def test_a_second_run_fits_nothing_again_and_reports_the_same(cache, monkeypatch):
    first, (hits, misses) = _validate(DEFAULT_DATA_DIR)
    assert hits == 0 and misses > 20 and cache.is_file()
    stored = json.loads(cache.read_text(encoding="utf-8"))["fits"]
    assert len(stored) == misses
    second, (hits, misses) = _validate(DEFAULT_DATA_DIR)
    assert misses == 0 and hits >= len(stored)  # (a text fitted twice in a run is looked up twice)
    monkeypatch.setenv("PRINTSHOP_CACHE", "off")
    without, counts = _validate(DEFAULT_DATA_DIR)
    assert counts is None
    assert first == second == without


def test_an_edited_text_is_fitted_again_and_its_overflow_reported(cache, tmp_path, monkeypatch):
    data = copy_data(tmp_path / "data", ["comrade"])
    _validate(data)
    texts = data / "comrade" / "text" / "en.yaml"
    edit(
        texts,
        'motto: "The Party sees all"',
        'motto: "' + "The Party sees all, hears all, forgets nothing " * 6 + '"',
    )
    report, (hits, misses) = _validate(data)
    assert 1 <= misses <= 4 and hits > 20  # the back's motto, in its frame: nothing else changed
    overflow = [line for line in report if "text-overflow" in line]
    assert overflow and all(f"en.yaml:{line_of(texts, 'motto:')}:" in line for line in overflow)
    monkeypatch.setenv("PRINTSHOP_CACHE", "off")
    assert _validate(data)[0] == report


def test_a_changed_font_file_or_code_is_never_given_old_outcomes(cache, tmp_path, monkeypatch):
    from printshop.project.paths import BUNDLED_FONTS_DIR

    data = copy_data(tmp_path / "data", ["comrade"])
    (data / "fonts").mkdir()
    for name in (
        "NotoSans-Regular.ttf",
        "NotoSans-Bold.ttf",
    ):  # the project's own copies of the sans
        shutil.copyfile(BUNDLED_FONTS_DIR / name, data / "fonts" / name)
    _, (_, fitted) = _validate(data)
    assert _validate(data)[1][1] == 0
    font = data / "fonts" / "NotoSans-Bold.ttf"
    shutil.copyfile(
        BUNDLED_FONTS_DIR / "NotoSerif-Bold.ttf", font
    )  # another face under the same name
    os.utime(font, ns=(font.stat().st_atime_ns, font.stat().st_mtime_ns + 10**9))
    _, (hits, misses) = _validate(data)
    assert (hits, misses) == (
        0,
        fitted,
    )  # every outcome names the font files registered: all fitted again
    monkeypatch.setattr(fitstore, "code_key", lambda: "another version of printshop")
    _, (hits, misses) = _validate(data)
    assert hits == 0 and misses == fitted
    assert json.loads(cache.read_text(encoding="utf-8"))["code"] == "another version of printshop"


def test_a_damaged_store_is_ignored_and_written_again(cache, tmp_path):
    data = copy_data(tmp_path / "data", ["comrade"])
    first, (_, fitted) = _validate(data)
    stored = json.loads(cache.read_text(encoding="utf-8"))
    digest = next(iter(stored["fits"]))
    stored["fits"][digest] = ["not", "an", "outcome"]
    cache.write_text(json.dumps(stored), encoding="utf-8")
    report, (hits, misses) = _validate(data)
    assert (
        report == first and misses == 1 and hits >= fitted - 1
    )  # the damaged outcome is worked out again
    cache.write_bytes(b"\x00{not json")
    report, (hits, misses) = _validate(data)
    assert report == first and (hits, misses) == (0, fitted)
    assert len(json.loads(cache.read_text(encoding="utf-8"))["fits"]) == fitted


def test_layouts_in_other_processes_send_their_outcomes_back(cache):
    games = ("comrade", "assassin")
    report, (_, fitted) = _validate(DEFAULT_DATA_DIR, games=games, jobs=2)
    again, (hits, misses) = _validate(DEFAULT_DATA_DIR, games=games, jobs=1)
    assert again == report and misses == 0 and hits >= fitted > 50


def test_the_command_keeps_its_fits_in_the_cache_folder_unless_it_is_off(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("PRINTSHOP_CACHE", str(tmp_path / "cache"))
    memo.clear("fitted")
    memo.clear("laid_out")
    assert main(["validate", "comrade", "--jobs", "1"]) == 0
    assert (tmp_path / "cache" / "fits" / fitstore.FILE_NAME).is_file()
    monkeypatch.setenv("PRINTSHOP_CACHE", "off")
    shutil.rmtree(tmp_path / "cache")
    assert main(["validate", "comrade", "--jobs", "1"]) == 0
    assert not (tmp_path / "cache").exists()


def test_the_store_keeps_the_outcomes_used_or_added_last(tmp_path, monkeypatch):
    """Beyond LIMIT, the outcomes neither used nor added by the last run go first."""
    path = tmp_path / fitstore.FILE_NAME
    outcome = [9.0, True, 20.0, 30.0, 0, False, None, [], []]
    path.write_text(
        json.dumps(
            {
                "version": fitstore.VERSION,
                "code": "c",
                "fits": {"a": outcome, "b": outcome, "c": outcome},
            }
        )
    )
    monkeypatch.setattr(fitstore, "LIMIT", 3)
    store = fitstore.FitStore(path, "c")
    assert store.get("b") == outcome and store.get("z") is None
    store.put("d", outcome)
    store.save()
    assert list(json.loads(path.read_text())["fits"]) == ["c", "b", "d"]
    assert fitstore.FitStore(path, "another code").known == {}


def test_the_code_key_changes_with_any_module_of_the_package(tmp_path, monkeypatch):
    import printshop.project.paths

    package = tmp_path / "printshop"
    (package / "render" / "deep").mkdir(parents=True)
    (package / "fitting.py").write_text("# fits\n")
    (package / "render" / "deep" / "faces.py").write_text("# faces\n")
    (package / "fonts").mkdir()
    (package / "fonts" / "NotoSans.ttf").write_bytes(b"not a module")
    monkeypatch.setattr(printshop.project.paths, "PACKAGE_DIR", package)
    first = fitstore.code_key()
    assert fitstore.code_key() == first
    module = package / "render" / "deep" / "faces.py"
    os.utime(module, ns=(module.stat().st_atime_ns, module.stat().st_mtime_ns + 10**9))
    second = fitstore.code_key()
    assert second != first
    (package / "fonts" / "NotoSans.ttf").write_bytes(b"another file, not a module")
    assert fitstore.code_key() == second
    (package / "render" / "new.py").write_text("")
    assert fitstore.code_key() != second
