"""How card sheets carry their faces: a face used once is drawn in its page's content, a face used
more than once is one Form XObject placed wherever it appears (the size of the file depends on it)."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
from collections import Counter
from pathlib import Path

import pikepdf
import pytest

from printshop import memo, memos
from printshop.memo import Memo, Reads
from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.conftest import found


@contextlib.contextmanager
def only_new_objects_collected():
    """The collector off, and a `collect()` that looks at the objects made inside the block only and
    gives the cycles it freed among them: what was there before is frozen (gc.freeze), not collected
    and not walked. A full collection walked the worker's whole heap (half a million objects and
    more by then): 0.25 s each."""
    enabled = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        yield gc.collect
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def _forms_and_placements(path) -> tuple[int, Counter]:
    with pikepdf.open(path) as pdf:
        forms = sum(
            1
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"
        )
        placed = Counter()
        for page in pdf.pages:
            for operands, operator in pikepdf.parse_content_stream(page):
                if operator == pikepdf.Operator("Do"):
                    placed[str(operands[0])] += 1
        return forms, placed


def test_one_form_per_shared_face_and_none_for_faces_used_once(built):
    _, checked = check(DEFAULT_DATA_DIR, games=["comrade"], langs=["en"], variant=None)
    [deck] = [deck for layout in checked.layouts for deck in layout.printed_decks]
    uses = Counter(front for front, _ in deck.cards) + Counter(
        back for _, back in deck.cards if back
    )
    shared = {key: count for key, count in uses.items() if count > 1}
    once = [key for key, count in uses.items() if count == 1]
    assert shared and once  # the deck has both kinds
    path = built / "comrade" / "en" / "comrade-en-cards-a4.pdf"
    forms, placed = _forms_and_placements(path)
    assert forms == len(shared)
    assert sorted(placed.values()) == sorted(shared.values())
    with pikepdf.open(path) as pdf:
        text = b"".join(
            page.Contents.read_bytes()
            if isinstance(page.Contents, pikepdf.Stream)
            else b"".join(part.read_bytes() for part in page.Contents)
            for page in pdf.pages
        )
    assert text.count(b"BT") >= 18  # every front's text is in the pages themselves


# --- compiled templates kept between runs
# ----------------------------------------------------------
def _render(folder, name="card.j2"):
    from printshop.typeset.templating import make_environment, render_template

    return render_template(make_environment(folder), name, {"who": "<b>"})


def test_compiled_templates_are_kept_and_an_edited_template_is_compiled_again(
    tmp_path, monkeypatch
):
    cache = tmp_path / "cache"
    monkeypatch.setenv("PRINTSHOP_CACHE", str(cache))
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "card.j2").write_text("Hello {{ who }}")
    assert _render(templates) == "Hello &lt;b&gt;"
    kept = list((cache / "templates").iterdir())
    assert len(kept) == 1 and kept[0].stat().st_size > 0
    (templates / "card.j2").write_text(
        "Goodbye {{ who }}"
    )  # same name, same size class: a new hash
    assert _render(templates) == "Goodbye &lt;b&gt;"
    kept[0].write_bytes(b"\x00garbage")  # a damaged cache file is compiled over, not an error
    assert _render(templates) == "Goodbye &lt;b&gt;"


def test_the_compiled_templates_kept_are_the_most_recently_used(tmp_path, monkeypatch):
    """Each folder's templates are other entries (test runs, copies, temporary folders): the cache
    keeps the templates used last, never more than its limit (it had grown to 30,000 files here)."""
    import os

    from printshop.typeset import templating

    cache = tmp_path / "cache"
    monkeypatch.setenv("PRINTSHOP_CACHE", str(cache))
    monkeypatch.setattr(templating, "KEPT_TEMPLATES", 8)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "card.j2").write_text("Hello {{ who }}")
    (templates / "back.j2").write_text("Back {{ who }}")
    monkeypatch.setattr(templating, "_pruned", set())
    assert _render(templates) == "Hello &lt;b&gt;"
    [card] = (cache / "templates").iterdir()
    os.utime(card, (1_000_000_000, 1_000_000_000))  # compiled long ago
    others = [cache / "templates" / f"bounded-{n:040x}.cache" for n in range(10)]
    for age, other in enumerate(others, start=1):  # other folders' templates, all used after it
        other.write_bytes(b"compiled elsewhere")
        os.utime(other, (1_000_000_000 + age, 1_000_000_000 + age))
    monkeypatch.setattr(
        templating, "_pruned", set()
    )  # the next run (a new process, which has compiled nothing)
    memo.clear("compiled_templates")
    assert (
        _render(templates) == "Hello &lt;b&gt;"
    )  # read from the cache: now the most recently used
    assert (
        _render(templates, "back.j2") == "Back &lt;b&gt;"
    )  # compiled: the cache keeps 6 of its 12
    kept = set((cache / "templates").iterdir())
    assert len(kept) == 6 and card in kept and kept - {card} - set(others) != set()
    assert kept & set(others) == set(others[-4:])


def test_a_cache_that_cannot_be_written_or_is_turned_off_changes_nothing(tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "card.j2").write_text("Hello {{ who }}")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("PRINTSHOP_CACHE", str(blocked))
    assert _render(templates) == "Hello &lt;b&gt;"
    monkeypatch.setenv("PRINTSHOP_CACHE", "off")
    from printshop.typeset.templating import make_environment

    assert make_environment(templates).bytecode_cache is None
    assert _render(templates) == "Hello &lt;b&gt;"


# --- validate lays out the games in several processes
# ------------------------------------------------
def test_validate_in_two_processes_reports_the_same_in_the_same_order(data_copy):
    from tests.conftest import edit

    # an overflow and a missing translation: diagnostics from the layouts and from validation
    text = data_copy / "comrade" / "text" / "en.yaml"
    edit(
        text,
        '  motto: "The Party sees all"',
        '  motto: "' + "The Party sees all and everything " * 12 + '"',
    )
    alone, checked = check(data_copy)
    shared, unkept = check(data_copy, keep_layouts=False, jobs=2)
    assert alone.has_errors and {d.code for d in alone.items} >= {"text-overflow"}
    assert shared.items == alone.items
    assert checked.layouts and unkept.layouts == []


@pytest.mark.parametrize("fault", ["data", "template"])
def test_faults_reported_once_are_reported_once_in_two_processes(data_copy, tmp_path, fault):
    """An error in the data holds back what the layouts of both languages would say about it, and a
    template's fault is reported once for both languages: in two processes as in one."""
    from printshop.project.paths import DEFAULT_TEMPLATES_DIR
    from tests.conftest import edit

    templates = tmp_path / "templates"
    shutil.copytree(DEFAULT_TEMPLATES_DIR, templates)
    if (
        fault == "data"
    ):  # a politician's office that does not exist: its template would fail in fr and en
        edit(
            data_copy / "kremlin" / "game.yaml",
            "{letter: B, age: 75, strong: economy",
            "{letter: B, age: 75, strong: econmy",
        )
    else:  # a block named unlike its frame, met in both languages
        edit(
            templates / "kremlin" / "faces" / "marker.j2", "{% block sub %}", "{% block subtitle %}"
        )
    alone, _ = check(data_copy, templates_dir=templates)
    shared, _ = check(data_copy, templates_dir=templates, keep_layouts=False, jobs=2)
    assert alone.has_errors and len(alone.errors) == (1 if fault == "data" else 2)
    assert shared.items == alone.items


