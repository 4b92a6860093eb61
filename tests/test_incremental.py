"""Issue 8: the build as jobs, the content-addressed cache, parallel processes, shards and progress."""

from __future__ import annotations

import io

import pytest

from printshop.cli import main
from printshop.pipeline.build import build as build_data
from printshop.pipeline.progress import Bar, for_terminal
from printshop.write.cache import CACHE_DIR_NAME
from tests.conftest import edit, fixture_project
from tests.pdfinspect import pdf_text


@pytest.fixture
def project(tmp_path):
    """The sampler fixture game alone, with the shared print data (tests/fixtures/sampler): quick to
    build, free to edit, and the same whichever games data/ holds. (data folder, templates folder)"""
    return fixture_project(tmp_path / "project")


def build(project, out, **options):
    data, templates = project
    return build_data(data, out, templates_dir=templates, **options)


def files(out):
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*.pdf")}


def test_a_second_build_renders_nothing_and_a_changed_text_renders_only_its_jobs(project, tmp_path):
    out = tmp_path / "out"
    first = build(project, out, jobs=1)
    assert first.rendered_jobs == [
        "sampler en a4",
        "sampler en letter",
        "sampler fr a4",
        "sampler fr letter",
        "calibration en a4",
        "calibration en letter",
        "calibration fr a4",
        "calibration fr letter",
    ]
    before = files(out)

    again = build(project, out)  # nothing changed: stops before loading, writes nothing
    assert (
        again.up_to_date is not None
        and sorted(again.up_to_date) == sorted(before)
        and not again.written
    )

    (
        out / CACHE_DIR_NAME / "last-build.json"
    ).unlink()  # without the shortcut, every job comes from the cache
    cached = build(project, out)
    assert cached.rendered_jobs == [] and len(cached.cached_jobs) == 8 and not cached.written

    text = project[0] / "sampler" / "text" / "fr.yaml"
    edit(text, "Gardez ce jeton devant vous", "Gardez ce jeton sous vos yeux")
    changed = build(project, out)
    assert changed.rendered_jobs == ["sampler fr a4", "sampler fr letter"]
    after = files(out)
    assert {name for name in after if after[name] != before[name]} == {
        "sampler/fr/sampler-fr-tokens-a4.pdf",
        "sampler/fr/sampler-fr-tokens-letter.pdf",
    }
    assert b"sous vos yeux" not in before["sampler/fr/sampler-fr-tokens-a4.pdf"]


def test_the_cache_never_serves_a_stale_file(project, tmp_path):

    out = tmp_path / "out"
    build(project, out, games=["sampler"], langs=["fr"], papers=["a4"])
    cards = out / "sampler" / "fr" / "sampler-fr-tokens-a4.pdf"
    original = cards.read_bytes()

    # a file changed by hand is never served as up to date; it is the user's now (issue 54): the
    # build refuses to replace it, and --force puts it right
    cards.write_bytes(b"%PDF-1.4 scribbled over")
    refused = build(project, out, games=["sampler"], langs=["fr"], papers=["a4"])
    assert refused.up_to_date is None and [
        d.code for d in refused.report.items if d.code == "foreign-output"
    ] == ["foreign-output"]
    assert cards.read_bytes() == b"%PDF-1.4 scribbled over"
    build(project, out, games=["sampler"], langs=["fr"], papers=["a4"], force=True)
    assert cards.read_bytes() == original

    text = project[0] / "sampler" / "text" / "fr.yaml"
    edit(text, "Gardez ce jeton devant vous", "Posez ce jeton près de vous")
    build(project, out, games=["sampler"], langs=["fr"], papers=["a4"])
    assert "Posez ce jeton près de vous" in pdf_text(cards, "")
    edit(
        text, "Posez ce jeton près de vous", "Gardez ce jeton devant vous"
    )  # back again: served from the cache
    back = build(project, out, games=["sampler"], langs=["fr"], papers=["a4"])
    assert back.rendered_jobs == [] and cards.read_bytes() == original

    for stored in (out / CACHE_DIR_NAME / "objects").iterdir():  # a damaged cache entry is a miss
        stored.write_bytes(b"damaged")
    (out / CACHE_DIR_NAME / "last-build.json").unlink()
    repaired = build(project, out, games=["sampler"], langs=["fr"], papers=["a4"])
    assert repaired.rendered_jobs and cards.read_bytes() == original


def test_force_renders_everything_again(project, tmp_path):
    out = tmp_path / "out"
    build(project, out, langs=["en"], papers=["a4"])
    forced = build(project, out, langs=["en"], papers=["a4"], force=True)
    assert forced.up_to_date is None and forced.rendered_jobs == [
        "sampler en a4",
        "calibration en a4",
    ]
    assert not forced.written and len(forced.unchanged) == len(
        forced.outputs
    )  # same bytes: nothing rewritten


