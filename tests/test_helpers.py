"""Helper processes (printshop/render/helper.py) in a build that renders one job at a time: a large
deck's faces drawn in two processes (the helper's recordings replay where the document's answers
agree, its faces are drawn here wherever anything goes wrong) and a kit's rules rendered beside its
cards; either way the files are, byte for byte, the ones a single process writes, with the same
diagnostics in the same order."""

from __future__ import annotations

import io
import os
import signal
import time

import pytest
from pypdf import PdfReader

from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.render import helper as helper_module
from printshop.render import sheets
from printshop.render.colour import Paints
from printshop.render.helper import Helper, allowing_helpers, seed, seed_of
from printshop.render.pdf import new_canvas

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the helper is a fork")


@pytest.fixture(scope="module")
def kremlin_fr():
    """Kremlin in French (accents, French spacing, two decks), laid out once."""
    report, checked = check(DEFAULT_DATA_DIR, games=["kremlin"], langs=["fr"], variant=None)
    assert checked is not None and not report.has_errors
    [layout] = checked.layouts
    for deck in layout.decks:  # the markers without their spares (`spares`): with them every
        # marker is printed thrice or more, each face a form, and none is left to draw in place
        deck.deck = deck.deck.model_copy(update={"spares": False})
    return checked.project, layout


def _sheets(project, layout, deck, paper="a4"):
    # the project as the game sees it, as the kit job draws it: Kremlin's own colours and motifs
    # (data/kremlin/print/) over the project's
    seen = project.view(project.games[layout.game_id])
    settings = sheets.SheetSettings(
        paper,
        seen.media.papers[paper],
        seen.media,
        Paints(seen.colours.palette),
        seen.motifs.motifs,
        "test.pdf",
    )
    return sheets.render_card_sheets(layout, deck, settings)[0]


@pytest.fixture
def counted(monkeypatch):
    """The helper's recordings placed unasked ({"placed"}: sealed with this document's seed),
    replayed after asking ({"replayed"}) and drawn here after all ({"drawn"}); every deck large
    enough for a helper."""
    counts = {"replayed": 0, "drawn": 0, "helpers": 0, "given": 0, "placed": 0}
    replay, start = sheets.replay, Helper.__init__

    def counting(canvas, recording):
        unasked = recording.sealed is not None and recording.sealed == seed_of(canvas._doc)
        took = replay(canvas, recording)
        counts["placed" if unasked else "replayed" if took else "drawn"] += 1
        return took

    def starting(self, keys, work):
        counts["helpers"] += 1
        counts["given"] += len(keys)
        start(self, keys, work)

    monkeypatch.setattr(sheets, "replay", counting)
    monkeypatch.setattr(Helper, "__init__", starting)
    monkeypatch.setattr(sheets, "MIN_FACES", 4)
    return counts


def test_a_helped_deck_is_the_same_pdf_and_the_helpers_faces_replay(kremlin_fr, counted):
    project, layout = kremlin_fr
    for number, deck in enumerate(layout.decks):
        alone = _sheets(project, layout, deck)
        assert counted["helpers"] == number
        with allowing_helpers():
            helped = _sheets(project, layout, deck)
        assert helped == alone, deck.id
    assert counted["helpers"] == len(layout.decks)
    # seeded alike, every face the helper drew is sealed: placed without asking
    assert counted["given"] >= 30 and counted["placed"] == counted["given"]
    assert counted["replayed"] == counted["drawn"] == 0


def _deck(layout, name):
    return next(deck for deck in layout.decks if deck.id == name)


def _uses(deck):
    from collections import Counter

    return Counter(front for front, _ in deck.cards) + Counter(
        back for _, back in deck.cards if back
    )


def test_recordings_that_do_not_replay_are_drawn_here_to_the_same_bytes(
    kremlin_fr, counted, monkeypatch
):
    """The helper's canvas left unseeded: it names fonts and numbers accented letters in its own
    order, so its recordings disagree with this document's answers; each such face is drawn here
    instead."""
    project, layout = kremlin_fr
    deck = _deck(layout, "intrigue")  # three fonts, accented letters in two of them
    alone = _sheets(project, layout, deck)
    parent = os.getpid()
    monkeypatch.setattr(
        sheets,
        "seed",
        lambda canvas, faces, also=None: (
            seed(canvas, faces, also) if os.getpid() == parent else None
        ),
    )
    with allowing_helpers():
        helped = _sheets(project, layout, deck)
    assert counted["helpers"] == 1 and counted["drawn"] > 0 and counted["placed"] < counted["given"]
    assert helped == alone