def test_a_child_that_fails_leaves_its_share_to_the_parent():
    import os

    from printshop.pipeline.workers import in_processes

    parent = os.getpid()

    def work(unit):
        if os.getpid() != parent and unit == 3:
            raise RuntimeError("a child's failure")
        return unit * unit

    assert in_processes(list(range(7)), work, 3, weight=lambda unit: 1) == [u * u for u in range(7)]


# --- work done once: booklet spacings, broken paragraphs, rasterized faces
# ---------------------------
def _comrade_en():
    _, checked = check(DEFAULT_DATA_DIR, games=["comrade"], langs=["en"], variant=None)
    [layout] = checked.layouts
    return checked, layout


def _comrade_en_booklet():
    """(layout, project, paper, motifs, palette) of Comrade's English rules."""
    checked, layout = _comrade_en()
    project = checked.project.view(layout.localized.data)
    return (
        layout,
        project,
        project.media.papers[project.booklet.paper],
        project.motifs.motifs,
        dict(project.colours.palette),
    )


def test_a_booklet_is_measured_once_per_text_and_page_and_its_bytes_do_not_depend_on_it(
    monkeypatch,
):
    from printshop.render import booklet as module
    from printshop.render.colour import Paints

    checked, layout = _comrade_en()
    project = checked.project.view(layout.localized.data)
    paper, paints = project.media.papers[project.booklet.paper], Paints(project.colours.palette)
    measured = []
    real = module.set_booklet

    def spy(*args, **kwargs):
        measured.append(kwargs.get("measure", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "set_booklet", spy)

    def render(name):
        return module.render_booklet(
            layout, layout.booklet, paper, paints, project.motifs.motifs, name, pad_to=4
        )

    memo.clear("booklet_measures")
    memo.clear("booklets")
    memo.clear("broken_lines")
    first = render("a.pdf")
    assert (
        measured.count(True) >= 2 and measured.count(False) == 1
    )  # spacings tried, then one booklet written
    measured.clear()
    assert (
        render("b.pdf")[1] == first[1]
    )  # another file name (another paper's job): nothing measured again
    assert measured == [False]
    memo.clear("booklet_measures")
    memo.clear("booklets")
    memo.clear("broken_lines")
    assert render("a.pdf") == first  # worked out again, the same bytes


def test_a_booklet_rendered_again_in_a_process_is_given_again_until_a_colour_or_motif_it_reads_changes(
    monkeypatch,
):
    """Outside a session, a process that builds again (a program calling build(), the test suite) is
    given the booklet it rendered for the same blocks, style, page, names and the same values of the
    colours and motifs it read; a colour it reads changed renders it again, a colour it does not
    read does not. A preview's palette that stands in for the names it lacks (serve) is remembered
    apart, by the values it gives: its magenta for a name it lacks, and each name read through it
    again on a hit (serve notes what its booklets read so)."""
    from printshop.render import booklet as module
    from printshop.render.colour import Paints, StandIn

    layout, project, paper, motifs, palette = _comrade_en_booklet()
    rendered = []
    real = module._render_whole

    def spy(*args, **kwargs):
        rendered.append(args[5])  # the file name
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "_render_whole", spy)
    memo.clear("booklets")

    def render(colours, name="rules.pdf"):
        return module.render_booklet(layout, layout.booklet, paper, Paints(colours), motifs, name)

    first = render(palette)
    assert render(dict(palette)) == first and rendered == ["rules.pdf"]  # equal values: given again
    render(palette, "other.pdf")
    assert len(rendered) == 2  # another file name is another booklet (a how-to page prints it)
    accent = project.booklet.styles["h1"].colour
    unused = next(
        name for name in palette if name != accent and name not in str(project.booklet.model_dump())
    )
    assert render({**palette, unused: "#123456"}) == first and len(rendered) == 2
    changed = render({**palette, accent: "#123456"})
    assert changed != first and len(rendered) == 3
    assert (
        render(StandIn(palette)) == first and len(rendered) == 4
    )  # a stand-in's booklets are its own
    assert render(StandIn(dict(palette))) == first and len(rendered) == 4  # and given again
    noted = Reads(palette, log=[])
    assert (
        render(StandIn(noted)) == first and len(rendered) == 4 and accent in noted.read
    )  # read on a hit too
    lacking = StandIn({name: value for name, value in palette.items() if name != accent})
    magenta = render(lacking)
    assert magenta not in (first, changed) and len(rendered) == 5  # the accent drawn in magenta
    assert render(lacking) == magenta and len(rendered) == 5
    assert render(StandIn({**palette, accent: "#123456"})) == changed and len(rendered) == 6