def test_parallel_jobs_and_shards_give_the_same_bytes(project, tmp_path):
    serial = build(project, tmp_path / "serial", jobs=1)
    parallel = build(project, tmp_path / "parallel", jobs=2)
    assert not parallel.report.has_errors
    assert files(tmp_path / "serial") == files(tmp_path / "parallel")
    seen = {}
    for part in (1, 2, 3):
        result = build(project, tmp_path / "shards", shard=(part, 3), jobs=1)
        labels = set(result.rendered_jobs)
        assert labels and not labels & set(seen), part  # each job in exactly one shard
        seen.update(dict.fromkeys(labels, part))
    assert sorted(seen) == sorted(serial.rendered_jobs)
    assert files(tmp_path / "shards") == files(tmp_path / "serial")


def test_the_command_line_says_what_it_built_and_skipped(project, tmp_path, capsys):
    out = tmp_path / "out"
    data, templates = project
    args = [
        "build",
        "--data",
        str(data),
        "--templates",
        str(templates),
        "--out",
        str(out),
        "--lang",
        "en",
        "--paper",
        "a4",
    ]
    assert main(args + ["--jobs", "2"]) == 0
    err = capsys.readouterr().err
    # tokens, aid, reference, how-to-print, the aid's press pages and the calibration page
    assert "built 6 files in" in err and "2 jobs rendered, 0 from the cache; 6 files written" in err
    assert main(args) == 0
    assert "nothing changed since the last build: 6 files up to date" in capsys.readouterr().err
    assert main(args + ["--force", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    for bad in ("0/2", "3/2", "x"):
        with pytest.raises(SystemExit):
            main(args + ["--shard", bad])
    with pytest.raises(SystemExit):
        main(args + ["--jobs", "0"])


def test_the_progress_bar_waits_a_second_and_stays_off_pipes():
    stream = io.StringIO()
    bar = Bar(stream, delay=1.0)
    bar.start(3)
    bar.advance("sampler en a4")
    assert stream.getvalue() == ""  # a quick build shows no bar
    bar.started -= 2
    bar.advance("sampler fr a4")
    assert "[" in stream.getvalue() and "2/3 sampler fr a4" in stream.getvalue()
    bar.finish()
    assert stream.getvalue().endswith("\r")
    assert not isinstance(for_terminal(False, io.StringIO()), Bar)  # not a terminal: a log, no bar


def test_written_files_get_the_usual_permissions(tmp_path):
    import os

    from printshop.write.commit import write_atomically

    target = tmp_path / "a" / "file.pdf"
    write_atomically(target, b"data")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask and target.read_bytes() == b"data"


def test_a_template_saved_renders_the_jobs_of_the_games_it_makes_and_never_leaves_a_stale_file(
    tmp_path,
):
    """A template is an input of the jobs of the games whose faces or booklet are made with it (or
    with a template that includes, imports or extends it): saving one of the sampler's templates
    renders the sampler's jobs, not Comrade's. A template that names another by an expression may
    read any: then every template is an input of its game's jobs. After each save the files are
    those a forced build writes."""
    data, templates = fixture_project(tmp_path / "project", real_games=True)
    out, settings = (
        tmp_path / "out",
        {"games": ["comrade", "sampler"], "langs": ["en"], "papers": ["a4"]},
    )
    first = build_data(data, out, templates_dir=templates, **settings)
    assert "comrade en a4" in first.rendered_jobs and "sampler en a4" in first.rendered_jobs

    def after_saving(name: str, old: str, new: str) -> list[str]:
        edit(templates / name, old, new)
        result = build_data(data, out, templates_dir=templates, **settings)
        assert not result.report.has_errors
        build_data(data, tmp_path / "forced", templates_dir=templates, force=True, **settings)
        assert files(out) == files(tmp_path / "forced")
        return [job for job in result.rendered_jobs if not job.startswith("calibration")]

    assert after_saving("sampler/token.j2", "{{ t.token.body }}", "<i>{{ t.token.body }}</i>") == [
        "sampler en a4"
    ]
    (templates / "sampler" / "part.j2").write_text("{{ t.token.body }}", encoding="utf-8")
    assert after_saving(
        "sampler/token.j2", "<i>{{ t.token.body }}</i>", '<i>{% include "sampler/part.j2" %}</i>'
    ) == ["sampler en a4"]
    assert after_saving("sampler/part.j2", "{{ t.token.body }}", "<b>{{ t.token.body }}</b>") == [
        "sampler en a4"
    ]
    assert after_saving(
        "comrade/faces/dissident.j2",
        "{{ t.card.dissident.goal }}",
        "<i>{{ t.card.dissident.goal }}</i>",
    ) == ["comrade en a4"]
    assert after_saving(
        "sampler/token.j2",
        '{% include "sampler/part.j2" %}',
        '{% include "sampler/" ~ "part.j2" %}',
    ) == ["sampler en a4"]
    assert after_saving(
        "comrade/faces/dissident.j2",
        "<i>{{ t.card.dissident.goal }}</i>",
        "<b>{{ t.card.dissident.goal }}</b>",
    ) == ["comrade en a4", "sampler en a4"]


def test_the_templates_found_in_a_source_are_those_jinja_finds():
    """`referenced_templates` reads names from the text; for every template printshop and this
    project have, it finds each name Jinja's own parser finds, or says "any" (None), as it does
    wherever Jinja cannot name one."""
    from jinja2 import Environment, meta

    from printshop.project.paths import COMMON_TEMPLATES_DIR, DEFAULT_TEMPLATES_DIR
    from printshop.typeset.templating import referenced_templates

    sources = [
        path.read_text(encoding="utf-8")
        for folder in (DEFAULT_TEMPLATES_DIR, COMMON_TEMPLATES_DIR)
        for path in sorted(folder.rglob("*.j2"))
    ]
    sources += [
        '{%- from "a.j2" import x, y as z with context -%}',
        "{% import 'm.j2' as m %}",
        "{% extends layout %}",
        '{% include ["a.j2", "b.j2"] %}',
        '{% include "a.j2" ignore missing %}',
        '{% include "p/" ~ card.id ~ ".j2" %}',
        '{% include "a.j2" if x else "b.j2" %}',
        '{% extends "base.j2" %}{% block b %}{% include "c.j2" without context %}{% endblock %}',
        "{% set from_here = 1 %}{{ from_here }}",
        '{# {% include "commented.j2" %} #}',
    ]
    assert len(sources) > 20
    for source in sources:
        jinja = list(meta.find_referenced_templates(Environment().parse(source)))
        ours = referenced_templates(source)
        assert (None in jinja) <= (None in ours), source  # "any" wherever Jinja cannot name one
        assert None in ours or set(jinja) <= set(ours), source  # else every name Jinja finds
    assert referenced_templates('{% include "p/" ~ card.id %}') == [None]
    assert referenced_templates('{% from "a.j2" import x %}{% include "b.j2" %}') == [
        "a.j2",
        "b.j2",
    ]


def _walked(root, skip=lambda path: False):
    """Digests.tree as it was written first: os.walk, each folder's files and subfolders sorted,
    Path objects."""
    import os
    from pathlib import Path

    from printshop.write.cache import _NOT_INPUTS, Digests
    from printshop.write.commit import inside

    digests, found = Digests(), []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _NOT_INPUTS)
        for name in sorted(names):
            path = Path(folder) / name
            if name.endswith((".pyc", ".pyo")) or name == ".DS_Store" or skip(path):
                continue
            if path.is_symlink() and not inside(path, root):
                found.append((str(path.relative_to(root)), "outside"))
                continue
            found.append((str(path.relative_to(root)), digests.file(path)))
    return found


def test_a_trees_hashes_list_what_os_walk_finds_in_its_order(tmp_path):
    """The cache key's walk over a folder (Digests.tree, on strings and os.scandir) lists the files
    os.walk lists, in its order: hidden files and links within kept, a link leading out marked and
    never read, a link to a folder not followed, version control, Python's caches and printshop's
    own cache left out."""
    from printshop.write.cache import Digests

    root = tmp_path / "root"
    for relative, text in {
        "b.yaml": "b",
        "a.yaml": "a",
        ".hidden.png": "h",
        "z/deep/one.txt": "1",
        "m/two.txt": "2",
        "m/.DS_Store": "x",
        "m/old.pyc": "x",
        ".git/HEAD": "ref",
        "__pycache__/x.py": "x",
        f"{CACHE_DIR_NAME}/lock": "",
        "m-/three.txt": "3",
    }.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    (tmp_path / "elsewhere.txt").write_text("secret")
    (root / "out-link.txt").symlink_to(tmp_path / "elsewhere.txt")
    (root / "in-link.txt").symlink_to(root / "a.yaml")
    (root / "folder-link").symlink_to(root / "z")
    (root / "broken-link").symlink_to(root / "nothing-here")

    listed = Digests().tree(root)
    assert listed == _walked(root)
    names = [name for name, _ in listed]
    assert names == [
        ".hidden.png",
        "a.yaml",
        "b.yaml",
        "broken-link",
        "in-link.txt",
        "out-link.txt",
        "m/two.txt",
        "m-/three.txt",
        "z/deep/one.txt",
    ]
    assert (
        dict(listed)["out-link.txt"] == "outside"
        and dict(listed)["in-link.txt"] == dict(listed)["a.yaml"]
    )
    skip = lambda path: path.suffix == ".txt"  # noqa: E731 - as the callers pass it
    assert (
        Digests().tree(root, skip=skip) == _walked(root, skip)
        and len(Digests().tree(root, skip=skip)) == 4
    )
    assert Digests().tree(root / "a.yaml") == [
        (str(root / "a.yaml"), Digests().file(root / "a.yaml"))
    ]
    assert Digests().tree(tmp_path / "none") == []