def test_a_helper_that_dies_leaves_its_faces_to_be_drawn_here(kremlin_fr, counted, monkeypatch):
    project, layout = kremlin_fr
    deck = max(layout.decks, key=lambda deck: len(deck.faces))
    alone = _sheets(project, layout, deck)
    monkeypatch.setattr(sheets, "record_face", lambda *args: os._exit(3))
    with allowing_helpers():
        helped = _sheets(project, layout, deck)
    assert (
        counted["helpers"] == 1
        and counted["replayed"] == counted["drawn"] == counted["placed"] == 0
    )
    assert helped == alone


def test_no_process_to_be_had_means_no_helper_and_the_same_pdf(kremlin_fr, counted, monkeypatch):
    project, layout = kremlin_fr
    deck = _deck(layout, "intrigue")
    alone = _sheets(project, layout, deck)

    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(helper_module.os, "fork", no_fork)
    with allowing_helpers():
        helped = _sheets(project, layout, deck)
    assert (
        counted["helpers"] == 1
        and counted["placed"] == counted["replayed"] == counted["drawn"] == 0
    )
    assert helped == alone


def test_a_build_that_stops_ends_its_helper(kremlin_fr, monkeypatch):
    project, layout = kremlin_fr
    deck = max(layout.decks, key=lambda deck: len(deck.faces))
    started = []
    start = Helper.__init__

    def starting(self, keys, work):
        start(self, keys, lambda keys: time.sleep(60))  # a helper that would take a minute
        started.append(self._pid)

    def failing(*args, **kwargs):
        raise RuntimeError("a face that cannot be drawn")

    monkeypatch.setattr(Helper, "__init__", starting)
    monkeypatch.setattr(sheets, "MIN_FACES", 4)
    monkeypatch.setattr(sheets, "draw_face_form", failing)
    began = time.monotonic()
    with allowing_helpers(), pytest.raises(RuntimeError, match="cannot be drawn"):
        _sheets(project, layout, deck)
    assert time.monotonic() - began < 20
    [pid] = started
    with pytest.raises(ProcessLookupError):  # killed and reaped: not even a zombie is left
        os.kill(pid, 0)


def test_the_helper_ignores_ctrl_c_which_is_the_builds_to_handle():
    helper = Helper(["a"], lambda keys: (os.kill(os.getpid(), signal.SIGINT), keys)[1])
    assert helper.answer() == ["a"]


def test_a_helper_that_fails_answers_nothing():
    def fails(keys):
        raise RuntimeError("in the helper")

    assert Helper(["a"], fails).answer() is None


def test_small_decks_and_builds_that_do_not_allow_it_have_no_helper(kremlin_fr, monkeypatch):
    project, layout = kremlin_fr
    monkeypatch.setattr(Helper, "__init__", lambda *args: pytest.fail("a helper was started"))
    deck = layout.decks[0]
    _sheets(project, layout, deck)  # not allowed (a parallel build, --jobs 1, a session)
    with allowing_helpers():
        _sheets(project, layout, deck)  # allowed, but fewer faces than MIN_FACES
    assert sum(1 for count in _uses(deck).values() if count == 1) < helper_module.MIN_FACES


# --- seeding
# ---------------------------------------------------------------------------------------------
def test_seeding_names_the_fonts_by_name_and_numbers_the_letters_in_code_point_order(kremlin_fr):
    from reportlab.pdfbase import pdfmetrics

    project, layout = kremlin_fr
    deck = _deck(layout, "intrigue")
    used = {}
    for face in deck.faces.values():
        for laid in face.frames:
            for flowable in laid.fit.flowables or ():
                helper_module._characters(flowable, used)
    wide = {name: sorted(c for c in chars if ord(c) > 126) for name, chars in used.items()}
    assert any(wide.values()), "a French deck has letters beyond ASCII"

    def seeded():
        canvas = new_canvas(io.BytesIO(), 595, 842, title="t", subject="s", lang="fr")
        seed(canvas, list(deck.faces.values()))
        return canvas._doc

    one, two = seeded(), seeded()
    names = [name for name in sorted(used)]
    for name in names:
        font = pdfmetrics.getFont(name)
        for doc in (one, two):
            state = font.state[doc]
            codes = [
                state.assignments[ord(c)]
                for c in wide[name]
                if ord(c) in font.face.charToGlyph and c != "\xa0"
            ]
            assert codes == sorted(codes), name  # code point order
        assert font.state[one].assignments == font.state[two].assignments
    internal = [one.fontMapping[name] for name in names]
    assert internal == sorted(
        internal, key=lambda value: int(value.lstrip("/F"))
    )  # named in order of name