def test_a_session_is_given_the_booklets_the_process_rendered_and_gives_the_process_its_own(
    monkeypatch,
):
    """A session (serve, watch) looks in its own booklets, then in the process's: one started on
    data whose rules another build or session of the process already set is given them; one it sets
    is kept for the process too, a stand-in palette's (a preview missing a colour) as well."""
    from printshop.render import booklet as module
    from printshop.render.colour import Paints, StandIn
    from printshop.render.replay import FaceRecordings, recording_into

    layout, project, paper, motifs, palette = _comrade_en_booklet()
    rendered = []
    real = module._render_whole
    monkeypatch.setattr(
        module, "_render_whole", lambda *a, **k: rendered.append(a[5]) or real(*a, **k)
    )
    memo.clear("booklets")

    def render(store, colours=palette, name="rules.pdf"):
        with recording_into(store):
            return module.render_booklet(
                layout, layout.booklet, paper, Paints(colours), motifs, name
            )

    outside = module.render_booklet(
        layout, layout.booklet, paper, Paints(dict(palette)), motifs, "rules.pdf"
    )
    first, second = FaceRecordings(), FaceRecordings()
    assert render(first) == outside and rendered == [
        "rules.pdf"
    ]  # the process's, given to the session
    assert len(first.booklets) == 1  # and kept as the session's own
    accent = project.booklet.styles["h1"].colour
    changed = render(first, {**palette, accent: "#123456"})
    assert changed != outside and len(rendered) == 2
    assert (
        render(second, {**palette, accent: "#123456"}) == changed and len(rendered) == 2
    )  # the first session's
    assert render(second, StandIn(palette), "other.pdf") and len(rendered) == 3
    assert (
        render(FaceRecordings(), StandIn(palette), "other.pdf") and len(rendered) == 3
    )  # the process's
    assert render(second, StandIn(palette), "other.pdf") and len(rendered) == 3  # the session's own


def test_a_stream_compressed_once_is_given_its_bytes_again_and_what_is_kept_is_bounded(monkeypatch):
    """Every PDF stream goes through one Flate filter, which remembers what it compressed by content
    (a face's form in the A4 and the Letter kit, a page a session writes again): the bytes are
    zlib's, an input met again is not compressed again, small streams are not kept, and the memo
    forgets the least recently used once it holds more than its limit."""
    import hashlib
    import zlib

    from reportlab.pdfbase import pdfdoc

    from printshop import reportlab_patches

    compressed = []
    monkeypatch.setattr(
        reportlab_patches,
        "zlib",
        type(
            "Z",
            (),
            {
                "compress": staticmethod(
                    lambda data: compressed.append(len(data)) or zlib.compress(data)
                )
            },
        ),
    )
    monkeypatch.setattr(memos.COMPRESSED, "limit", 3000)
    memo.clear("compressed_streams")
    flate = pdfdoc.PDFStreamFilterZCompress()
    page = "BT /F1 12 Tf (Camarade) Tj ET\n" * 60  # 1,800 characters
    assert flate.encode(page) == zlib.compress(page.encode()) and compressed == [len(page)]
    assert flate.encode(page.encode()) == zlib.compress(page.encode()) and compressed == [len(page)]
    small = "q 1 0 0 1 0 0 cm Q"
    assert flate.encode(small) == zlib.compress(small.encode())
    assert flate.encode(small) and compressed == [len(page), len(small), len(small)]  # not kept
    others = [
        "".join(
            hashlib.sha256(b"%d %d" % (n, k)).hexdigest() for k in range(10)
        )  # (about 350 bytes
        for n in range(1, 40)
    ]  # each, compressed)
    for other in others:
        flate.encode(other)
    assert memos.COMPRESSED.size <= 3000 and len(memos.COMPRESSED) < len(others) + 1
    compressed.clear()
    flate.encode(page)  # the oldest was forgotten
    flate.encode(others[-1])  # the newest was not
    assert compressed == [len(page)]
    document = pdfdoc.PDFDocument(invariant=1)
    stream = pdfdoc.PDFStream(content=page, filters=[pdfdoc.PDFZCompress])
    assert zlib.compress(page.encode()) in stream.format(document)


def test_a_booklet_imposed_once_is_given_again_for_the_same_bytes_paper_and_title(monkeypatch):
    """Saddle-stitch imposition is a function of the booklet's bytes, the paper's size and the
    title: a process that renders a booklet again (render/booklet.py gives the same bytes again)
    does not impose it again."""
    from printshop.render import imposed_booklet
    from printshop.render.booklet import render_booklet
    from printshop.render.colour import Paints

    imposed, real = [], imposed_booklet._impose
    monkeypatch.setattr(
        imposed_booklet, "_impose", lambda *args: imposed.append(args[1:]) or real(*args)
    )
    memo.clear("imposed_booklets")
    layout, project, paper, motifs, palette = _comrade_en_booklet()
    a4, letter = project.media.papers["a4"], project.media.papers["letter"]
    booklet = render_booklet(
        layout, layout.booklet, paper, Paints(palette), motifs, "rules.pdf", pad_to=4
    )[0]
    first = imposed_booklet.impose_saddle_stitch(booklet, a4, "Comrade: rules")
    assert first == real(booklet, a4, "Comrade: rules") and len(imposed) == 1
    assert (
        imposed_booklet.impose_saddle_stitch(booklet, a4, "Comrade: rules") == first
        and len(imposed) == 1
    )
    assert imposed_booklet.impose_saddle_stitch(booklet, letter, "Comrade: rules")[0] != first[0]
    assert imposed_booklet.impose_saddle_stitch(booklet, a4, "Camarade : règles")[0] != first[0]
    assert len(imposed) == 3
    imposed_booklet.impose_saddle_stitch(
        booklet + b"\n", a4, "Comrade: rules"
    )  # other bytes: imposed anew
    assert len(imposed) == 4


def test_a_files_hash_is_remembered_by_its_stamp_only_once_its_last_change_has_settled(
    tmp_path, monkeypatch
):
    """A build hashes every input for its cache keys; a process that builds again reads only what
    changed. A file's hash is given by its stamp once its last change is older than SETTLED, so that
    two saves within one tick of the file system's clock, which leave the same stamp, are never
    taken for one."""
    import time

    from printshop.write import cache

    monkeypatch.setattr(memos.STAMPED, "limit", 100)
    memo.clear("file_hashes")
    hashed, real = [], cache._hash_bytes
    monkeypatch.setattr(cache, "_hash_bytes", lambda data: hashed.append(data) or real(data))
    path = tmp_path / "texts.yaml"
    path.write_text("title: Camarade\n", encoding="utf-8")
    first = cache.Digests().file(path)
    path.write_text(
        "title: Kamarade\n", encoding="utf-8"
    )  # the same size, at once: maybe the same stamp
    second = cache.Digests().file(path)
    assert (
        second != first and len(hashed) == 2 and len(memos.STAMPED) == 0
    )  # read each time: not settled
    monkeypatch.setattr(cache, "_now", lambda: time.time() + 2 * cache.SETTLED)  # later on
    assert cache.Digests().file(path) == second and len(hashed) == 3 and len(memos.STAMPED) == 1
    assert cache.Digests().file(path) == second and len(hashed) == 3  # given by its stamp, not read
    stamp = path.stat()
    for _ in range(500):  # saved again, past a tick of the file system's clock (whatever its grain)
        time.sleep(0.01)
        path.write_text("title: Camarade\n", encoding="utf-8")
        os.utime(
            path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns)
        )  # the old modification time put back...
        if path.stat().st_ctime_ns != stamp.st_ctime_ns:
            break
    assert cache.Digests().file(path) == first and len(hashed) == 4  # ...and the change time tells
    path.unlink()
    assert cache.Digests().file(path) == "absent"
    assert cache.Digests().file(tmp_path) == "absent"  # a folder is no file


def test_the_sandbox_reads_data_maps_and_texts_as_jinjas_own_sandbox_reads_them():
    """printshop's sandbox answers `map.key` and `t.text` without Jinja's general path: what it
    gives (a value, a method, an undefined, a refusal, a missing text) must be what Jinja's own
    sandbox gives, name for name."""
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment
    from markupsafe import Markup

    from printshop.language.text_tree import MissingText, TextTree
    from printshop.typeset.templating import _Sandbox

    ours, theirs = (
        _Sandbox(undefined=StrictUndefined),
        SandboxedEnvironment(undefined=StrictUndefined),
    )
    texts = TextTree(
        {"title": Markup("Camarade"), "card.informer.name": Markup("Informateur")}, "fr"
    )
    data = {"name": "informer", "items": 3, "get": 4, "__class__": 5, "_kind": 6, 7: "seven"}

    def answer(environment, obj, attribute):
        try:
            value = environment.getattr(obj, attribute)
        except MissingText as error:
            return ("missing", error.args)
        if isinstance(value, TextTree):  # (compared by what it holds)
            return ("texts", value._prefix, value.keys())
        if isinstance(value, StrictUndefined):
            return ("undefined", type(value).__name__, value._undefined_name, value._undefined_hint)
        return (
            "value",
            value
            if not callable(value)
            else (getattr(value, "__self__", None) is obj, value.__name__),
        )

    names = [
        "name",
        "items",
        "get",
        "keys",
        "__class__",
        "_kind",
        "missing",
        "__init__",
        "mro",
        "title",
        "card",
        "start_log",
        "_texts",
        "_child",
        "_nodes",
        "titel",
        "__getattr__",
    ]
    for obj in (data, texts, texts.card, {}):
        for attribute in names:
            assert answer(ours, obj, attribute) == answer(theirs, obj, attribute), (obj, attribute)
    assert answer(ours, texts.card.informer, "name") == ("value", Markup("Informateur"))


def test_a_text_trees_inner_nodes_are_made_once_and_their_reads_still_noted():
    """`t.card` on every card of a deck is one node of its tree, made when first read; what is read
    through it is noted in the tree's log all the same. The index of ids is made once per process
    for the same ids in the same order, and never shared with a catalogue that has other ids or
    another order."""
    from markupsafe import Markup

    from printshop.language.text_tree import TextTree

    english = {
        "title": Markup("Comrade"),
        "card.informer.name": Markup("Informer"),
        "card.chairman.name": Markup("Chair"),
    }
    tree = TextTree(english, "en")
    assert tree.card is tree.card and tree.card.informer is tree["card"]["informer"]
    log = tree.start_log()
    assert tree.card.informer.name == "Informer" and tree.card.chairman.name == "Chair"
    tree.stop_log()
    assert log == ["card.informer.name", "card.chairman.name"]
    french = TextTree(
        {
            "title": Markup("Camarade"),
            "card.informer.name": Markup("Informateur"),
            "card.chairman.name": Markup("Président"),
        },
        "fr",
    )
    assert (
        french._children is tree._children and french.card is not tree.card
    )  # the same ids: one index
    assert french.card.informer.name == "Informateur"
    reordered = TextTree(dict(reversed(list(english.items()))), "en")
    assert reordered.keys() == ["card", "title"] and reordered.card.keys() == [
        "chairman",
        "informer",
    ]
    assert tree.keys() == ["title", "card"] and tree.card.keys() == ["informer", "chairman"]
    assert memos.CHILD_INDEXES.get(tuple(english)) is tree._children
    with (
        only_new_objects_collected() as collect
    ):  # a tree's nodes are held by their parents only: a tree
        for _ in range(5):  # dropped goes at once, no cycle left
            dropped = TextTree(english, "en")
            assert dropped.card.informer.name == "Informer" and dropped.card is dropped["card"]
            del dropped
        assert collect() == 0


def test_a_paragraph_broken_once_keeps_its_own_colour_and_width():
    from reportlab.lib.colors import Color
    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle

    from printshop.typeset.justify import EvenParagraph

    text = (
        "<b>Every</b> comrade reads the rules twice before the first meeting of the committee begins. "
        * 3
    )

    def wrapped(colour, width):
        style = ParagraphStyle(
            "p",
            fontName="Helvetica",
            fontSize=9,
            leading=11,
            alignment=TA_JUSTIFY,
            textColor=colour,
        )
        paragraph = EvenParagraph(text, style)
        paragraph.wrap(width, 1e6)
        return paragraph

    red, blue = Color(0.8, 0, 0), Color(0, 0, 0.8)
    memo.clear("broken_lines")
    first, again = wrapped(red, 200), wrapped(red, 200)
    assert len(memos.BROKEN) == 1  # the same text, style and width: broken once
    assert again.blPara is first.blPara
    # splitting a paragraph over two pages leaves the lines it shares as they were
    # (reportlab_patches.split_without_changing_lines)
    before = repr(first.blPara)
    parts = again.split(200, again.height / 2)
    assert len(parts) == 2 and repr(first.blPara) == before
    other = wrapped(blue, 200)
    assert len(memos.BROKEN) == 2
    assert {frag.textColor for line in other.blPara.lines for frag in line.words} == {blue}
    narrower = wrapped(red, 150)
    assert len(narrower.blPara.lines) > len(first.blPara.lines) and narrower.height > first.height