def test_a_seeded_deck_embeds_no_font_it_does_not_draw(kremlin_fr):
    project, layout = kremlin_fr
    for deck in layout.decks:
        pdf = PdfReader(io.BytesIO(_sheets(project, layout, deck)))
        embedded = {
            str(font["/BaseFont"]).split("+", 1)[-1].split("-")[0]
            for page in pdf.pages
            for font in page["/Resources"]["/Font"].values()
            for font in [font.get_object()]
        }
        drawn = set()
        for page in pdf.pages:
            resources = page["/Resources"]
            streams = [page.get_contents().get_data()] + [
                form.get_object().get_data() for form in resources.get("/XObject", {}).values()
            ]
            for name, font in resources["/Font"].items():
                if any(f"{name} ".encode() in content for content in streams):
                    drawn.add(str(font.get_object()["/BaseFont"]).split("+", 1)[-1].split("-")[0])
        assert embedded == drawn, deck.id


# --- a kit's rules rendered by a helper (jobs._Kit._run_tasks)
# ---------------------------------------------
@pytest.fixture(scope="module")
def kit_alone(tmp_path_factory):
    """comrade-stalin fr a4 (cards, sheets, press pages, rules) rendered in one process, once."""
    return _kit(tmp_path_factory.mktemp("kit"), "alone", jobs=1)


def _kit(tmp_path, name, jobs, game="comrade-stalin"):
    import hashlib

    from printshop.pipeline.build import build

    out = tmp_path / name
    result = build(DEFAULT_DATA_DIR, out, games=[game], langs=["fr"], papers=["a4"], jobs=jobs)
    files = {
        str(path.relative_to(out)): hashlib.blake2b(path.read_bytes()).hexdigest()
        for path in sorted(out.rglob("*.pdf"))
    }
    return files, [str(item) for item in result.report.items], result


@pytest.fixture
def helpers_started(monkeypatch):
    started = []
    start = Helper.__init__

    def starting(self, keys, work):
        started.append(list(keys))
        start(self, keys, work)

    monkeypatch.setattr(Helper, "__init__", starting)
    return started


def test_a_kits_rules_rendered_by_a_helper_are_the_same_files(tmp_path, kit_alone, helpers_started):
    alone, said_alone, _ = kit_alone
    helped, said_helped, result = _kit(tmp_path, "helped", jobs=2)
    assert (
        len(helpers_started) == 1
    )  # one job (and its calibration page): rendered in this process, helped
    assert helped == alone and said_helped == said_alone
    # the how-to page, made after both halves, lists the rules: the same bytes means the same list
    assert any(name.endswith("-rules-a5.pdf") for name in helped) and any(
        "rules-booklet" in name for name in helped
    )
    kit = [
        str(output.path)
        for output in result.outputs
        if not str(output.path).startswith("calibration")
    ]
    assert kit[-1].endswith("how-to-print-a4.pdf")


def test_a_one_process_build_starts_no_helper(tmp_path, helpers_started):
    from printshop.pipeline.build import build

    build(DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=["fr"], papers=["a4"], jobs=1)
    assert not helpers_started


def test_what_a_helpers_task_reports_comes_in_the_tasks_order(
    tmp_path, helpers_started, monkeypatch
):
    from printshop.pipeline import kit_job as jobs

    def broken(what):
        def fails(*args, **kwargs):
            raise RuntimeError(f"{what} that cannot be set")

        return fails

    monkeypatch.setattr(
        jobs, "render_card_sheets", broken("a deck")
    )  # this process's, before the rules
    monkeypatch.setattr(jobs, "render_booklet", broken("a booklet"))  # the helper's
    monkeypatch.setattr(jobs, "booklet_pages", broken("a booklet"))
    alone, said_alone, _ = _kit(tmp_path, "alone", jobs=1)
    helped, said_helped, _ = _kit(tmp_path, "helped", jobs=2)
    assert (
        helpers_started and helped == alone == {}
    )  # nothing written: the build failed the same way
    deck = [index for index, line in enumerate(said_helped) if "a deck that" in line]
    booklet = [index for index, line in enumerate(said_helped) if "a booklet that" in line]
    assert deck and booklet and max(deck) < min(booklet)
    assert said_helped == said_alone


def test_a_kit_helper_that_dies_leaves_its_files_to_be_rendered_here(
    tmp_path, kit_alone, monkeypatch
):
    alone, said_alone, _ = kit_alone
    start = Helper.__init__
    monkeypatch.setattr(
        Helper, "__init__", lambda self, keys, work: start(self, keys, lambda keys: os._exit(9))
    )
    helped, said_helped, _ = _kit(tmp_path, "helped", jobs=2)
    assert helped == alone and said_helped == said_alone