def test_an_image_profile_rasterizes_a_shared_back_once_onto_exactly_its_pixels(monkeypatch):
    """Each face is rasterized once, by pdfium straight onto the shop's pixel size: nothing is
    resampled (Pillow's resize would soften the whole picture to gain or lose a pixel)."""
    import io

    from PIL import Image

    from printshop.render import press
    from printshop.render.colour import Paints

    checked, layout = _comrade_en()
    project = checked.project.view(layout.localized.data)
    profile = project.profiles["makeplayingcards"]
    [deck] = layout.printed_decks
    trim = project.media.card_sizes[profile.product(deck.deck.card_size).trim]
    rendered = []
    real = press.render_pixels
    monkeypatch.setattr(
        press,
        "render_pixels",
        lambda page, width, height: rendered.append(1) or real(page, width, height),
    )
    monkeypatch.setattr(Image.Image, "resize", lambda *args, **kwargs: pytest.fail("resampled"))
    images = dict(
        press.render_face_images(
            layout, deck, profile, trim, Paints(project.colours.palette), project.motifs.motifs
        )
    )
    faces = {face for card in deck.cards for face in card if face}
    assert len(images) == 2 * len(deck.cards) == 36 and len(rendered) == len(faces) < 36
    backs = {data for name, data in images.items() if name.endswith("-back.png")}
    fronts = [data for name, data in images.items() if name.endswith("-front.png")]
    assert len(backs) == len({back for _, back in deck.cards}) and len(set(fronts)) == len(
        {f for f, _ in deck.cards}
    )
    with Image.open(io.BytesIO(fronts[0])) as picture:
        assert picture.size == (profile.pixels.width, profile.pixels.height) == (822, 1122)


def test_a_font_file_replaced_under_the_same_name_is_read_again(tmp_path):
    import os
    import shutil

    from reportlab.pdfbase.pdfmetrics import stringWidth

    from printshop.project.paths import BUNDLED_FONTS_DIR
    from printshop.typeset import fonts

    path = tmp_path / "Display.ttf"
    shutil.copyfile(BUNDLED_FONTS_DIR / "NotoSans-Regular.ttf", path)
    old_font = fonts.register_font("test-display", path)
    before, state = stringWidth("Comrade", "test-display", 10), tuple(fonts._registered.items())
    covered = fonts.coverage(old_font)
    assert (
        fonts.register_font("test-display", path) is old_font
    )  # unchanged: kept as it was, its characters too
    assert (
        tuple(fonts._registered.items()) == state
        and fonts.coverage(old_font) is covered
        and "é" in covered
    )
    shutil.copyfile(
        BUNDLED_FONTS_DIR / "NotoSerif-Bold.ttf", path
    )  # what a designer saves over the old file
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    new_font = fonts.register_font("test-display", path)
    assert stringWidth("Comrade", "test-display", 10) != before
    assert tuple(fonts._registered.items()) != state  # what fits and broken lines are remembered by
    assert (
        new_font is not old_font and fonts.coverage(new_font) is not covered
    )  # its own characters
    fonts._registered.pop("test-display")


def test_a_memo_forgets_its_oldest_quarter_when_full():

    memo = Memo(8)
    for number in range(8):
        memo[number] = number
    memo[3] = "again"  # a key it has: nothing forgotten
    assert len(memo) == 8
    memo[8] = 8
    assert list(memo) == [2, 3, 4, 5, 6, 7, 8] and memo[3] == "again"


def test_each_block_of_a_face_template_is_rendered_once():
    """render_blocks runs the template's top level for its {% set %} names and macros, and keeps
    each block as the top level renders it: no block is rendered twice (every face's texts once
    were), and a block printed again with `self`, or one the top level never reaches, still comes
    out as Jinja renders it."""
    import jinja2

    from printshop.typeset.templating import render_blocks

    calls = []
    env = jinja2.Environment(
        loader=jinja2.DictLoader(
            {
                "face.j2": (
                    "{% set greeting = 'hello' %}{% macro shout(word) %}{{ word | upper }}{% endmacro %}"
                    "{% block title %}{{ greeting | counted }}{% endblock %}\n"
                    "{% set heading = self.title() %}"
                    "{% block motto %}{{ shout(greeting) | counted }} {{ heading }}{% endblock %}"
                    "{% block both %}{{ self.title() }}/{{ self.motto() }}{% endblock %}"
                    "{% if false %}{% block hidden %}{{ word | counted }}{% endblock %}{% endif %}"
                )
            }
        )
    )
    env.filters["counted"] = lambda value: calls.append(value) or value
    env.loader.searchpath = ["."]  # (render_blocks names the folder in its errors)
    rendered = render_blocks(env, "face.j2", {"word": "unseen"})
    assert list(rendered) == ["title", "motto", "both", "hidden"]
    assert dict(rendered) == {
        "title": "hello",
        "motto": "HELLO hello",
        "both": "hello/HELLO hello",
        "hidden": "unseen",
    }
    # title: once where it stands, once for `heading`, once inside `both`; motto: where it stands,
    # in `both`
    assert calls == ["hello", "hello", "HELLO", "hello", "HELLO", "unseen"]


def test_rendering_a_faces_blocks_leaves_no_cycle_for_the_collector():
    """The context held the blocks' wrappers and the template's macros, which held it: each face
    rendered left fifty objects in cycles, 25,000 a check of the catalogue, that only the cycle
    collector could free. render_blocks empties the context when it ends, and everything it made
    goes at once."""
    import jinja2

    from printshop.typeset.templating import render_blocks

    env = jinja2.Environment(
        loader=jinja2.DictLoader(
            {
                "face.j2": (
                    "{% set greeting = 'hello' %}{% macro shout(word) %}{{ word | upper }}{% endmacro %}"
                    "{% block title %}{{ shout(greeting) }}{% endblock %}{% block body %}{{ self.title() }}{% endblock %}"
                    "{% if false %}{% block hidden %}{{ word }}{% endblock %}{% endif %}"
                )
            }
        )
    )
    env.loader.searchpath = ["."]
    render_blocks(env, "face.j2", {"word": "w"})  # (compiled once, outside what is counted)
    with only_new_objects_collected() as collect:
        for _ in range(20):
            assert dict(render_blocks(env, "face.j2", {"word": "w"})) == {
                "title": "HELLO",
                "body": "HELLO",
                "hidden": "w",
            }
        assert collect() == 0


def test_the_texts_each_block_reads_are_its_own():
    """What a face's block reads decides what an edit lays out again (session.py): a block keeps the
    texts it read where the top level rendered it, and a block printed inside another counts as that
    one's reading."""
    import jinja2

    from printshop.typeset.templating import render_blocks

    class Tree:
        log = None

        def start_log(self):
            self.log = []
            return self.log

        def stop_log(self):
            self.log = None

        def __getattr__(self, text_id):
            if self.log is not None:
                self.log.append(text_id)
            return text_id.upper()

    env = jinja2.Environment(
        loader=jinja2.DictLoader(
            {
                "face.j2": (
                    "{% set unlogged = t.preamble %}"
                    "{% block title %}{{ t.name }}{{ t.name }}{% endblock %}"
                    "{% block body %}{{ t.rule }} {{ self.title() }}{% endblock %}"
                    "{% if false %}{% block flavour %}{{ t.quote }}{% endblock %}{% endif %}"
                )
            }
        )
    )
    env.loader.searchpath = ["."]
    rendered = render_blocks(env, "face.j2", {"t": Tree()})
    assert rendered.reads == {"title": ["name"], "body": ["rule", "name"], "flavour": ["quote"]}
    assert dict(rendered) == {"title": "NAMENAME", "body": "RULE NAMENAME", "flavour": "QUOTE"}


_COUNT_COLLECTIONS = """
import gc, os, sys
import printshop.cli
real, started = printshop.cli.dispatch, []
def dispatch(*args, **kwargs):
    started.append(True)
    return real(*args, **kwargs)
printshop.cli.dispatch = dispatch
gc.callbacks.append(lambda phase, info: started and phase == "start" and os.write(2, b"cycle collection\\n"))
sys.argv = ["printshop", *sys.argv[1:]]
from printshop.cli import main
main()
os.write(2, b"main returned\\n")
"""


@pytest.mark.parametrize("command", ["build", "validate"])
def test_a_printshop_process_runs_no_cycle_collection_once_the_work_starts(tmp_path, command):
    """`printshop build` and `validate` end with os._exit, their objects never freed: a cycle
    collection after the build (which runs with the collector off) would only walk them all to find
    them in use. The script counts collections from the moment the command is dispatched, and would
    say if main() returned."""
    import subprocess
    import sys

    from tests.conftest import fixture_project

    data, templates = fixture_project(tmp_path)
    args = [command, "sampler", "--data", str(data), "--templates", str(templates)]
    if command == "build":
        args += ["--out", str(tmp_path / "out"), "--lang", "en", "--paper", "a4", "--quiet"]
    done = subprocess.run(
        [sys.executable, "-c", _COUNT_COLLECTIONS, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PRINTSHOP_JOBS": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert "cycle collection" not in done.stderr and "main returned" not in done.stderr, done.stderr
    if command == "build":
        assert (tmp_path / "out" / "sampler" / "en").is_dir()


# --- large patterns of other libraries compiled when used (printshop/reportlab_patches.py)
# ----------------
def test_a_pattern_with_a_wide_range_is_wide_and_others_are_not():
    from printshop.reportlab_patches import is_wide

    assert is_wide("([a-z\xa1-\uffff0-9])") and is_wide("[^\x09\x20-\x7e\U00010000-\U0010ffff]")
    assert (
        not is_wide("^[a-z0-9_-]+$")
        and not is_wide("[\u2018\u201a\u201c]+")
        and not is_wide(b"[\x00-\xff]")
    )


LAZY_CHILD = r"""
import re, sys
import printshop
from reportlab.platypus import paragraph
import yaml.reader
from printshop.reportlab_patches import LazyPattern

assert isinstance(paragraph.uri_pat, LazyPattern), type(paragraph.uri_pat)
assert isinstance(yaml.reader.Reader.NON_PRINTABLE, LazyPattern)
assert isinstance(paragraph._hy_pfx_pat, re.Pattern)  # a narrow pattern is compiled as before
source = paragraph.uri_pat.pattern  # the first use compiles it, and puts the pattern in its place
assert isinstance(paragraph.uri_pat, re.Pattern) and paragraph.uri_pat.pattern == source
same = re.compile(source, re.I)
for text in ("https://example.org/a?b=1", "ftp://exämple.fr", "mailto:x", "https://-bad-.org"):
    assert bool(paragraph.uri_pat.match(text)) == bool(same.match(text)), text
import yaml
try:
    yaml.load("key: \x07", Loader=yaml.SafeLoader)  # the pure-Python reader's check still works
except yaml.reader.ReaderError:
    pass
else:
    raise AssertionError("a non-printable character was let through")
assert isinstance(yaml.reader.Reader.NON_PRINTABLE, re.Pattern)
assert isinstance(re.compile("[\xa1-\uffff]"), re.Pattern)  # outside those modules' import, nothing changes
print("ok")
"""


def test_reportlab_and_pyyaml_compile_their_widest_patterns_when_first_used():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", LAZY_CHILD], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_paragraph_with_a_link_still_links():
    import io

    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    para = Paragraph('<a href="https://example.org/rules">rules</a>', ParagraphStyle("p"))
    para.wrapOn(canvas, 200, 100)
    para.drawOn(canvas, 72, 700)
    canvas.save()
    assert b"/URI (https://example.org/rules)" in buffer.getvalue()


# --- the build's inputs hashed only when needed
# ----------------------------------------------------------
def test_a_first_build_reads_no_input_to_compare_with_a_last_build(tmp_path, monkeypatch):
    from printshop.write import cache

    def no_reading(*args, **kwargs):
        raise AssertionError("an input was hashed with no last build to compare with")

    monkeypatch.setattr(cache.Digests, "tree", no_reading)
    assert cache.nothing_to_do(tmp_path / "new-out", DEFAULT_DATA_DIR, None, {}) is None


def test_the_pattern_finder_installed_twice_finds_the_module_once():
    import subprocess
    import sys

    child = (
        "import sys, importlib, printshop.reportlab_patches as lp\n"
        "old = [f for f in sys.meta_path if type(f).__name__ == '_Finder']\n"
        "importlib.reload(lp); lp.install()\n"
        "assert len([f for f in sys.meta_path if type(f).__name__ == '_Finder']) == 2\n"
        "from reportlab.platypus import paragraph\n"
        "assert paragraph.uri_pat.match('https://example.org')\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_a_rule_booklet_edited_again_and_again_keeps_few_of_its_versions(monkeypatch):
    """A session that edits a rule lays the booklet out after every save: one markup fragment of
    tens of thousands of characters each time. Kept among the 8,192 small ones (the texts of faces),
    every version stayed for thousands of saves; a few large ones are kept now, and the small ones
    as before."""
    from printshop.typeset import richtext

    memo.clear("parsed_blocks")
    memo.clear("parsed_large_blocks")
    rules = "".join(
        f"<p>Rule {n}: the Party is always right, whatever the Party said yesterday.</p>"
        for n in range(80)
    )
    assert len(rules) > richtext._SMALL
    for save in range(100):
        blocks = richtext.parse_blocks(rules.replace("Rule 0:", f"Rule 0 (save {save}):"))
        assert len(blocks) == 80
    assert len(memos.PARSED_LARGE_BLOCKS) <= 16 and not memos.PARSED_BLOCKS
    small = richtext.parse_blocks("<p>Dissident</p>")
    assert richtext.parse_blocks("<p>Dissident</p>") == small and len(memos.PARSED_BLOCKS) == 1


# --- a text laid out in a frame, given again
# ---------------------------------------------------------------
def _frames(checked) -> dict:
    return {
        (game.lang, deck.id, face.key, face.face_name, frame.name): frame
        for game in checked.layouts
        for deck in game.decks
        for face in deck.faces.values()
        if face is not None
        for frame in face.frames
    }


def test_a_text_laid_out_in_a_frame_is_given_again_until_what_sets_it_changes(
    tmp_path, monkeypatch
):
    """A check of a copy of the same data sets no text again; a colour's value or the language's
    ties changed set again the texts they touch, in the new colour and with the new ties; a text
    that is reported is reported at every check (only a text laid out without a word to say is
    remembered)."""
    from printshop.layout import faces as layout
    from printshop.project.models.faces import Frame
    from tests.conftest import copy_data, edit

    # a field added to frames that changes how a text is set must be in what a laid-out text is
    # remembered by
    assert set(Frame.model_fields) - set(layout.SETTING_FIELDS) == {"x", "y", "valign", "rotate"}

    def checked_copy(where):
        report, checked = check(where, games=["comrade"], langs=["en"], variant=None)
        return [
            f"{d.code} {d.location.line}"
            for d in report.items
            if d.code in ("text-overflow", "missing-glyph")
        ], _frames(checked) if checked is not None else {}

    _, first = checked_copy(
        copy_data(tmp_path / "data", ["comrade"])
    )  # (or the memo already holds them)
    laid = []
    real = layout._lay_out_frame
    monkeypatch.setattr(
        layout,
        "_lay_out_frame",
        lambda markup, frame, *rest: laid.append(frame.colour) or real(markup, frame, *rest),
    )
    data = copy_data(tmp_path / "elsewhere", ["comrade"])
    report, frames = checked_copy(data)
    assert report == [] and laid == []
    assert {key: (frame.fit, frame.blocks) for key, frame in frames.items()} == {
        key: (frame.fit, frame.blocks) for key, frame in first.items()
    }

    edit(data / "print" / "colours.yaml", 'red: "#b22a1e"', 'red: "#123456"')
    report, frames = checked_copy(data)
    red = [frame for frame in frames.values() if frame.frame.colour == "red"]
    assert report == [] and red and laid and set(laid) == {"red"}
    assert {frame.fit.flowables[0].style.textColor.hexval() for frame in red} == {"0x123456"}

    laid.clear()
    edit(
        data / "languages" / "en.yaml",
        "numbers_with_next: true",
        "numbers_with_next: true\n  keep_with_next: [party]",
    )
    report, frames = checked_copy(data)
    mottos = [frame for frame in frames.values() if "sees all" in frame.blocks[0].markup]
    assert (  # (the motto of both backs: the role cards' and the ballots')
        report == []
        and set(laid) == {frame.frame.colour for frame in frames.values()}
        and len(mottos) == 2
        and all("Party\u00a0sees" in motto.blocks[0].markup for motto in mottos)
    )

    texts = data / "comrade" / "text" / "en.yaml"
    too_long = edit(
        texts,
        'motto: "The Party sees all"',
        'motto: "The Party sees all' + " and hears all" * 20 + '"',
    )
    lacking = edit(texts, 'name: "Chairman"', 'name: "Chairman \u0f00"')
    for _ in range(2):
        report, _ = checked_copy(data)
        assert f"text-overflow {too_long}" in report and f"missing-glyph {lacking}" in report, (
            report
        )


def test_faces_read_again_or_in_a_copy_are_merged_once_and_located_in_their_own_file(
    tmp_path, monkeypatch
):
    """faces.yaml's `extends` are resolved once per text read: a copy of the file gives the same
    faces, each at the copy's own lines; an edited file is merged again; a file whose merging
    reports something reports it at every read."""
    from printshop.diagnostics import Report
    from printshop.project import faces_file

    merged = []
    real = faces_file._merged_faces
    monkeypatch.setattr(
        faces_file, "_merged_faces", lambda root, *rest: merged.append(root) or real(root, *rest)
    )
    first, second = tmp_path / "a" / "faces.yaml", tmp_path / "b" / "faces.yaml"
    for path in (first, second):
        path.parent.mkdir()
        shutil.copyfile(DEFAULT_DATA_DIR / "comrade" / "faces.yaml", path)
    faces = faces_file.load_faces(first, Report())
    again = faces_file.load_faces(second, Report())
    assert len(merged) <= 1  # (none where an earlier test of this process read the same text)
    assert {name: face.model_dump() for name, face in faces.items()} == {
        name: face.model_dump() for name, face in again.items()
    }
    face = next(iter(faces))
    assert faces[face].where().path.endswith("a/faces.yaml") and again[face].where().path.endswith(
        "b/faces.yaml"
    )
    assert faces[face].where().line == again[face].where().line > 0

    text = second.read_text(encoding="utf-8")
    second.write_text(text.replace("extends: card", "extends: kard", 1), encoding="utf-8")
    merged.clear()
    reports = []
    for _ in range(2):
        report = Report()
        faces_file.load_faces(second, report)
        reports.append([d.format() for d in report.items])
    assert reports[0] == reports[1] and "extends 'kard', which does not exist" in reports[0][0]
    assert len(merged) == 2  # merged at each read, to be reported


def test_a_fields_place_is_read_from_its_yaml_when_asked_in_its_own_file_or_in_a_layer(tmp_path):
    """attach_locations no longer writes every field's place: Node.where reads it from the YAML when
    asked (the key's own line and column), in a copy of the data at the copy's path; a value given
    by a layer of the print data is at the layer's file; a field not written is at its node."""
    from printshop.project.loader import load_project
    from tests.conftest import copy_data

    data = copy_data(tmp_path / "data", ["comrade"])
    project = load_project(data, games=["comrade"])
    deck = project.games["comrade"].game.decks["cards"]
    game_yaml = (data / "comrade" / "game.yaml").read_text(encoding="utf-8").splitlines()
    line = next(number for number, text in enumerate(game_yaml, 1) if "card_size: poker-eu" in text)
    where = deck.where("card_size")
    assert (where.path.endswith("comrade/game.yaml"), where.line, where.col) == (True, line, 16)
    assert deck.where("card_size") is where and str(tmp_path) in str(
        deck.model_copy().where("card_size")
    )
    assert deck.where("no_such_field") == deck.where() and (
        deck.where().line,
        deck.where().col,
    ) == (line, 5)
    # the palette: printshop's colours and the project's, each where it is written
    palette = project.colours
    assert palette.where("palette").path.endswith("data/print/colours.yaml")


@pytest.mark.parametrize("cwd", ["/", "/work", "/work/main", "/work/main/"])
def test_a_path_is_shown_below_the_working_folder_the_same_way_fast_or_general(cwd):
    """A path written plainly is shown by its text alone (a copy of a project is a few hundred files
    never shown before, and the general way, through pathlib, took 28 µs each); a path with an
    empty, '.' or '..' part, or a trailing '/', the general way: either way what os.path.relpath
    gives for a path below the folder."""
    import itertools

    from printshop.diagnostics import _display_path

    def general(path: str, folder: str) -> str:
        as_path = Path(path)
        return (
            os.path.relpath(as_path, folder)
            if as_path.is_absolute() and Path(folder) in as_path.parents
            else path
        )

    parts = ["work", "main", "data", "..", ".", "", ".hidden", "x.yaml"]
    paths = {
        "/" + "/".join(combination)
        for length in range(4)
        for combination in itertools.product(parts, repeat=length)
    }
    paths |= {path + "/" for path in list(paths)} | {"data/x.yaml", "x.yaml", "/work/mainly/x.yaml"}
    assert len(paths) > 1000
    for path in sorted(paths):
        assert _display_path.__wrapped__(path, cwd) == general(path, cwd), (path, cwd)
    assert _display_path.__wrapped__("/work/main/data/x.yaml", cwd) == {
        "/": "work/main/data/x.yaml",
        "/work": "main/data/x.yaml",
    }.get(cwd, "data/x.yaml")


def test_printshops_own_font_files_are_resolved_once_and_a_projects_at_every_read(
    data_copy, monkeypatch
):
    """A check resolved each font file's path (symbolic links followed) to refuse one that leads out
    of its font folder: 0.7 ms a check, most of registering the fonts. printshop's own folder is
    part of the installed package and is resolved once per process; a project's data/fonts at every
    read, so that a link put there after a first check is refused at the next."""
    import printshop.write.commit
    from printshop.project.paths import BUNDLED_FONTS_DIR

    assert not found(
        data_copy, "unsafe-path", games=["comrade"]
    )  # printshop's own fonts, resolved by now
    resolved = []
    real_inside = printshop.write.commit.inside
    monkeypatch.setattr(
        printshop.write.commit,
        "inside",
        lambda path, root: resolved.append(root) or real_inside(path, root),
    )
    assert not found(data_copy, "unsafe-path", games=["comrade"])
    assert BUNDLED_FONTS_DIR not in resolved

    elsewhere = data_copy / "comrade" / "elsewhere.ttf"  # in the project, out of its font folder
    shutil.copyfile(BUNDLED_FONTS_DIR / "NotoSans-Regular.ttf", elsewhere)
    (data_copy / "fonts").mkdir()
    (data_copy / "fonts" / "NotoSans-Regular.ttf").symlink_to(elsewhere)
    [refused] = found(data_copy, "unsafe-path", games=["comrade"])
    assert "NotoSans-Regular.ttf" in refused.message and "outside" in refused.message, (
        refused.message
    )
    assert (
        refused.hint == f"copy the font file itself into {data_copy / 'fonts'} in place of the link"
    ), refused.hint
    assert data_copy / "fonts" in resolved


def test_fits_made_before_another_project_registered_its_fonts_are_given_again_after_it(
    data_copy, tmp_path, monkeypatch
):
    """What is fitted, laid out and drawn is remembered by the font files behind each face name
    (fonts.state). Another project read in the same process (a game with a family of its own, as the
    test suite reads dozens) added its names for good, and a name registered again went to the end
    of the list: every text fitted before was fitted again, about 2 s of CPU for the catalogue,
    several times a run. The state now holds the project's own names, in their order; a name given
    another file is still another state."""
    from printshop.project.paths import BUNDLED_FONTS_DIR
    from printshop.typeset import fitting, fonts
    from tests.test_serve import _game_with_its_own_font

    assert not check(data_copy, games=["comrade"])[0].has_errors
    before = fonts.state()
    owls = _game_with_its_own_font(tmp_path / "publisher")
    assert not check(owls / "data", templates_dir=owls / "templates")[0].has_errors
    assert "display" in dict(fonts.state()[0]) and fonts.state() != before

    fitted = []
    real_fit = fitting._fit
    monkeypatch.setattr(
        fitting, "_fit", lambda *args, **kwargs: fitted.append(args) or real_fit(*args, **kwargs)
    )
    copy = tmp_path / "again"
    shutil.copytree(data_copy, copy)
    assert not check(copy, games=["comrade"])[0].has_errors
    assert fonts.state() == before and fitted == []

    (copy / "fonts").mkdir()  # a face of the project given another file: its texts are fitted anew
    shutil.copyfile(
        BUNDLED_FONTS_DIR / "NotoSans-Bold.ttf", copy / "fonts" / "NotoSans-Regular.ttf"
    )
    assert not check(copy, games=["comrade"])[0].has_errors
    assert fonts.state() != before and fitted


def test_a_booklets_page_texts_are_read_once_per_process_for_the_same_bytes(built, monkeypatch):
    """serve reads the text of each rules page (to lead a diagnostic at a rule to its page) from the
    booklet's PDF: every session started, a test's or a user's again, read every booklet again, a
    third of a refresh of the catalogue. The same bytes give the same texts, read once; other bytes
    are read."""
    import pypdfium2

    from printshop.live import images

    data = (built / "comrade" / "en" / "comrade-en-rules-booklet-a4.pdf").read_bytes()
    opened = []
    real = pypdfium2.PdfDocument
    monkeypatch.setattr(
        pypdfium2,
        "PdfDocument",
        lambda *args, **kwargs: opened.append(args) or real(*args, **kwargs),
    )
    monkeypatch.setattr(memos.PAGE_TEXTS, "limit", 4)
    memo.clear("page_texts")
    first = images.page_texts(data)
    again = images.page_texts(bytes(bytearray(data)))  # equal bytes, another object
    assert again == first and again is not first and len(opened) == 1
    assert len(first) > 2 and any("dissident" in page for page in first)  # (words: lower case)
    other = (built / "comrade" / "en" / "comrade-en-how-to-print-a4.pdf").read_bytes()
    assert images.page_texts(other) != first and len(opened) == 2
