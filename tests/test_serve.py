"""`printshop serve` in a real browser, and `printshop watch`, against a private copy of the data.

Headless Chromium (Debian's `chromium` package) is driven over the Chrome DevTools Protocol with the
`websockets` library: the page loads, a text file is edited, and the card's image must change; a
text too long for its frame must be listed, lead to its card (drawn, with the overset mark) and
back; finding faces by name must hide the others; a YAML syntax error must show on the page, and
clear once fixed. The browser test skips without Chromium.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from printshop import memo
from printshop.live.session import Session
from printshop.pipeline.build import build
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.conftest import REPO, edit, line_of, real_project
from tests.pdfinspect import pdf_text

CHROMIUM = next(
    (
        found
        for name in ("chromium", "chromium-browser", "google-chrome")
        if (found := shutil.which(name))
    ),
    None,
)
DEADLINE = 30  # seconds for the page to show a change (it takes well under one)


class Chromium:
    """A headless Chromium, started once for the browser tests a worker runs (each start took half a
    second and 0.4 s of CPU) and stopped after the last; each test drives a tab of its own
    (`Browser`)."""

    def __init__(self, profile: Path):
        # its singleton socket's folder, removed on close (under the test's folder, the socket's
        # path would be longer than a socket's address allows)
        self.scratch = tempfile.mkdtemp(prefix="chromium-")
        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "TMPDIR": self.scratch},
        )
        port = None
        started = time.monotonic()
        while port is None and time.monotonic() - started < 60:
            line = self.process.stderr.readline()
            if not line and self.process.poll() is not None:
                raise RuntimeError("chromium exited before listening")
            found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if found:
                port = int(found.group(1))
        if port is None:
            self.close()
            raise RuntimeError("chromium did not say where it listens")
        threading.Thread(
            target=self.process.stderr.read, daemon=True
        ).start()  # keep its pipe drained
        self.port = port

    def open_tab(self) -> "Browser":
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/json/new?about:blank", method="PUT"
        )
        return Browser(self, json.load(urllib.request.urlopen(request)))

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        shutil.rmtree(self.scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    if CHROMIUM is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    started = Chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield started
    started.close()


@pytest.fixture
def browser(chromium):
    """A new tab of the worker's Chromium, closed after the test: a page of its own, over the
    DevTools protocol. (Each test's server has a port and face tokens of its own, so nothing a tab
    before it loaded is taken for its pages.)"""
    tab = chromium.open_tab()
    yield tab
    tab.close()


class Browser:
    """A tab, driven by just enough of the DevTools protocol: navigate, evaluate JavaScript."""

    def __init__(self, chromium: Chromium, target: dict):
        from websockets.sync.client import connect

        self.chromium, self.target = chromium, target
        self._stack = contextlib.ExitStack()
        self.socket = self._stack.enter_context(
            connect(target["webSocketDebuggerUrl"], max_size=None)
        )
        self.ids = itertools.count(1)

    def call(self, method: str, **params):
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=30))
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression: str):
        result = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, what: str):
        started = time.monotonic()
        while time.monotonic() - started < DEADLINE:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"the page never showed {what} ({expression})")

    def close(self):
        try:
            self._stack.close()
        finally:
            urllib.request.urlopen(
                f"http://127.0.0.1:{self.chromium.port}/json/close/{self.target['id']}"
            ).read()


# the image of the English dissident card's front, once loaded (naturalWidth > 0): its address
DISSIDENT = (
    '(() => { const img = document.querySelector(\'td.face[data-key="cards/dissident-glasnost/front"]'
    "[data-lang=\"en\"] img'); return img && img.complete && img.naturalWidth > 0 ? img.src : ''; })()"
)


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_the_page_shows_each_edit_and_each_error(tmp_path, monkeypatch, browser):
    from PIL import Image

    from printshop.live.serve import Server

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    original = texts.read_text(encoding="utf-8")
    # the dissident card draws an image too (a stamp in its corner), which its sources name
    (data / "comrade" / "images").mkdir(exist_ok=True)
    Image.new("RGB", (90, 90), (120, 20, 20)).save(data / "comrade" / "images" / "stamp.png")
    edit(
        data / "comrade" / "faces.yaml",
        "      rule: {y: 59mm}\n",
        "      rule: {y: 59mm}\n      stamp: {kind: image, "
        "src: images/stamp.png, x: 50mm, y: 70mm, width: 5mm, height: 5mm}\n",
    )
    server = Server(
        Session(data, None, games=["comrade"], langs=["en"], render=False), port=0
    ).start()
    try:
        assert server.host == "127.0.0.1"
        browser.call("Page.enable")
        browser.call("Page.navigate", url=server.url)
        before = browser.wait_for(DISSIDENT, "the dissident card")
        before_image = urllib.request.urlopen(before).read()
        # (the rules pages follow the faces once their booklets are rendered: the page as it
        # settles)
        browser.wait_for(
            "document.querySelectorAll('td.face[data-key^=\"rules/\"]').length > 0",
            "the rules pages",
        )
        # a click on a face opens it at twice the size, drawn again (not scaled up)
        zoom = browser.evaluate(
            'document.querySelector(\'td.face[data-key="cards/dissident-glasnost/front"]'
            '[data-lang="en"] a.zoom\').href'
        )
        zoomed = urllib.request.urlopen(zoom).read()
        width = lambda png: int.from_bytes(png[16:20], "big")  # noqa: E731 - the PNG header's width
        assert zoomed.startswith(b"\x89PNG") and abs(width(zoomed) - 2 * width(before_image)) <= 1
        every_image = (
            "Object.fromEntries(Array.from(document.querySelectorAll('td.face')).map("
            "td => [td.dataset.key, td.querySelector('img').getAttribute('src')]))"
        )
        images_before = browser.evaluate(every_image)
        assert browser.evaluate("document.getElementById('status').className") == ""

        texts.write_text(
            original.replace('name: "Dissident"', 'name: "Freethinker"'), encoding="utf-8"
        )
        after = browser.wait_for(
            f"(() => {{ const src = {DISSIDENT}; return src && src !== {json.dumps(before)} "
            f"? src : ''; }})()",
            "the edited card",
        )
        assert after != before
        image = urllib.request.urlopen(after).read()
        assert image.startswith(b"\x89PNG") and image != before_image
        # only the faces that print the name were laid out again: every other image keeps its
        # address
        images_after = browser.evaluate(every_image)
        assert images_after.keys() == images_before.keys() and len(images_after) > 5
        changed = [key for key in images_after if images_after[key] != images_before[key]]
        assert changed and all(key.startswith("cards/dissident") for key in changed), changed

        # a name too long for its frame: the error is listed, a click on it shows the card, which is
        # drawn with the text cut at its frame and the overset mark (an image, not a hole); the
        # card's own flag leads back
        texts.write_text(
            original.replace('name: "Dissident"', 'name: "' + "Dissident " * 30 + '"'),
            encoding="utf-8",
        )
        overflow = (
            "document.querySelector('.diagnostic.error[data-code=\"text-overflow\"][data-faces]')"
        )
        browser.wait_for(
            f"document.getElementById('status').className === 'failed' && {overflow} !== null",
            "the overflow",
        )
        assert (
            browser.evaluate(f"{overflow}.querySelector('.goto').textContent")
            == "\u2192 show its 2 faces"
        )
        browser.evaluate(f"{overflow}.click()")
        assert browser.evaluate("document.querySelector('td.face.focus').dataset.key").startswith(
            "cards/dissident"
        )
        browser.wait_for(
            "(() => { const img = document.querySelector('td.face.focus img'); "
            "return img && img.complete && img.naturalWidth > 0; })()",
            "the overset card's image",
        )
        assert browser.evaluate("document.querySelectorAll('.missing').length") == 0
        # under the card: the files and lines it prints, then the template that makes it (its path
        # on hover)
        assert (
            browser.evaluate(
                "document.querySelector('td.face.focus .sources .template').textContent"
            )
            == "dissident.j2"
        )
        assert browser.evaluate(
            "document.querySelector('td.face.focus .sources .template').title"
        ).endswith("templates/comrade/faces/dissident.j2")
        assert browser.evaluate(
            "Array.from(document.querySelectorAll('td.face.focus .sources .art'))"
            ".map(span => [span.textContent, span.title])"
        ) == [["images/stamp.png", f"{data}/comrade/images/stamp.png"]]
        assert browser.evaluate(
            "document.querySelector('td.face.focus .sources').textContent"
        ).endswith("dissident.j2 \u00b7 images/stamp.png")
        # the card's two overflow errors (glasnost and perestroika print the same name) make one
        # flag
        flags = browser.evaluate(
            "Array.from(document.querySelectorAll('td.face.focus button.flag.error'))"
            ".map(b => b.textContent)"
        )
        assert flags == ["error \u00b7 text-overflow \u00d72"], flags
        browser.evaluate("document.querySelector('td.face.focus button.flag.error').click()")
        assert (
            browser.evaluate("document.querySelector('.diagnostic.focus').dataset.code")
            == "text-overflow"
        )
        assert browser.evaluate(
            "document.querySelector('.diagnostic.focus').closest('details').open"
        )
        # finding faces by name: only the backs are left; a click on the overflow brings every face
        # back
        browser.evaluate(
            "const find = document.getElementById('find'); find.value = 'back'; "
            "find.dispatchEvent(new Event('input'))"
        )
        shown = "Array.from(document.querySelectorAll('tr[data-key]')).filter(tr => !tr.classList.contains('hidden'))"
        assert browser.evaluate(f"{shown}.every(tr => tr.dataset.key.includes('back'))")
        assert browser.evaluate(f"{shown}.length") >= 1
        browser.evaluate("find.value = 'no such face'; find.dispatchEvent(new Event('input'))")
        assert browser.evaluate(
            "document.querySelector('h2#game-comrade').offsetParent === null"
        )  # hidden
        browser.evaluate(f"{overflow}.click()")
        assert browser.evaluate("document.getElementById('find').value") == ""
        assert browser.evaluate("document.querySelector('h2#game-comrade').offsetParent !== null")
        assert browser.evaluate("document.querySelector('td.face.focus').dataset.key").startswith(
            "cards/dissident"
        )

        texts.write_text(
            original.replace('name: "Dissident"', 'name: "Dissident\n  broken: ['), encoding="utf-8"
        )
        browser.wait_for(
            "document.getElementById('status').className === 'failed' && "
            "Array.from(document.querySelectorAll('.diagnostic.error[data-code=\"yaml-syntax\"]'))"
            ".some(d => d.textContent.includes('en.yaml'))",
            "the syntax error",
        )
        assert browser.evaluate(f"{DISSIDENT} !== ''"), "the last good faces stay on the page"
        # greyed and saying why: none of them is drawn from the data as it stands
        assert browser.evaluate(
            "Array.from(document.querySelectorAll('td.face')).every(td => "
            "td.classList.contains('stale') && td.querySelector('.stale-note'))"
        )

        texts.write_text(original, encoding="utf-8")
        browser.wait_for(
            "document.getElementById('status').className === '' && "
            "document.querySelectorAll('.diagnostic.error').length === 0",
            "the error cleared",
        )
        restored = browser.wait_for(
            f"(() => {{ const src = {DISSIDENT}; return src && src !== {json.dumps(after)} "
            f"? src : ''; }})()",
            "the original card again",
        )
        assert urllib.request.urlopen(restored).read() == before_image

        # an error in a rule leads to the rules page that prints it, and says so
        browser.wait_for(
            "document.querySelectorAll('td.face[data-key=\"rules/2\"]').length === 1", "the rules"
        )
        texts.write_text(
            original.replace("uses {total} cards", "uses {totl} cards"), encoding="utf-8"
        )
        placeholder = (
            "document.querySelector('.diagnostic.error[data-code=\"placeholder\"][data-faces]')"
        )
        browser.wait_for(f"{placeholder} !== null", "the rule's error")
        assert (
            browser.evaluate(f"{placeholder}.querySelector('.goto').textContent")
            == "\u2192 show the rules page"
        )
        browser.evaluate(f"{placeholder}.click()")
        page = browser.evaluate("document.querySelector('td.face.focus').dataset.key")
        assert page.startswith("rules/") and page != "rules/1", page  # (the cover prints no rule)

        # mended, and reworded: the faces are current at once, the rules pages greyed as last drawn
        # (kept through the error) while the booklet is set again
        import printshop.render.booklet as booklet_module

        gate, render = threading.Event(), booklet_module.render_booklet
        monkeypatch.setattr(
            booklet_module,
            "render_booklet",
            lambda *a, **k: gate.wait(DEADLINE) and render(*a, **k),
        )
        texts.write_text(
            original.replace("uses {total} cards", "uses all {total} cards"), encoding="utf-8"
        )
        browser.wait_for(
            "document.querySelectorAll('.diagnostic.error').length === 0 && "
            "document.querySelectorAll('td.face.pending .pending-note').length > 0 && "
            "document.querySelectorAll('td.face.pending .pending-note').length === "
            "document.querySelectorAll('td.face[data-key^=\"rules/\"]').length",
            "the pages pending (every rules page, covers included)",
        )
        assert "setting the rules pages again" in browser.evaluate(
            "document.getElementById('status').textContent"
        )
        assert (
            browser.evaluate(
                "document.querySelectorAll('td.face.stale:not(.pending), td.face.error').length"
            )
            == 0
        )
        gate.set()
        browser.wait_for(
            "document.querySelectorAll('td.face.pending').length === 0 && "
            "document.getElementById('status').textContent.startsWith('up to date (')",
            "the pages set",
        )
        assert "setting" not in browser.evaluate("document.getElementById('status').textContent")
    finally:
        server.close()


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_the_page_says_when_the_server_is_gone_and_catches_up_when_it_is_back(tmp_path, browser):
    """A page left open when `printshop serve` stopped looked current while nothing updated it; it
    now says so, and when serve runs again on the same port it reconnects by itself and shows the
    data as it is."""
    from printshop.live.serve import Server

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    server = Server(
        Session(data, None, games=["comrade"], langs=["en"], render=False), port=0
    ).start()
    port = server.port
    try:
        browser.call("Page.enable")
        browser.call("Page.navigate", url=server.url)
        before = browser.wait_for(DISSIDENT, "the dissident card")
        server.close()
        browser.wait_for(
            "document.getElementById('status').textContent.startsWith('no answer from printshop serve')",
            "the page saying the server is gone",
        )
        assert browser.evaluate("document.getElementById('status').className") == "failed"
        texts.write_text(
            texts.read_text(encoding="utf-8").replace('name: "Dissident"', 'name: "Freethinker"'),
            encoding="utf-8",
        )  # edited while no server ran
        server = Server(
            Session(data, None, games=["comrade"], langs=["en"], render=False), port=port
        ).start()
        browser.wait_for(
            "document.getElementById('status').className === ''", "the page current again"
        )
        browser.wait_for(
            f"(() => {{ const src = {DISSIDENT}; return src && src !== {json.dumps(before)} ? src : ''; }})()",
            "the card as edited meanwhile",
        )
    finally:
        server.close()


def test_the_server_stops_at_once_with_a_page_open(tmp_path):
    """An open page holds its event stream: uvicorn's shutdown waited for it, and `close()` (Ctrl-C)
    returned only when its joins timed out, 10 s later, the server still serving. The streams are
    now ended first."""
    import http.client

    from printshop.live.serve import Server

    server = Server(
        Session(DEFAULT_DATA_DIR, None, games=["comrade"], langs=["en"], render=False), port=0
    ).start()
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    connection.request("GET", "/events")
    response = connection.getresponse()
    while not response.readline().startswith(b"data: "):  # the page's first message: connected
        pass
    started = time.monotonic()
    server.close()
    assert time.monotonic() - started < 5
    assert not any(thread.is_alive() for thread in server._threads)
    rest = (
        response.read()
    )  # the stream ended: the server closed it (after the rules pages' news, if it came)
    assert rest.endswith(b"\n") and all(
        line.startswith(b"data: ") for line in rest.split(b"\n") if line
    ), rest
    connection.close()


def test_the_server_stops_at_once_while_it_renders_the_rules_pages(monkeypatch):
    """serve renders every game's rules booklets once the page is served: Ctrl-C then waited for all
    of them. The booklet being rendered is now the last."""
    import printshop.render.booklet as booklet_module
    from printshop.live.serve import Server

    rendering, calls = threading.Event(), []
    render = booklet_module.render_booklet
    monkeypatch.setattr(
        booklet_module,
        "render_booklet",
        lambda *a, **k: (calls.append(1), rendering.set(), time.sleep(0.5), render(*a, **k))[3],
    )
    server = Server(
        Session(DEFAULT_DATA_DIR, None, games=["comrade", "assassin"], render=False), port=0
    ).start()
    assert rendering.wait(DEADLINE)  # (four booklets: two games, two languages)
    begun = len(calls)
    server.close()
    # no booklet begun once the server was asked to stop (counted, not timed: a loaded machine
    # is slow either way), and nothing left running
    assert len(calls) == begun < 4, calls
    assert not any(thread.is_alive() for thread in server._threads)


def test_a_diagnostic_names_the_faces_it_concerns(tmp_path):
    """A text too long for its frame: the diagnostic is listed with the card that prints it."""
    from printshop.live.serve import Preview

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    texts.write_text(
        texts.read_text(encoding="utf-8").replace(
            'name: "Dissident"', 'name: "' + "Dissident " * 40 + '"'
        ),
        encoding="utf-8",
    )
    preview = Preview(Session(data, None, games=["comrade"], langs=["en"], render=False))
    preview.refresh()
    overflow = [d for d in preview.state["diagnostics"] if d["code"] == "text-overflow"]
    assert overflow and overflow[0]["faces"], overflow
    token = overflow[0]["faces"][0]
    assert preview.views[token].key.startswith("cards/dissident")
    # the card lists the text file first (what a translator edits), by file with runs of lines
    [face] = [
        f
        for g in preview.state["games"]
        for row in g["rows"]
        for f in row["faces"].values()
        if f["token"] == token
    ]
    assert face["files"][0]["short"] == "text/en.yaml" and face["files"][0]["path"].endswith(
        "comrade/text/en.yaml"
    )
    assert any(file["short"] == "faces.yaml" for file in face["files"][1:])
    assert face["template"].endswith("templates/comrade/faces/dissident.j2"), (
        face
    )  # what makes its texts


def _comrade_preview(tmp_path: Path):
    """A Preview of a copy of the data and templates, Comrade in English and French."""
    from printshop.live.serve import Preview

    data, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    shutil.copytree(DEFAULT_DATA_DIR.parent / "templates", templates)
    session = Session(
        data, None, games=["comrade"], langs=["en", "fr"], render=False, templates_dir=templates
    )
    return Preview(session), data, templates


def test_a_face_an_error_stops_stays_greyed_as_last_drawn_until_the_data_is_mended(tmp_path):
    """A template that no longer compiles stops the faces that use it: they stay in the page's
    state, marked stale, in their place among the others, and the template's error leads to them;
    once mended they are drawn again. A card taken out of data that has no error is gone from the
    page at once."""

    preview, data, templates = _comrade_preview(tmp_path)

    def faces():
        return {
            (row["key"], lang): face
            for g in preview.state["games"]
            for row in g["rows"]
            for lang, face in row["faces"].items()
        }

    def order():
        return [row["key"] for g in preview.state["games"] for row in g["rows"]]

    preview.refresh()
    assert preview.state["ok"]
    good, good_order = faces(), order()
    assert not any(face["stale"] for face in good.values())
    back = templates / "comrade" / "faces" / "back.j2"
    original = back.read_text(encoding="utf-8")
    back.write_text(original.replace("{% endblock %}", "{% endblok %}", 1), encoding="utf-8")
    preview.refresh({back})
    assert not preview.state["ok"]
    broken = faces()
    assert order() == good_order and broken.keys() == good.keys()  # nothing vanished, nothing moved
    stale = {place for place, face in broken.items() if face["stale"]}
    assert stale == {("cards/back", "en"), ("cards/back", "fr")}, stale
    assert all(
        broken[place]["token"] == good[place]["token"] for place in stale
    )  # the image as last drawn
    assert preview.image(broken[("cards/back", "en")]["token"]).startswith(b"\x89PNG")
    [error, *_] = [d for d in preview.state["diagnostics"] if d["code"] == "template"]
    assert error["path"].endswith("comrade/faces/back.j2")
    assert {broken[place]["token"] for place in stale} <= set(error["faces"])
    # still broken at the next refresh (another file saved): still there, still stale
    preview.refresh({data / "comrade" / "text" / "en.yaml"})
    assert {place for place, face in faces().items() if face["stale"]} == stale

    back.write_text(original, encoding="utf-8")
    preview.refresh({back})
    assert preview.state["ok"] and not any(face["stale"] for face in faces().values())
    assert faces().keys() == good.keys()

    game = (
        data / "comrade" / "game.yaml"
    )  # a card renamed: its old face goes, as a removed one would
    game.write_text(
        game.read_text(encoding="utf-8").replace(
            "id: dissident-glasnost", "id: dissident-openness"
        ),
        encoding="utf-8",
    )
    preview.refresh({game})
    assert preview.state["ok"], [
        d["text"] for d in preview.state["diagnostics"] if d["severity"] == "error"
    ]
    assert ("cards/dissident-glasnost/front", "en") in good and (
        "cards/dissident-glasnost/front",
        "en",
    ) not in faces()
    assert ("cards/dissident-openness/front", "en") in faces()


def test_a_session_reports_a_fault_many_faces_meet_once_as_validate_does(tmp_path):
    """Kremlin's markers share one template through 14 faces in two languages: a block renamed in it
    is one error (and its frame without a block another) in `validate`; a session, which lays out
    each face on its own to reuse it later, reported it once per face and language (28 times). Now
    the same two, at the first refresh and after a refresh that reuses every face."""
    data, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    shutil.copytree(DEFAULT_DATA_DIR.parent / "templates", templates)
    marker = templates / "kremlin" / "faces" / "marker.j2"
    marker.write_text(
        marker.read_text(encoding="utf-8").replace("{% block sub %}", "{% block subtitle %}"),
        encoding="utf-8",
    )
    from printshop.pipeline.build import check

    report, _ = check(data, games=["kremlin"], templates_dir=templates, variant=None)
    expected = sorted(d.format() for d in report.errors)
    assert len(expected) == 2, expected
    session = Session(data, None, games=["kremlin"], render=False, templates_dir=templates)
    first = session.refresh()
    assert sorted(d.format() for d in first.report.errors) == expected
    texts = data / "kremlin" / "text" / "en.yaml"
    texts.write_text(texts.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again = session.refresh({texts})
    assert again.faces_laid_out == 0 and sorted(d.format() for d in again.report.errors) == expected


def test_faces_asked_for_together_are_rasterised_one_at_a_time(tmp_path, monkeypatch):
    """The page asks for every face's image at once and the server draws them on a pool of threads;
    pdfium may not be called from two threads at once. Unguarded, a Kremlin page lost images
    ("Failed to load page") and now and then crashed the server (heap corrupted). Each pdfium
    document, from open to close, is now alone."""
    from concurrent.futures import ThreadPoolExecutor

    import pypdfium2

    from printshop.live.serve import Preview

    open_now, most = [0], [0]
    guard = threading.Lock()
    real = pypdfium2.PdfDocument

    class Counted(real):
        def __init__(self, *args, **kwargs):
            with guard:
                open_now[0] += 1
                most[0] = max(most[0], open_now[0])
            time.sleep(0.005)  # widen the window two threads would share
            super().__init__(*args, **kwargs)

        def close(self):
            super().close()
            with guard:
                open_now[0] -= 1

    monkeypatch.setattr(pypdfium2, "PdfDocument", Counted)
    preview = Preview(
        Session(DEFAULT_DATA_DIR, None, games=["comrade"], langs=["en"], render=False)
    )
    preview.refresh()
    tokens = list(preview.views)
    with ThreadPoolExecutor(8) as pool:
        images = list(pool.map(lambda token: preview.image(token, zoom=True), tokens * 2))
    assert all(image is not None and image.startswith(b"\x89PNG") for image in images)
    assert most[0] == 1, f"{most[0]} pdfium documents open at once"


def test_a_session_refuses_what_a_build_refuses_at_every_refresh(tmp_path):
    """A game folder whose name is no plain id, or a symlink leading out of the project: a build
    refuses (unsafe-path) and writes nothing; `watch` built them anyway, writing "pigeons spéciaux/"
    into the output. Now each refresh says so and writes nothing, until the folder is renamed and
    the link removed."""
    data, out = tmp_path / "data", tmp_path / "out"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    odd = data / "comrade copy"
    shutil.copytree(data / "comrade", odd)
    session = Session(data, out, games=None, langs=["en"], papers=["a4"])
    for changed in (
        None,
        {data / "comrade" / "text" / "en.yaml"},
    ):  # the first refresh, and one after an edit
        update = session.refresh(changed)
        assert not update.ok and not update.written
        assert [d.location.path for d in update.report.errors if d.code == "unsafe-path"] == [
            str(odd)
        ]
    assert not (out / "comrade copy").exists()
    odd.rename(data / "comrade-copy")
    update = session.refresh({odd, data / "comrade-copy"})
    assert update.ok and (out / "comrade-copy" / "en" / "comrade-copy-en-cards-a4.pdf").exists()
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"not for the page")
    (data / "comrade" / "link.png").symlink_to(secret)
    update = session.refresh({data / "comrade" / "link.png"})
    assert not update.ok and any(
        "symlink" in d.message for d in update.report.errors if d.code == "unsafe-path"
    )


GAME_FONTS = """families:
  display:
    regular: NotoSerif-Bold.ttf
    bold: NotoSerif-Bold.ttf
    italic: NotoSerif-BoldItalic.ttf
    bold_italic: NotoSerif-BoldItalic.ttf
"""


def _game_with_its_own_font(root: Path) -> Path:
    """A project whose game adds a font family in its own print/fonts.yaml and sets its card titles
    in it."""
    from printshop.cli import main

    assert main(["init", str(root)]) == 0
    cwd = Path.cwd()
    try:
        os.chdir(root)
        assert main(["new", "owls"]) == 0
    finally:
        os.chdir(cwd)
    (root / "data" / "owls" / "print").mkdir(
        exist_ok=True
    )  # (printshop new writes its colours there)
    (root / "data" / "owls" / "print" / "fonts.yaml").write_text(GAME_FONTS, encoding="utf-8")
    faces = root / "data" / "owls" / "faces.yaml"
    faces.write_text(
        faces.read_text(encoding="utf-8").replace(
            "font: sans-bold, size: 14pt", "font: display, size: 14pt", 1
        ),
        encoding="utf-8",
    )
    return root


def test_a_game_with_a_font_family_of_its_own_builds_and_watches_the_same(tmp_path):
    """A game may add a font family in its own print/fonts.yaml (docs/data-format.md, Layers). A
    check said it gave printshop's own 'serif' and 'sans' other files (pydantic's == weighed where
    each was read), so nothing built; watch and serve registered the project's families only, and
    drew the cards without the frames set in the game's family, silently. Now the build and a
    session write the same files, titles in."""
    root = _game_with_its_own_font(tmp_path / "publisher")
    data, templates = root / "data", root / "templates"
    built = build(data, tmp_path / "built", templates_dir=templates, langs=["en"], papers=["a4"])
    assert not built.report.has_errors, [d.format() for d in built.report.errors]
    session = Session(data, tmp_path / "live", langs=["en"], papers=["a4"], templates_dir=templates)
    update = session.refresh()
    assert update.ok, [d.format() for d in update.report.errors]
    cards = tmp_path / "live" / "owls" / "en" / "owls-en-cards-a4.pdf"
    assert "SUN" in pdf_text(cards, "") and "MOON" in pdf_text(cards, "")
    _same_files(tmp_path / "live", tmp_path / "built")
    # a game giving printshop's own family other files is still refused, at every refresh
    fonts = data / "owls" / "print" / "fonts.yaml"
    fonts.write_text(GAME_FONTS + "  serif:\n    regular: NotoSans-Regular.ttf\n", encoding="utf-8")
    for changed in ({fonts}, {data / "owls" / "text" / "en.yaml"}):
        update = session.refresh(changed)
        assert [d.message for d in update.report.errors] == [
            "owls gives the font family 'serif' other files than the project's: name the game's family differently"
        ]


def test_the_page_shows_the_backs_of_two_sided_sheets(tmp_path):
    """A sheet whose items have backs (the sampler's player aids) prints them behind each item; the
    page listed the fronts only, while the issue asks for every face and sheet."""
    from printshop.live.serve import Preview
    from printshop.pipeline.build import check
    from tests.conftest import fixture_project

    data, templates = fixture_project(tmp_path)
    _, checked = check(data, games=["sampler"], langs=["en"], templates_dir=templates, variant=None)
    backs = {
        face.key for layout in checked.layouts for sheet in layout.sheets for face in sheet.backs
    }
    assert backs  # the fixture has some
    preview = Preview(
        Session(data, None, games=["sampler"], langs=["en"], render=False, templates_dir=templates)
    )
    preview.refresh()
    rows = [row["key"] for game in preview.state["games"] for row in game["rows"]]
    assert backs <= set(rows), backs - set(rows)
    for back in backs:  # each after its front, as a player turns the sheet over
        assert rows[rows.index(back) - 1].rstrip("/") == back.removesuffix("/back"), rows
    token = next(token for token, view in preview.views.items() if view.key in backs)
    assert preview.image(token).startswith(b"\x89PNG")


def test_a_token_names_one_face_for_good(tmp_path):
    """The browser keeps a face's image by its token for good: a token never names another face, in
    this server or in the next one started on the same port (tokens were `id(face)`, which a face
    laid out where a freed one was takes again). An unchanged face keeps its token, so its image is
    not asked for again."""
    from printshop.live.serve import Preview

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    original = texts.read_text(encoding="utf-8")
    preview = Preview(Session(data, None, games=["comrade"], langs=["en"], render=False))
    preview.refresh()
    given = {token: view.key for token, view in preview.views.items()}
    for number in range(5):
        texts.write_text(
            original.replace('name: "Dissident"', f'name: "Dissident {number}"'), encoding="utf-8"
        )
        before = {view.key: token for token, view in preview.views.items()}
        preview.refresh({texts})
        for token, view in preview.views.items():
            if view.key.startswith("cards/dissident"):
                assert token not in given, (token, view.key)  # a new face, a new token
            else:
                assert token == before[view.key]  # the same face, the same token
            given.setdefault(token, view.key)
    again = Preview(Session(data, None, games=["comrade"], langs=["en"], render=False))
    again.refresh()
    assert not set(again.views) & set(given)  # a server started again gives tokens of its own


def test_keep_stale_keeps_each_missing_face_after_the_one_it_followed():
    from printshop.live.views import FaceView, keep_stale

    def view(key, lang="en", stale=False):
        return FaceView(f"{key}-{lang}", "g", lang, key, None, None, {}, Path("."), [], stale=stale)

    earlier = [view("a"), view("b"), view("c"), view("d"), view("e")]
    now = [view("a"), view("c"), view("e"), view("f")]
    merged = keep_stale(earlier, now)
    assert [(v.key, v.stale) for v in merged] == [
        ("a", False),
        ("b", True),
        ("c", False),
        ("d", True),
        ("e", False),
        ("f", False),
    ]
    assert [v.key for v in keep_stale(earlier, [])] == [
        "a",
        "b",
        "c",
        "d",
        "e",
    ]  # nothing readable: all kept
    assert all(v.stale for v in keep_stale(earlier, []))
    assert [v.key for v in keep_stale([view("x"), view("a")], [view("a")])] == [
        "x",
        "a",
    ]  # before the first
    assert keep_stale(earlier, earlier) == earlier  # nothing missing: as it is


def test_line_ranges_and_source_files():
    from printshop.live.views import line_ranges, source_files

    assert line_ranges([7, 8, 9, 12, 145, 8, 0]) == "7\u20139, 12, 145"
    assert line_ranges([3]) == "3" and line_ranges([0]) == ""
    files = source_files(
        [
            ("data/g/text/fr.yaml", 9),
            ("data/g/faces.yaml", 3),
            ("data/g/text/fr.yaml", 10),
            ("elsewhere/x.yaml", 1),
        ],
        "data/g",
    )
    assert files == [
        {"path": "data/g/text/fr.yaml", "short": "text/fr.yaml", "lines": "9\u201310"},
        {"path": "data/g/faces.yaml", "short": "faces.yaml", "lines": "3"},
        {"path": "elsewhere/x.yaml", "short": "elsewhere/x.yaml", "lines": "1"},
    ]


def test_a_text_too_long_is_drawn_cut_at_its_frame_with_the_overset_mark(tmp_path):
    """The preview draws an overflowing face (the build never does): the magenta mark sits at the
    frame's bottom-right corner, and the same face with a text that fits has none there."""
    import io

    from PIL import Image

    from printshop.live.images import PREVIEW_DPI, face_png
    from printshop.live.serve import Preview
    from printshop.render.faces import draw_face

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    original = texts.read_text(encoding="utf-8")

    def glasnost(text: str):
        texts.write_text(text, encoding="utf-8")
        preview = Preview(Session(data, None, games=["comrade"], langs=["en"], render=False))
        preview.refresh()
        [view] = [v for v in preview.views.values() if v.key == "cards/dissident-glasnost/front"]
        return view

    def mark_pixels(view) -> int:
        face = view.face
        [title] = [frame for frame in face.frames if frame.name == "title"]
        scale = PREVIEW_DPI / 72
        corner_x = (face.bleed + title.frame.x + title.frame.width) * scale
        corner_y = (
            face.bleed + title.frame.y + title.frame.height
        ) * scale  # from the top: data's way
        image = Image.open(io.BytesIO(face_png(view))).convert("RGB")
        return sum(
            1
            for dx in range(-4, 5)
            for dy in range(-4, 5)
            if (lambda r, g, b: r > 195 and g < 30 and 90 < b < 170)(
                *image.getpixel((round(corner_x) + dx, round(corner_y) + dy))
            )
        )

    fitting = glasnost(original)
    assert mark_pixels(fitting) == 0
    overset = glasnost(original.replace('name: "Dissident"', 'name: "' + "Dissident " * 30 + '"'))
    assert not next(frame for frame in overset.face.frames if frame.name == "title").fit.fits
    assert mark_pixels(overset) >= 20
    from reportlab.pdfgen.canvas import Canvas

    with pytest.raises(ValueError, match="does not fit"):  # the build's guard is unchanged
        draw_face(
            Canvas(io.BytesIO()), overset.face, overset.paints, overset.motifs, overset.assets
        )


def _same_files(left: Path, right: Path) -> None:
    names = sorted(path.relative_to(left) for path in left.rglob("*.pdf"))
    assert names == sorted(path.relative_to(right) for path in right.rglob("*.pdf")) and names
    for name in names:
        assert (left / name).read_bytes() == (right / name).read_bytes(), name


def test_a_session_writes_what_a_cold_build_writes(tmp_path, monkeypatch):
    """...and places the faces the edit left alone without asking the new PDF anything: drawn in a
    seeded PDF using nothing beyond the seed (its letters, its fonts, the footers'), with the same
    seed now (replay.py)."""
    from printshop.render import replay as replay_module
    from printshop.render.helper import seed_of

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "fr.yaml"
    session = Session(data, tmp_path / "live", games=["comrade"], langs=["en", "fr"], papers=["a4"])
    first = session.refresh()
    assert first.ok, [d.format() for d in first.report.errors]
    placed, asked = [], []
    replay = replay_module.replay

    def counting(canvas, recording):
        (
            placed
            if recording.sealed is not None and recording.sealed == seed_of(canvas._doc)
            else asked
        ).append(1)
        return replay(canvas, recording)

    monkeypatch.setattr(replay_module, "replay", counting)
    original = texts.read_text(encoding="utf-8")
    assert 'name: "Dissident"' in original
    texts.write_text(original.replace('name: "Dissident"', 'name: "Dissidente"'), encoding="utf-8")
    update = session.refresh({texts})
    assert len(placed) >= 4 and not asked
    assert update.ok and update.reloaded == "texts"
    assert 1 <= update.faces_laid_out <= 4  # the faces that print the name, not the deck
    assert update.jobs_rendered == ["comrade fr a4"]
    # a frame sized across the deck (size_across: deck) may move a face that was not laid out again
    assert 1 <= update.faces_drawn <= 4
    assert [path.name for path in update.written if "cards" in path.name] == [
        "comrade-fr-cards-a4.pdf"
    ]
    cold = build(
        data, tmp_path / "cold", games=["comrade"], langs=["en", "fr"], papers=["a4"], force=True
    )
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_session_sets_a_rules_booklet_again_only_when_what_it_reads_changed(
    tmp_path, monkeypatch
):
    """A save re-ran its jobs whole: every rules booklet and how-to page of the game was set again,
    most of a watch refresh, when a card's text or a colour the rules do not use changed. A session
    now keeps each booklet with the colours and motifs it read (render/booklet.py): a card's text
    saved, or the gold of the card backs, sets none again; a colour or a motif the booklets read
    sets them again. The files are a cold build's."""
    import printshop.render.booklet as booklet_module

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    settings = {"games": ["comrade"], "langs": ["en"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", **settings)
    assert session.refresh().ok
    set_again = []
    # (the process's booklets: a booklet another test set with one of these edits would be given
    # here)
    memo.clear("booklets")
    setting = booklet_module.set_booklet
    monkeypatch.setattr(
        booklet_module,
        "set_booklet",
        lambda game, booklet, *a, **k: (
            (set_again.append(a[6]) if not k.get("measure") else None)
            or setting(  # (a[6]: the file's name)
                game, booklet, *a, **k
            )
        ),
    )
    texts, colours = data / "comrade" / "text" / "en.yaml", data / "print" / "colours.yaml"
    saves = [
        (
            texts,
            'goal: "Find the dissident',
            'goal: "Track down the dissident',
            False,
        ),  # a card's text
        # a colour of the cards the booklet does not read (its covers read gold and the reds)
        (colours, "palette:\n", 'palette:\n  paper-deep: "#e2d6b6"\n', False),
        (colours, "palette:\n", 'palette:\n  grey: "#5a5650"\n', True),  # the rules' table grids
        (
            data / "print" / "motifs.yaml",
            "motifs:\n",  # the star on the rules' cover (and the card backs)
            'motifs:\n  star:\n    viewbox: [100, 100]\n    paths:\n      - d: "M50 8 L92 90 L8 90 Z"\n',
            True,
        ),
    ]
    for number, (path, old, new, booklets) in enumerate(saves):
        edit(path, old, new)
        update = session.refresh({path})
        assert update.ok and "comrade en a4" in update.jobs_rendered and update.written
        assert bool(set_again) == booklets, (old, set_again)
        assert (
            all(
                name in set_again
                for name in ("comrade-en-rules-a5.pdf", "comrade-en-rules-booklet-a4.pdf")
            )
            or not booklets
        )
        assert not build(
            data, tmp_path / f"cold-{number}", force=True, **settings
        ).report.has_errors
        _same_files(tmp_path / "live", tmp_path / f"cold-{number}")
        set_again.clear()


def test_a_session_replays_the_sheets_an_edit_left_alone_and_writes_what_a_cold_build_writes(
    tmp_path, monkeypatch
):
    """Player sheets were drawn again whole at every run of their job, while card faces were
    replayed: a save of one role's flavour text drew every role sheet of the game again, on its page
    and its press page. Sheets now go through the session's recordings too (render/replay.py): only
    the sheet that prints the text is drawn; the files are a cold build's."""
    import printshop.render.faces as faces_module

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    settings = {"games": ["comrade-stalin"], "langs": ["en"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", **settings)
    assert session.refresh().ok
    sheets = [
        face
        for layout in session.checked.layouts
        for sheet in layout.sheets
        for face in sheet.faces
    ]
    assert len(sheets) >= 8
    frames = []
    draw_frame = faces_module.draw_frame
    monkeypatch.setattr(
        faces_module,
        "draw_frame",
        lambda canvas, laid, *a, **k: frames.append(laid.name) or draw_frame(canvas, laid, *a, **k),
    )
    texts = data / "comrade-stalin" / "text" / "en.yaml"
    edit(texts, "He smiles only at me.", "He smiles at me alone.")
    update = session.refresh({texts})
    assert update.ok and update.jobs_rendered == ["comrade-stalin en a4"]
    favourite = next(face for face in sheets if face.key.endswith("/favourite"))
    # the favourite's sheet, on its page and its press page, not every sheet twice (205 frames
    # before)
    assert (
        0 < len(frames) <= 2 * len(favourite.frames) < sum(len(face.frames) for face in sheets)
    ), frames
    assert not build(data, tmp_path / "cold", force=True, **settings).report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_replayed_face_asks_the_pdf_for_the_version_its_drawing_needed_and_one_setting_opacity_is_drawn(
    monkeypatch,
):
    """ReportLab makes a PDF 1.4 when a colour with an alpha is set, opaque or not: a face drawn so
    and replayed alone into a new PDF (a press page holds nothing else) left it 1.3, unlike a cold
    build. A recording now asks the document for what drawing asked; a face that sets an opacity or
    overprint is never replayed, as the state it needs lives in the canvas, not in the recording."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from printshop.render.colour import Paints
    from printshop.render.replay import record_face, replay

    preview_session = Session(DEFAULT_DATA_DIR, None, games=["comrade"], langs=["en"], render=False)
    preview_session.refresh()
    face = next(
        face for deck in preview_session.checked.layouts[0].decks for face in deck.faces.values()
    )
    project = preview_session.checked.project
    paints = Paints(project.colours.palette)

    def canvas() -> Canvas:
        return Canvas(io.BytesIO(), invariant=1, initialFontName="sans")

    drawn = canvas()
    recording = record_face(
        drawn, face, paints, project.motifs.motifs, DEFAULT_DATA_DIR / "comrade"
    )
    assert drawn._doc._pdfVersion == (1, 4) and ("transparency",) in recording.versions
    placed = canvas()
    assert placed._doc._pdfVersion == (1, 3) and replay(placed, recording)
    assert placed._doc._pdfVersion == (1, 4)

    import printshop.render.replay as replay_module  # a face whose drawing sets an opacity

    drawing = replay_module.draw_face
    monkeypatch.setattr(
        replay_module, "draw_face", lambda c, *a, **k: (c.setFillAlpha(0.5), drawing(c, *a, **k))
    )
    recording = record_face(
        canvas(), face, paints, project.motifs.motifs, DEFAULT_DATA_DIR / "comrade"
    )
    assert recording.graphics_state and not replay(canvas(), recording)


def test_a_colour_or_motif_saved_runs_again_only_the_jobs_that_read_it_and_every_file_is_a_cold_builds(
    tmp_path,
):
    """Any save of the shared palette or motifs ran every job of the session again (the print folder
    is in a job's key). A session's job now holds the colours and motifs its run looked up: saving
    one runs again the jobs that read it (or draw a face laid out anew for it) and no other. Every
    colour of the palette, then every shared motif, is saved in turn: each job left alone writes
    what a job run from nothing writes with it, and at the end the files are a cold build's."""
    from printshop.pipeline.jobs import run

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    colours = data / "print" / "colours.yaml"
    settings = {"games": ["comrade"], "langs": ["en"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", **settings)
    assert session.refresh().ok
    palette = session.project.view(session.project.games["comrade"]).colours.palette
    assert len(palette) >= 12
    left_alone, ran = set(), set()
    for number, name in enumerate(sorted(palette)):
        value = f"#{(number * 40 + 17) % 256:02x}{(number * 90 + 5) % 256:02x}{(number * 60 + 99) % 256:02x}"
        text = colours.read_text(encoding="utf-8")
        colours.write_text(
            text.replace("palette:\n", f'palette:\n  {name}: "{value}"\n', 1)
            if f"  {name}:" not in text
            else re.sub(
                rf'(?m)^  {re.escape(name)}: "#[0-9a-fA-F]{{6}}"', f'  {name}: "{value}"', text
            ),
            encoding="utf-8",
        )
        update = session.refresh({colours})
        assert update.ok, [d.format() for d in update.report.errors]
        jobs = [label for label in session._jobs]
        ran |= {(name, label) for label in update.jobs_rendered}
        for label in jobs:
            if label in update.jobs_rendered:
                continue
            left_alone.add((name, label))
            job = next(job for job in plan_of(session) if job.label == label)
            fresh = run(
                job, session.checked, session.options, session.env
            )  # no recordings: drawn from nothing
            assert [(o.path, o.data) for o in fresh.outputs] == [
                (o.path, o.data) for o in session._jobs[label][1]
            ], (name, label)
    assert left_alone and ran, (
        left_alone,
        ran,
    )  # some colours left some jobs alone; others ran them
    # (the calibration page reads a few colours; the faction colours are Kremlin's, read by neither)
    assert ("faction-3", "comrade en a4") in left_alone and ("red", "comrade en a4") in ran

    # and each motif of the shared ones (printshop's and the project's), written over in
    # data/print/motifs.yaml
    import yaml

    shared = {
        name: motif.model_dump(exclude_defaults=True)
        for name, motif in session.project.motifs.motifs.items()
    }
    motifs = data / "print" / "motifs.yaml"
    for number, name in enumerate(sorted(shared)):  # (each stays changed, as each colour did)
        shared[name] = {
            "viewbox": [100, 100],
            "paths": [{"d": f"M{10 + number} 10 L90 10 L50 90 Z"}],
        }
        motifs.write_text(yaml.safe_dump({"motifs": shared}), encoding="utf-8")
        update = session.refresh({motifs})
        assert update.ok, [d.format() for d in update.report.errors]
        ran |= {(name, label) for label in update.jobs_rendered}
        for label in [label for label in session._jobs if label not in update.jobs_rendered]:
            left_alone.add((name, label))
            job = next(job for job in plan_of(session) if job.label == label)
            fresh = run(job, session.checked, session.options, session.env)
            assert [(o.path, o.data) for o in fresh.outputs] == [
                (o.path, o.data) for o in session._jobs[label][1]
            ], (name, label)
    # the club is Assassin's suit; the star is on Comrade's card backs and rules cover
    assert ("club", "comrade en a4") in left_alone and ("star", "comrade en a4") in ran
    assert not build(data, tmp_path / "cold", force=True, **settings).report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_jobs_noted_colours_and_motifs_hold_what_its_faces_and_booklets_read_drawn_replayed_remembered():
    """What a session's job notes of the palette and motifs (colour.noting_colours,
    jobs.noting_motifs) must hold every colour and motif its outputs read, whichever way they came:
    a face drawn (its recording's copy of the palette reads them), a face replayed, a booklet set
    and a booklet remembered. A name missed would leave the job's files stale when it changes."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from printshop.memo import Reads
    from printshop.render.booklet import render_booklet
    from printshop.render.colour import Paints, noting_colours
    from printshop.render.faces import face_colours, face_motifs
    from printshop.render.replay import FaceRecordings, draw_face_form, recording_into

    session = Session(DEFAULT_DATA_DIR, None, games=["comrade"], langs=["en"], render=False)
    session.refresh()
    layout, project = session.checked.layouts[0], session.checked.project
    faces = [face for deck in layout.decks for face in deck.faces.values()]
    palette, motifs = project.colours.palette, project.motifs.motifs
    paper = project.media.papers[project.booklet.paper]
    store = FaceRecordings()
    for way in ("drawn", "replayed"):
        for face in faces:
            drawn: list = []  # (a job's motifs note what is looked up in them: jobs.noting_motifs)
            with recording_into(store), noting_colours() as noted:
                canvas = Canvas(io.BytesIO())
                canvas.beginForm("face")
                draw_face_form(
                    canvas,
                    face,
                    Paints(palette),
                    Reads(motifs, log=drawn),
                    DEFAULT_DATA_DIR / "comrade",
                )
                canvas.endForm()
            assert face_colours(face) <= set(noted), (
                way,
                face.key,
                face_colours(face) - set(noted),
            )
            assert face_motifs(face) <= set(drawn), (way, face.key, face_motifs(face) - set(drawn))
    assert store.replayed == len(faces)
    for way in ("set", "remembered"):
        drawn = []
        with recording_into(store), noting_colours() as noted:
            render_booklet(
                layout,
                layout.booklet,
                paper,
                Paints(palette),
                Reads(motifs, log=drawn),
                "rules.pdf",
            )
        assert {"accent", "ink", "grey"} <= set(noted) and "star" in drawn, (way, noted, drawn)


def test_a_job_runs_again_when_a_face_it_draws_was_laid_out_anew_even_with_its_inputs_and_colours_as_they_were():
    """A face laid out again is a new object, whatever made the session lay it out (a colour read
    only while laying out would be one): the job that draws it runs again, though its key and the
    colours it looked up are unchanged. The same objects, key and colours: it is left alone."""
    import copy

    from printshop.live.rendering import JobRead

    session = Session(DEFAULT_DATA_DIR, None, games=["comrade"], langs=["en"], render=False)
    session.refresh()
    faces = tuple(face for deck in session.checked.layouts[0].decks for face in deck.faces.values())
    palette, motifs = {"ink": "#000000", "red": "#b22a1e"}, {}
    last = JobRead("key", faces, {"red": "#b22a1e"}, {"star": None})
    now = JobRead("key", faces, {}, {})
    assert last.holds(now, palette, motifs)
    assert not last.holds(
        JobRead("key", (*faces[:-1], copy.copy(faces[-1])), {}, {}), palette, motifs
    )
    assert not last.holds(JobRead("key", faces[:-1], {}, {}), palette, motifs)
    assert not last.holds(JobRead("other key", faces, {}, {}), palette, motifs)
    assert not last.holds(now, {**palette, "red": "#b22a1f"}, motifs)
    assert last.holds(now, {**palette, "ink": "#111111"}, motifs)  # a colour it did not look up
    assert not last.holds(
        now, palette, {"star": session.project.motifs.motifs["star"]}
    )  # a motif it looked up, now there


def plan_of(session):
    from printshop.pipeline.plan import plan

    return plan(
        session.checked.layouts,
        "pnp",
        session.papers or session.project.media.print_and_play.papers,
        [],
    )


def test_an_edit_that_brings_a_new_letter_reseeds_and_still_writes_what_a_cold_build_writes(
    tmp_path,
):
    """Card sheets are seeded with their characters in code point order (render/helper.py): a letter
    new to the deck moves the codes of the letters after it, so no face is placed unasked (sealed
    with the old seed): each is asked again, and drawn again where an answer moved; the files are
    still those of a cold build."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "fr.yaml"
    session = Session(data, tmp_path / "live", games=["comrade"], langs=["fr"], papers=["a4"])
    assert session.refresh().ok
    unchanged = session.refresh({texts})  # nothing changed: every face placed again, none drawn
    assert unchanged.ok and unchanged.faces_drawn == 0
    original = texts.read_text(encoding="utf-8")
    assert (
        "§" not in original
    )  # below every accented letter the deck has: all their codes move up by one
    texts.write_text(original.replace('name: "Dissident"', 'name: "Dissident §"'), encoding="utf-8")
    update = session.refresh({texts})
    assert update.ok and update.faces_drawn >= 1
    cold = build(
        data, tmp_path / "cold", games=["comrade"], langs=["fr"], papers=["a4"], force=True
    )
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_game_folder_moved_away_and_back_is_noticed(tmp_path):
    """A folder's own change (a watcher reports the folder, not its files) reads everything again:
    the game moved away is an error naming it, and once back it is built as before."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    session = Session(data, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"])
    assert session.refresh().ok
    (data / "comrade").rename(tmp_path / "comrade-elsewhere")
    gone = session.refresh({data / "comrade"})
    assert not gone.ok and gone.reloaded == "project" and not gone.written
    [error] = gone.report.errors
    assert (
        error.code == "file-missing"
        and "the game 'comrade' is no longer in the data folder" in error.message
    )
    assert error.location.path.endswith("comrade/game.yaml")
    (tmp_path / "comrade-elsewhere").rename(data / "comrade")
    back = session.refresh({data / "comrade"})
    assert back.ok and back.reloaded == "project"


def test_a_session_of_a_named_game_whose_file_is_broken_starts_and_says_where(tmp_path):
    """`printshop serve comrade` with comrade's game.yaml cut short: the page's first state is the
    syntax error (file, line, column), not a crash of the server; mended, the game is there."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    game = data / "comrade" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text + "broken: [\n", encoding="utf-8")
    session = Session(data, None, games=["comrade"], langs=["en"], render=False)
    update = session.refresh()
    assert not update.ok and session.project is None
    [error] = update.report.errors
    assert (
        error.code == "yaml-syntax"
        and error.location.path.endswith("comrade/game.yaml")
        and error.location.line
    )
    game.write_text(text, encoding="utf-8")
    assert session.refresh({game}).ok


def test_a_save_landing_while_a_refresh_reads_is_drawn_by_the_next(tmp_path):
    """A text saved just after a refresh has read it: that refresh lays out the old text; the
    refresh the save brings must draw the new one. (When the session hashed its inputs after reading
    them, the first refresh recorded a key of the new bytes with the old drawing, the second found
    the key unchanged and left the PDF stale: seen once in CI as 'nothing to render: 1 face
    changed'.)"""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    session = Session(data, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"])
    assert session.refresh().ok
    cards = tmp_path / "out" / "comrade" / "en" / "comrade-en-cards-a4.pdf"
    reading = session._read

    def read_then_saved(changed):
        reloaded = reading(changed)
        _rename_informer(texts)  # the translator's save lands now, after the reading
        return reloaded

    session._read = read_then_saved
    (data / "comrade" / "faces.yaml").touch()
    first = session.refresh({data / "comrade" / "faces.yaml"})
    assert first.ok and "SNITCH" not in pdf_text(cards).upper()
    session._read = reading
    second = session.refresh({texts})  # the save's own notification
    assert second.ok and second.jobs_rendered, second
    assert "SNITCH" in pdf_text(cards).upper()


def test_an_editors_scratch_files_beside_a_text_do_not_reload_the_project(tmp_path):
    """`sed -i` saves through a scratch file (sedXXXXXX) it renames over the text, and vim tests a
    folder with a file named 4913: names without an extension, reported with the text. Taken for
    folders, they read the whole project again and laid out all 142 Kremlin faces after a one-word
    edit; only a folder that is, or was, one of the data's makes the project read again."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    session = Session(data, None, games=["comrade"], langs=["en"], render=False)
    assert session.refresh().ok
    texts = data / "comrade" / "text" / "en.yaml"
    texts.write_text(
        texts.read_text(encoding="utf-8").replace('name: "Informer"', 'name: "Snitch"'),
        encoding="utf-8",
    )
    (data / "comrade" / "text" / "4913").write_text("", encoding="utf-8")  # vim's, still there
    update = session.refresh(
        {texts, data / "comrade" / "text" / "sedAb12Cd", data / "comrade" / "text" / "4913"}
    )
    assert update.ok and update.reloaded == "texts" and 0 < update.faces_laid_out <= 2, update
    (data / "comrade" / "text" / "4913").unlink()
    (data / "comrade" / "art").mkdir()  # a folder made: read everything again
    assert session.refresh({data / "comrade" / "art"}).reloaded == "project"
    (data / "comrade" / "art").rmdir()  # and one of the data's removed
    assert session.refresh({data / "comrade" / "art"}).reloaded == "project"


def test_an_edit_compresses_and_formats_only_the_pages_it_changes(tmp_path, monkeypatch):
    """A session keeps each page stream as the PDF writes it (render/replay.py,
    remember_page_streams): after an edit of one card's text, only the pages that show the card are
    compressed and formatted again, and the files are still those of a cold build."""
    from reportlab.pdfbase import pdfdoc

    from printshop.render.replay import _RememberedStream

    formatted = []
    original = pdfdoc.PDFStream.format

    def counting(stream, document):
        if isinstance(stream, _RememberedStream):
            formatted.append(stream.content)
        return original(stream, document)

    monkeypatch.setattr(pdfdoc.PDFStream, "format", counting)

    memo.clear("booklets")  # (the rules set, not given)
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    session = Session(data, tmp_path / "live", games=["comrade"], langs=["en"], papers=["a4"])
    assert session.refresh().ok
    assert (
        len(set(formatted)) == len(formatted) > 10
    )  # every page of the job's files, each content once
    formatted.clear()
    texts.write_text(
        texts.read_text(encoding="utf-8").replace(
            "Never show this card", "Never show this card to anyone"
        ),
        encoding="utf-8",
    )
    update = session.refresh({texts})
    assert update.ok and update.jobs_rendered == ["comrade en a4"]
    assert 1 <= len(formatted) <= 2 and all("anyone" in content for content in formatted)
    cold = build(
        data, tmp_path / "cold", games=["comrade"], langs=["en"], papers=["a4"], force=True
    )
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_template_saved_during_a_session_takes_effect(tmp_path):
    """A face template edited while a session runs is read again at the next refresh (each refresh
    makes its own Jinja environment, which reads a template once), and the files match a cold
    build's."""

    data, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    shutil.copytree(DEFAULT_DATA_DIR.parent / "templates", templates)
    session = Session(
        data,
        tmp_path / "live",
        games=["comrade"],
        langs=["en"],
        papers=["a4"],
        templates_dir=templates,
    )
    assert session.refresh().ok
    back = templates / "comrade" / "faces" / "back.j2"
    back.write_text(
        back.read_text(encoding="utf-8").replace(
            "{{ t.back.motto }}", "{{ t.back.motto }}, always"
        ),
        encoding="utf-8",
    )
    update = session.refresh({back})
    assert update.ok and "comrade en a4" in update.jobs_rendered, [
        d.format() for d in update.report.errors
    ]
    cards = tmp_path / "live" / "comrade" / "en" / "comrade-en-cards-a4.pdf"
    assert "The Party sees all, always" in pdf_text(cards, "")
    cold = build(
        data,
        tmp_path / "cold",
        games=["comrade"],
        langs=["en"],
        papers=["a4"],
        templates_dir=templates,
        force=True,
    )
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_font_file_saved_over_takes_effect_in_the_session(tmp_path):
    import os

    from printshop.project.paths import BUNDLED_FONTS_DIR

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    (data / "fonts").mkdir()  # the project's own copy of the sans, which wins over printshop's
    font = data / "fonts" / "NotoSans-Bold.ttf"
    shutil.copyfile(BUNDLED_FONTS_DIR / "NotoSans-Bold.ttf", font)
    session = Session(data, tmp_path / "live", games=["comrade"], langs=["en"], papers=["a4"])
    assert session.refresh().ok
    cards = tmp_path / "live" / "comrade" / "en" / "comrade-en-cards-a4.pdf"
    before = cards.read_bytes()
    # a designer saves another face over it (whose PostScript name is that of the serif's bold,
    # which the kit uses too), then the sans again, then the serif again: each takes effect and
    # renders
    for face, changes in (
        ("NotoSerif-Bold.ttf", True),
        ("NotoSans-Bold.ttf", False),
        ("NotoSerif-Bold.ttf", True),
    ):
        shutil.copyfile(BUNDLED_FONTS_DIR / face, font)
        os.utime(font, ns=(font.stat().st_atime_ns, font.stat().st_mtime_ns + 10**9))
        update = session.refresh({font})
        assert update.ok and update.reloaded == "fonts" and cards in update.written, [
            d.format() for d in update.report.errors
        ]
        assert (cards.read_bytes() != before) == changes
    cold = build(
        data, tmp_path / "cold", games=["comrade"], langs=["en"], papers=["a4"], force=True
    )
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


@contextlib.contextmanager
def _watching(tmp_path, *, during_first_build=None, printed=False, out=None):
    """`watch` in a thread on a copy of the data; yields (texts, lines, cards) once the first build
    is done. `during_first_build(texts)` runs after the first build has read the files, before it
    ends; `printed`: the diagnostics are said too, as the command prints them; `out`: the output
    folder."""
    from printshop.live.watch import watch

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    out = out or tmp_path / "out"
    session = Session(data, out, games=["comrade"], langs=["en"], papers=["a4"])
    if during_first_build is not None:
        first_refresh = session.refresh

        def refresh(changed=None):
            update = first_refresh(changed)
            if changed is None:
                during_first_build(texts)
            return update

        session.refresh = refresh
    lines: list[str] = []
    stop, ready = threading.Event(), threading.Event()
    thread = threading.Thread(
        target=watch,
        args=(session,),
        kwargs=dict(
            say=lines.append,
            stop=stop,
            ready=ready.set,
            **({} if printed else {"report": lambda r: None}),
        ),
    )
    thread.start()
    try:
        assert ready.wait(60)
        yield texts, lines, out / "comrade" / "en" / "comrade-en-cards-a4.pdf"
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()


def _wait_for_lines(lines: list[str], count: int) -> list[str]:
    started = time.monotonic()
    while len(lines) < count and time.monotonic() - started < DEADLINE:
        time.sleep(0.05)
    assert len(lines) >= count, lines
    return lines


def _save(path: Path, text: str) -> None:
    """Save as most editors do: a scratch file beside it, renamed over it. Written in place
    (`write_text`), the file is empty between its truncation and its writing; on a loaded machine
    the watcher may see it then, and the tests that expect one rebuild line for one save would see
    an error for the empty file first."""
    scratch = path.with_name(f".{path.name}.saving")
    scratch.write_text(text, encoding="utf-8")
    os.replace(scratch, path)


def _rename_informer(texts: Path) -> None:
    _save(texts, texts.read_text(encoding="utf-8").replace('name: "Informer"', 'name: "Snitch"'))


def _informer_renamed(server) -> bool:
    """Whether the page's state is of the data with the informer renamed (not news of something
    else, such as the rules pages rendered after the first refresh)."""
    with server.preview.lock:
        project = server.preview.session.project
        entry = (
            project.games["comrade"].catalogues["en"].entries.get("card.informer.name")
            if project
            else None
        )
        return entry is not None and entry.text == "Snitch"


REBUILT = r"comrade en a4: [12] faces? changed, 1 file written in [\d.]+ s"


def test_watch_prints_each_error_every_time_and_other_diagnostics_once(tmp_path):
    """After a save, the line it brought is not buried under the notes and acknowledged warnings
    printed after the first build: those are counted, not repeated; an error is printed while it
    lasts."""

    def rebuild_after(
        count: int,
    ) -> list[str]:  # the lines of the next rebuild, up to its summary line
        started = time.monotonic()
        while time.monotonic() - started < DEADLINE:
            if any(re.search(r" in [\d.]+ s$", line) for line in lines[count:]):
                return lines[count:]
            time.sleep(0.05)
        raise AssertionError(lines[count:])

    with _watching(tmp_path, printed=True) as (texts, lines, cards):
        first = "\n".join(lines)
        assert "info[reconstructed]" in first and "warning[press-left-out]" in first
        original = texts.read_text(encoding="utf-8")
        count = len(lines)
        _save(texts, original.replace('name: "Dissident"', 'name: "' + "Dissident " * 30 + '"'))
        second = rebuild_after(count)
        text = "\n".join(second)
        assert "error[text-overflow]" in text and "info[reconstructed]" not in text, text
        assert re.search(r"\(\d+ warnings and notes as before, not repeated", text), text
        assert re.fullmatch(r"2 errors: nothing written in [\d.]+ s", second[-1]), second
        count = len(lines)
        _save(texts, original.replace('name: "Dissident"', 'name: "Dissenter"'))
        third = "\n".join(rebuild_after(count))
        assert (
            "error[" not in third and "info[reconstructed]" not in third and "not repeated" in third
        ), third
        assert "written in" in third


def test_watch_says_when_a_save_changed_no_file(tmp_path):
    """An error mended back to what the files already hold writes nothing and lays out nothing (the
    faces are those laid out before the error): the line says so, rather than "nothing to render: 9
    faces changed" or "nothing to redo"; a face laid out again to what the files have says that; a
    comment saved lays out nothing."""
    from printshop.live.watch import describe

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    texts = data / "comrade" / "text" / "en.yaml"
    original = texts.read_text(encoding="utf-8")
    session = Session(data, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"])
    assert session.refresh().ok
    texts.write_text(
        original.replace('name: "Dissident"', 'name: "Dissident\n  broken: ['), encoding="utf-8"
    )
    assert re.fullmatch(
        r"the data could not be read \(1 error; nothing written\) in [\d.]+ s",
        describe(session.refresh({texts}), session),
    )
    texts.write_text(original, encoding="utf-8")
    update = session.refresh({texts})
    assert update.ok and update.after_errors and not update.written and update.faces_laid_out == 0
    assert re.fullmatch(
        r"no file changed: the errors are mended and the files already hold what the data says "
        r"in [\d.]+ s",
        describe(update, session),
    ), describe(update, session)
    texts.write_text(
        original.replace(
            'name: "Dissident"',
            'name: "Dissident Dissident Dissident Dissident Dissident Dissident"',
        ),
        encoding="utf-8",
    )
    assert not session.refresh({texts}).ok  # too long for its frame: laid out, refused
    texts.write_text(original, encoding="utf-8")
    update = session.refresh({texts})
    assert update.ok and not update.written and update.faces_laid_out >= 1
    assert re.fullmatch(
        r"no file changed: \d+ faces? laid out again, as the files already have (them|it) "
        r"in [\d.]+ s",
        describe(update, session),
    ), describe(update, session)
    texts.write_text(original + "# a translator's note\n", encoding="utf-8")
    update = session.refresh({texts})
    assert re.fullmatch(
        r"nothing to redo: no face reads what changed in [\d.]+ s", describe(update, session)
    )


def test_watch_of_a_language_no_game_has_says_so_and_waits_for_its_file(tmp_path):
    """`printshop build --lang de` refuses a language no game has; `watch --lang de` and `serve`
    keep running (a translator may be about to make the file) and say so: a warning naming the
    languages there are, and "nothing to build"; the first build over files already made says they
    are up to date."""
    from printshop.live.watch import describe

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    session = Session(data, tmp_path / "out", games=["comrade"], langs=["de"], papers=["a4"])
    update = session.refresh()
    [warning] = [d for d in update.report.items if d.code == "unknown-reference"]
    assert warning.message.startswith("no game here has the language 'de' (languages: en, fr)")
    assert "text/de.yaml" in warning.hint and "'printshop i18n sync de comrade'" in warning.hint
    assert (
        "describe it in languages/de.yaml" in warning.hint
    )  # sync refuses a language the data does not describe
    (data / "languages").mkdir(exist_ok=True)
    shutil.copy(
        REPO / "tests" / "fixtures" / "german" / "languages" / "de.yaml",
        data / "languages" / "de.yaml",
    )
    described = Session(data, None, games=["comrade"], langs=["de"], render=False).refresh()
    [warning] = [d for d in described.report.items if d.code == "unknown-reference"]
    assert warning.hint.startswith(
        "to start a translation, 'printshop i18n sync de comrade' writes text/de.yaml"
    )
    assert re.fullmatch(
        r"nothing to build: no face in the games and languages chosen in [\d.]+ s",
        describe(update, session, first=True),
    )
    german = data / "comrade" / "text" / "de.yaml"
    shutil.copy(data / "comrade" / "text" / "en.yaml", german)
    update = session.refresh({german})
    assert not [d for d in update.report.items if d.code == "unknown-reference"]  # (the language)
    english = Session(data, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"])
    assert english.refresh().written
    again = Session(data, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"])
    assert re.fullmatch(
        r"up to date: \d+ faces laid out, as the files in .*out already have them in [\d.]+ s",
        describe(again.refresh(), again, first=True),
    )


def test_watch_of_a_paper_there_is_not_is_an_error_not_a_crash(tmp_path):
    """`printshop watch --paper tabloid` stopped with "internal error: KeyError: 'tabloid'"; a build
    says "no paper 'tabloid'". Each refresh now says so, naming the papers there are, and writes
    nothing."""
    session = Session(
        DEFAULT_DATA_DIR, tmp_path / "out", games=["comrade"], langs=["en"], papers=["tabloid"]
    )
    for changed in (None, {DEFAULT_DATA_DIR / "comrade" / "text" / "en.yaml"}):
        update = session.refresh(changed)
        assert not update.ok and not update.written
        [error] = update.report.errors
        assert (
            error.message.startswith("no paper 'tabloid' (papers: a4, letter")
            and "--paper" in error.hint
        )
    assert not (tmp_path / "out").exists()


def test_news_are_errors_and_what_the_last_rebuild_did_not_have():
    from printshop.diagnostics import Location, Report, diagnostic
    from printshop.live.watch import news

    place = Location("data/g/text/fr.yaml", 3, 5)
    note, overflow = (
        diagnostic("reconstructed", place, "a note"),
        diagnostic("text-overflow", place, "too long"),
    )
    stale = diagnostic(
        "stale-translation", Location("data/g/text/fr.yaml", 9, 5), "the source changed"
    )
    fresh, repeated = news(Report([note, overflow]), set())
    assert fresh.items == [note, overflow] and repeated == 0
    from printshop.live.watch import identity

    earlier = {identity(note), identity(overflow)}
    fresh, repeated = news(Report([note, overflow, stale]), earlier)
    assert (
        fresh.items == [overflow, stale] and repeated == 1
    )  # the error again, the new warning; the note counted
    moved = diagnostic("reconstructed", Location("data/g/text/fr.yaml", 4, 5), "a note")
    assert news(Report([moved]), earlier)[0].items == [
        moved
    ]  # a line moved by an edit: said again, where it is now


def test_watch_rebuilds_on_save(tmp_path):
    with _watching(tmp_path) as (texts, lines, cards):
        assert re.fullmatch(
            r"comrade en a4, calibration en a4: \d+ faces laid out, \d+ files written in [\d.]+ s",
            lines[-1],
        ), lines
        first = cards.read_bytes()
        _rename_informer(texts)  # at once: the files are watched from before the first build
        assert re.fullmatch(REBUILT, _wait_for_lines(lines, 2)[1]), lines
        assert cards.read_bytes() != first


class _NotedBackend:
    """The watcher's backend, noting each group of changes it gives with the number of the call that
    gave it: once it is asked again, the watch loop has done all that group brought (a rebuild, and
    its line)."""

    def __init__(self, backend):
        self.backend, self.calls, self.groups = backend, 0, []

    def watch(self, *args):
        self.calls += 1
        number = self.calls
        raw = self.backend.watch(*args)
        if not isinstance(raw, str):  # "stop", "signal", "timeout"
            self.groups.append((number, {Path(path) for _, path in raw}))
        return raw

    def close(self):
        self.backend.close()

    def taken_in(self, folder: Path, after: int = 0) -> int:
        """Wait for a group holding `folder` or a file under it, given by a call after `after`, and
        for the call after it: the number of the call that gave it. (A folder made while the watcher
        runs may come as the folder alone: its files were written before the system watched it.)"""
        started = time.monotonic()
        while time.monotonic() - started < DEADLINE:
            found = [
                number
                for number, paths in list(self.groups)
                if number > after
                and any(path == folder or folder in path.parents for path in paths)
            ]
            if found and self.calls > found[0]:
                return found[0]
            time.sleep(0.02)
        raise AssertionError(f"the watcher never reported a change under {folder}: {self.groups}")


def test_watch_writing_into_the_data_folder_does_not_rebuild_for_its_own_files(
    tmp_path, monkeypatch
):
    """An output folder inside the data folder (`--out data/out`): the files watch writes are not
    edits. Each build's PDFs, cache and temporary files brought a second refresh that laid every
    face out again. Waited for as the watcher takes them in: once it asks for the next changes after
    the group holding the files written, a refresh they brought would have said its line."""
    from printshop.live.watch import FileWatcher

    opened = FileWatcher._open
    noted: list[_NotedBackend] = []
    monkeypatch.setattr(
        FileWatcher,
        "_open",
        lambda self, polling: noted.append(_NotedBackend(opened(self, polling))) or noted[-1],
    )
    out = tmp_path / "data" / "out"
    with _watching(tmp_path, out=out) as (texts, lines, cards):
        assert cards.exists() and len(lines) == 1, lines
        [backend] = noted
        backend.taken_in(out)  # what the first build wrote
        assert len(lines) == 1, lines
        _rename_informer(texts)
        assert re.fullmatch(REBUILT, _wait_for_lines(lines, 2)[1]), lines
        saved = backend.taken_in(texts.parent)
        backend.taken_in(out, after=saved)  # what the rebuild wrote
        assert len(lines) == 2, lines


def test_a_save_made_during_the_first_build_is_not_missed(tmp_path):
    """The first build has read the files when the translator saves: the save must bring a second
    build (a watcher started only after the first build would never hear of it)."""
    with _watching(tmp_path, during_first_build=_rename_informer) as (texts, lines, cards):
        assert re.fullmatch(REBUILT, _wait_for_lines(lines, 2)[1]), lines
        assert "SNITCH" in pdf_text(cards).upper()


class _NoNotifications:
    """watchfiles' backend as on a machine whose inotify instances are all taken (by Chromium,
    editors, other users' watchers): the system's notifications fail, when opened or later; polling
    works."""

    fail_when = "opened"
    from watchfiles._rust_notify import RustNotify as backend_type

    def __init__(self, paths, debug, polling, delay_ms, recursive, ignore_permission_denied):
        self.polling = polling
        if not polling and self.fail_when == "opened":
            raise RuntimeError(
                "Error creating recommended watcher: Too many open files (os error 24)"
            )
        self.backend = self.backend_type(
            paths, debug, polling, delay_ms, recursive, ignore_permission_denied
        )

    def watch(self, *args):
        if not self.polling and self.fail_when == "watching":
            raise RuntimeError("No space left on device (os error 28)")
        return self.backend.watch(*args)

    def close(self):
        self.backend.close()


@pytest.mark.parametrize("fail_when", ["opened", "watching"])
def test_watch_polls_where_the_system_cannot_notify(tmp_path, monkeypatch, fail_when):
    import watchfiles._rust_notify

    monkeypatch.setattr(_NoNotifications, "fail_when", fail_when)
    monkeypatch.setattr(watchfiles._rust_notify, "RustNotify", _NoNotifications)
    monkeypatch.delenv("WATCHFILES_FORCE_POLLING", raising=False)
    with _watching(tmp_path) as (texts, lines, cards):
        _rename_informer(texts)
        # (after a breakdown everything is read again: the save may be seen then, or by the polling)
        rebuilt = r"comrade en a4: \d+ faces? changed, 1 file written in [\d.]+ s"
        started = time.monotonic()
        while (
            not any(re.fullmatch(rebuilt, line) for line in lines)
            and time.monotonic() - started < DEADLINE
        ):
            time.sleep(0.05)
        assert any(re.fullmatch(rebuilt, line) for line in lines), lines
        polling = [line for line in lines if "looking at the files every 300 ms instead" in line]
        assert len(polling) == 1 and "os error" in polling[0], lines
        assert "SNITCH" in pdf_text(cards).upper()


def test_serve_refreshes_where_the_system_cannot_notify(tmp_path, monkeypatch, capsys):
    import watchfiles._rust_notify

    from printshop.live.serve import Server

    monkeypatch.setattr(watchfiles._rust_notify, "RustNotify", _NoNotifications)
    monkeypatch.delenv("WATCHFILES_FORCE_POLLING", raising=False)
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    server = Server(
        Session(data, None, games=["comrade"], langs=["en"], render=False), port=0
    ).start()
    try:
        _rename_informer(data / "comrade" / "text" / "en.yaml")
        started = time.monotonic()
        while time.monotonic() - started < DEADLINE and not _informer_renamed(server):
            time.sleep(0.05)
        assert _informer_renamed(server) and server.preview.state["ok"]
    finally:
        server.close()
    said = capsys.readouterr().err
    assert "printshop serve: the system's file notifications are not available" in said, said


def test_a_first_build_that_raises_gives_the_watches_back(tmp_path, monkeypatch):
    """`watch` opens its watcher before the first build: if that build raises (Ctrl-C), the system's
    watches are given back at once, not left to the garbage collector."""
    import watchfiles._rust_notify

    from printshop.live.watch import watch

    closed = []

    class Spy(_NoNotifications):
        fail_when = "never"

        def close(self):
            closed.append(True)
            super().close()

    monkeypatch.setattr(watchfiles._rust_notify, "RustNotify", Spy)
    monkeypatch.delenv("WATCHFILES_FORCE_POLLING", raising=False)
    session = Session(
        DEFAULT_DATA_DIR, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"]
    )
    monkeypatch.setattr(
        session, "refresh", lambda changed=None: (_ for _ in ()).throw(KeyboardInterrupt())
    )
    with pytest.raises(KeyboardInterrupt):
        watch(session, say=lambda line: None)
    assert closed == [True]


def test_serve_and_watch_are_commands():
    from printshop.cli import make_parser

    args = make_parser().parse_args(["serve", "comrade", "--lang", "fr", "--port", "0"])
    assert (args.games, args.lang, args.host, args.port) == (["comrade"], ["fr"], "127.0.0.1", 0)
    args = make_parser().parse_args(["watch", "comrade", "--lang", "fr"])
    assert (
        args.out is None
    )  # filled in by main() from the project of the working directory (printshop.toml)


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "http"])
def test_a_port_out_of_range_is_refused_not_taken_modulo_65536(port, capsys):
    """The system reads port 99999 as 34463 (modulo 65536): `serve --port 99999` listened there, on
    a port nobody asked for. A port is refused unless it is 0 to 65535; the edges are taken."""
    from printshop.cli import make_parser

    with pytest.raises(SystemExit) as usage:
        make_parser().parse_args(["serve", "--port", port])
    assert (
        usage.value.code == 2
        and f"a port is a whole number from 1 to 65535 (0: any free one), not '{port}'"
        in capsys.readouterr().err
    )
    assert [
        make_parser().parse_args(["serve", "--port", edge]).port for edge in ("0", "65535")
    ] == [
        0,
        65535,
    ]


def test_a_port_in_use_is_a_message_saying_what_to_do(tmp_path, capsys):
    """`printshop serve` on a port something else listens on (another serve): exit 2 with the port
    and --port named, no traceback and no 'internal error'."""
    import socket

    from printshop.cli import main

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        with pytest.raises(SystemExit) as usage:
            main(["serve", "comrade", "--port", str(port)])
        err = capsys.readouterr().err
        assert (
            usage.value.code == 2
            and f"port {port} on 127.0.0.1 is in use" in err
            and "--port 0" in err
        ), err
        assert "internal error" not in err and "Traceback" not in err
    finally:
        taken.close()


# --- a translation that lacks texts: shown as a draft in serve, written as one by watch --draft
# -------------
FRENCH_INFORMER = (
    '    name: "Informateur"\n'  # the French informer's name: without it, French lacks one text
)


def test_watch_draft_writes_what_build_draft_writes_and_removes_the_drafts_once_complete(tmp_path):
    """`watch --draft` is `build --draft` kept running: the French kit, one text short, is written
    as marked -draft files with the same bytes a draft build writes; once the text is back, the real
    kit is written (the bytes of a cold build) and the session's own -draft files are removed and
    said to be, as a build removes what the build before it wrote. Without --draft the translation
    is left out, as a build leaves it out."""
    from printshop.live.watch import describe

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    french = data / "comrade" / "text" / "fr.yaml"
    complete = french.read_text(encoding="utf-8")
    french.write_text(complete.replace(FRENCH_INFORMER, "", 1), encoding="utf-8")

    left_out = Session(data, tmp_path / "left-out", games=["comrade"], langs=["fr"], papers=["a4"])
    update = left_out.refresh()
    assert update.ok and not update.written and left_out.checked.refused
    assert [
        d.message.split(",")[0] for d in update.report.items if d.code == "incomplete-translation"
    ] == ["comrade fr: not built"]
    assert describe(update, left_out, first=True).startswith(
        "nothing to build: comrade fr lacks texts and is left out (see above; --draft writes a marked draft"
    )

    out = tmp_path / "out"
    session = Session(data, out, games=["comrade"], langs=["fr"], papers=["a4"], draft=True)
    update = session.refresh()
    [warning] = [d for d in update.report.items if d.code == "incomplete-translation"]
    assert "built as a DRAFT, 99% translated" in warning.message and "-draft" in warning.message
    drafts = sorted(path.name for path in (out / "comrade" / "fr").iterdir())
    assert drafts == [
        "comrade-fr-cards-draft-a4.pdf",
        "comrade-fr-how-to-print-draft-a4.pdf",
        "comrade-fr-rules-booklet-draft-a4.pdf",
        "comrade-fr-rules-draft-a5.pdf",
    ]
    built = build(
        data,
        tmp_path / "built-draft",
        games=["comrade"],
        langs=["fr"],
        papers=["a4"],
        draft=True,
        jobs=1,
    )
    assert not built.report.has_errors
    _same_files(out, tmp_path / "built-draft")

    french.write_text(complete, encoding="utf-8")
    update = session.refresh({french})
    assert update.ok and not session.checked.drafts
    assert sorted(path.name for path in update.removed) == drafts
    assert sorted(path.name for path in (out / "comrade" / "fr").iterdir()) == sorted(
        name.replace("-draft", "") for name in drafts
    )
    line = describe(update, session)
    assert re.search(
        r"written, 4 files no longer made removed \(comrade-fr-cards-draft-a4\.pdf, ", line
    ), line
    build(data, tmp_path / "built", games=["comrade"], langs=["fr"], papers=["a4"], jobs=1)
    _same_files(out, tmp_path / "built")


def test_a_text_translated_in_a_draft_lays_out_only_the_faces_that_print_it(tmp_path):
    """The draft mark carries the share translated, which every translated text changes; it is
    printed in page footers, never on a face, so a face that does not print the text is not laid out
    again."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    french = data / "comrade" / "text" / "fr.yaml"
    complete = french.read_text(encoding="utf-8")
    two_short = complete.replace(FRENCH_INFORMER, "", 1).replace('    name: "Président"\n', "", 1)
    french.write_text(two_short, encoding="utf-8")
    session = Session(data, None, games=["comrade"], langs=["fr"], render=False, draft=True)
    first = session.refresh()
    assert first.ok and first.faces_laid_out > 5
    assert session.checked.layouts[0].localized.draft == "ÉBAUCHE, traduite à 98\u202f%"
    french.write_text(complete.replace('    name: "Président"\n', "", 1), encoding="utf-8")
    update = session.refresh({french})
    assert session.checked.layouts[0].localized.draft == "ÉBAUCHE, traduite à 99\u202f%"
    assert update.ok and 1 <= update.faces_laid_out <= 2, (
        update.faces_laid_out
    )  # the informer's front


def test_a_draft_face_names_the_line_of_each_text_it_shows_from_the_language_it_is_made_from(
    tmp_path,
):
    """The French informer card lacks its name: the page shows the English one, and the card's
    sources name en.yaml's line of it beside fr.yaml's lines, so the translator sees which text is
    still to write."""
    from printshop.live.serve import Preview
    from tests.conftest import line_of

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    french = data / "comrade" / "text" / "fr.yaml"
    french.write_text(
        french.read_text(encoding="utf-8").replace(FRENCH_INFORMER, "", 1), encoding="utf-8"
    )
    preview = Preview(
        Session(data, None, games=["comrade"], langs=["fr"], render=False, draft=True)
    )
    preview.refresh()
    [game] = preview.state["games"]
    assert game["drafts"] == {"fr": "ÉBAUCHE, traduite à 99\u202f%"}
    [informer] = [
        row["faces"]["fr"] for row in game["rows"] if row["key"] == "cards/informer/front"
    ]
    english = data / "comrade" / "text" / "en.yaml"
    name_line = line_of(english, 'name: "Informer"')
    assert any(
        source.endswith(f"comrade/text/en.yaml:{name_line}") for source in informer["sources"]
    ), informer
    assert [file["short"] for file in informer["files"]][:2] == ["text/fr.yaml", "text/en.yaml"]
    assert [file["lines"] for file in informer["files"] if file["short"] == "text/en.yaml"] == [
        str(name_line)
    ]


def test_a_diagnostic_written_in_a_faces_definition_leads_to_the_faces_made_from_it(tmp_path):
    """A designer's typo in faces.yaml: a frame added on a line of its own with a font misspelt, a
    colour misspelt in one face's shape, a length misspelt in the abstract face every card extends
    (which stops the file being read): each error is listed with the faces that definition makes,
    and only those."""
    from printshop.live.serve import Preview

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    faces = data / "comrade" / "faces.yaml"
    original = faces.read_text(encoding="utf-8")
    preview = Preview(Session(data, None, games=["comrade"], langs=["en"], render=False))
    preview.refresh()

    def linked(code: str) -> list[str]:
        keys = {view.token: view.key for view in preview.views.values()}
        [error] = [
            d
            for d in preview.state["diagnostics"]
            if d["severity"] == "error" and d["code"] == code
        ]
        return sorted(keys[token] for token in error["faces"])

    informer = (
        "informer: {extends: role, template: comrade/faces/role.j2, shapes: {art: {motif: eye}}}"
    )
    assert informer in original
    faces.write_text(
        original.replace(
            informer, informer[:-1] + ",\n             frames: {title: {font: sanz}}}"
        ),
        encoding="utf-8",
    )
    preview.refresh({faces})
    assert linked("unknown-reference") == ["cards/informer/front"]
    faces.write_text(
        original.replace("rule: {y: 59mm}", "rule: {y: 59mm, stroke: rouge}"), encoding="utf-8"
    )
    preview.refresh({faces})
    assert linked("unknown-reference") == [
        "cards/dissident-glasnost/front",
        "cards/dissident-perestroika/front",
    ]
    # a frame its template has no block for: the error is the template's, about the frame, which
    # leads to the card
    faces.write_text(
        original.replace(
            informer,
            informer[:-1] + ",\n             frames: {motto: {x: 6mm, y: 20mm, "
            "width: 51mm, height: 5mm, font: sans, size: 7pt}}}",
        ),
        encoding="utf-8",
    )
    preview.refresh({faces})
    [error] = preview.session.report.errors
    assert error.location.path.endswith("role.j2") and re.fullmatch(
        r"frame: .*comrade/faces\.yaml:29:\d+", error.also
    )
    assert linked("template") == ["cards/informer/front"]
    faces.write_text(
        original.replace("border: {kind: rect, x: 4.25mm", "border: {kind: rect, x: 4.25mmm"),
        encoding="utf-8",
    )
    preview.refresh({faces})
    assert preview.session.project is None  # the file could not be read: the faces as last read
    made_from_card = linked("wrong-type")
    assert "cards/back" not in made_from_card and "cards/informer/front" in made_from_card
    # every face extends it but the rules and four backs: the role cards', the turn summary's and
    # the chairman card's own and the ballots' (digital tables only)
    backs = ["cards/back", "cards/rule/back", "cards/chairman/back", "ballots/back"]
    assert not set(backs) & set(made_from_card)
    assert len(made_from_card) == sum(
        not view.key.startswith("rules/") for view in preview.views.values()
    ) - len(backs)


def test_a_file_someone_changed_is_not_removed_when_the_session_no_longer_makes_it(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    french = data / "comrade" / "text" / "fr.yaml"
    complete = french.read_text(encoding="utf-8")
    french.write_text(complete.replace(FRENCH_INFORMER, "", 1), encoding="utf-8")
    out = tmp_path / "out"
    session = Session(data, out, games=["comrade"], langs=["fr"], papers=["a4"], draft=True)
    assert session.refresh().written
    kept = out / "comrade" / "fr" / "comrade-fr-rules-draft-a5.pdf"
    kept.write_bytes(b"%PDF-1.4 annotated by the proofreader")
    french.write_text(complete, encoding="utf-8")
    update = session.refresh({french})
    assert kept.exists() and kept not in update.removed and len(update.removed) == 3


def test_serve_and_watch_hand_their_sessions_the_draft_choice(tmp_path, monkeypatch):
    """serve is a preview: it always shows an unfinished translation (marked); watch writes one only
    with --draft, as build does."""
    import threading

    import printshop.live.serve
    import printshop.live.watch
    from printshop.cli import main

    sessions = []

    class Started:
        def __init__(self, session, host, port):
            sessions.append(session)
            self.stop, self.url = threading.Event(), "http://127.0.0.1:0/"
            self.stop.set()

        def start(self):
            return self

        def close(self):
            pass

    monkeypatch.setattr(printshop.live.serve, "Server", Started)
    monkeypatch.setattr(
        printshop.live.watch, "watch", lambda session, say: sessions.append(session)
    )
    data = ["--data", str(DEFAULT_DATA_DIR)]
    assert main(["serve", "comrade", *data]) == 0
    assert main(["watch", "comrade", *data, "--out", str(tmp_path / "a")]) == 0
    assert main(["watch", "comrade", *data, "--out", str(tmp_path / "b"), "--draft"]) == 0
    assert [session.draft for session in sessions] == [True, False, True]


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_the_page_shows_an_unfinished_translation_as_a_draft_to_translate_beside_its_cards(
    tmp_path, browser
):
    """A translator opens serve on a translation that lacks a text: its column is there, headed by
    the draft mark in its own language, the text it lacks shown in the language it is made from;
    writing that text changes the card and, the translation complete, the mark goes."""
    from printshop.live.serve import Server

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    french = data / "comrade" / "text" / "fr.yaml"
    complete = french.read_text(encoding="utf-8")
    french.write_text(complete.replace(FRENCH_INFORMER, "", 1), encoding="utf-8")
    server = Server(
        Session(data, None, games=["comrade"], langs=["fr"], render=False, draft=True), port=0
    ).start()
    informer = (
        '(() => { const img = document.querySelector(\'td.face[data-key="cards/informer/front"]'
        "[data-lang=\"fr\"] img'); return img && img.complete && img.naturalWidth > 0 ? img.src : ''; })()"
    )
    try:
        browser.call("Page.enable")
        browser.call("Page.navigate", url=server.url)
        before = browser.wait_for(informer, "the French informer card")
        before_image = urllib.request.urlopen(
            before
        ).read()  # (the server keeps the images of its faces only)
        assert (
            browser.evaluate("document.querySelector('th[data-lang=\"fr\"] .draft').textContent")
            == "ÉBAUCHE, traduite à 99\u202f%"
        )
        assert browser.evaluate(
            "Array.from(document.querySelectorAll('.diagnostic[data-code=\"incomplete-translation\"]'))"
            ".some(d => d.textContent.includes('shown as a draft, 99% translated'))"
        )
        french.write_text(complete, encoding="utf-8")
        after = browser.wait_for(
            f"(() => {{ const src = {informer}; return src && src !== {json.dumps(before)} "
            f"? src : ''; }})()",
            "the informer card with its French name",
        )
        assert urllib.request.urlopen(after).read() != before_image
        browser.wait_for(
            "document.querySelector('th[data-lang=\"fr\"]') !== null && "
            "document.querySelector('th[data-lang=\"fr\"] .draft') === null",
            "the draft mark gone",
        )
    finally:
        server.close()


def _said(update) -> list[tuple]:
    return sorted(
        (d.location.path, d.location.line, d.location.col, d.code, d.message)
        for d in update.report.items
    )


def _laid_out(session) -> dict:
    """Each face the session holds laid out, by (game, language, variant, deck or sheet, face): its
    frames' texts and sizes, which is what a face drawn from it shows."""
    return {
        name: None
        if laid.face is None
        else sorted((frame.name, frame.fit.size, str(frame.blocks)) for frame in laid.face.frames)
        for name, laid in session._laid.items()
    }


def test_an_edit_of_one_games_faces_reads_and_lays_out_that_game_alone(data_copy):
    """In a session of every game (as `printshop serve` holds one), saving one game's faces.yaml
    reads that game's files again, not the catalogue, and lays out that game's faces only: the
    fonts, whose files did not change, stay registered. What it then says and lays out is what a
    session started afresh says and lays out; an error in that file is shown, and mending it reads
    the data again."""
    session = Session(data_copy, render=False, draft=True)
    assert session.refresh().ok
    comrade = {name for name in session._laid if name[0] == "comrade"}
    assert comrade and len(comrade) < len(session._laid) / 4
    faces = data_copy / "comrade" / "faces.yaml"
    original = faces.read_text(encoding="utf-8")
    faces.write_text(
        original.replace("size: 15pt, min_size: 10pt", "size: 13pt, min_size: 9pt"),
        encoding="utf-8",
    )
    update = session.refresh({faces})
    assert update.ok and update.reloaded == "games", update
    assert update.faces_laid_out == len(comrade), (update.faces_laid_out, len(comrade))
    afresh = Session(data_copy, render=False, draft=True)
    assert _said(update) == _said(afresh.refresh())
    assert _laid_out(session) == _laid_out(afresh)
    assert any(
        frame.name == "title" and frame.fit.size <= 13
        for laid in session._laid.values()
        if laid.face is not None
        for frame in laid.face.frames
    )

    faces.write_text(
        original.replace("font: sans-bold, size: 15pt", "font: sans-bald, size: 15pt"),
        encoding="utf-8",
    )
    broken = session.refresh({faces})
    assert not broken.ok and any(
        d.code == "unknown-reference"
        and "sans-bald" in d.message
        and d.location.path.endswith("comrade/faces.yaml")
        for d in broken.report.errors
    )
    faces.write_text(original, encoding="utf-8")
    mended = session.refresh({faces})
    assert mended.ok and mended.after_errors
    assert _said(mended) == _said(Session(data_copy, render=False, draft=True).refresh())

    faces.write_text(
        original + "  broken: [\n", encoding="utf-8"
    )  # not YAML: the game cannot be read
    unread = session.refresh({faces})
    assert (
        not unread.ok
        and session.project is None
        and any(d.location.path.endswith("comrade/faces.yaml") for d in unread.report.errors)
    )
    faces.write_text(original, encoding="utf-8")
    again = session.refresh({faces})
    assert again.ok and again.reloaded == "project" and again.faces_laid_out == 0


def test_an_edit_of_one_template_lays_out_the_faces_made_with_it(tmp_path):
    """A template saved lays out again the faces made with it, or with a template that includes,
    imports or extends it, not every face: a designer editing one card's template sees that card
    redrawn. A template that names another by an expression (known only while it renders) reads any
    of them, so any template saved lays its faces out again. The files are those a cold build
    writes."""
    data, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    shutil.copytree(REPO / "templates", templates)
    session = Session(
        data, tmp_path / "live", games=["assassin", "comrade"], langs=["en", "fr"], papers=["a4"]
    )
    assert session.refresh().ok

    def made_with(*names: str) -> int:
        return sum(
            1
            for laid in session._laid.values()
            if laid.face is not None and laid.face.face.template in names
        )

    def save(name: str, old: str, new: str):
        path = templates / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        update = session.refresh({path})
        assert update.ok, [d.format() for d in update.report.errors]
        return update

    dissident = made_with("comrade/faces/dissident.j2")
    assert 0 < dissident < sum(1 for name in session._laid if name[0] == "comrade") / 2
    update = save(
        "comrade/faces/dissident.j2",
        "{{ t.card.dissident.goal }}",
        "<i>{{ t.card.dissident.goal }}</i>",
    )
    assert update.faces_laid_out == dissident, (update.faces_laid_out, dissident)
    assert update.written and all(path.name.startswith("comrade-") for path in update.written), (
        update.written
    )

    setup = made_with("assassin/faces/setup.j2")  # includes assassin/mix_table.j2
    update = save("assassin/mix_table.j2", "<", "<")  # saved as it was: no face reads anything new
    assert update.faces_laid_out == 0
    update = save("assassin/mix_table.j2", "{#", "{# Saved again. ")
    assert 0 < setup == update.faces_laid_out, (update.faces_laid_out, setup)

    update = save(
        "comrade/faces/dissident.j2",
        "{% block reminder %}",
        '{% include "comrade/faces/" ~ "none.j2" ignore missing %}{% block reminder %}',
    )
    assert update.faces_laid_out == dissident
    update = save("assassin/faces/caller.j2", "{#", "{# Saved again. ")
    assert update.faces_laid_out == made_with("assassin/faces/caller.j2") + dissident

    cold = build(
        data,
        tmp_path / "cold",
        games=["assassin", "comrade"],
        langs=["en", "fr"],
        papers=["a4"],
        templates_dir=templates,
        force=True,
    )
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_save_gives_new_images_only_to_the_faces_it_changed(data_copy, tmp_path):
    """Faces set at one size across their deck (design.same_size_across_deck: Kremlin's politicians
    in French, Comrade's informer) were set again as new faces at every refresh: after any save
    anywhere, serve had the page load their 28 images again and watch drew them again. They are now
    the faces of the refresh before while what they are made from is the same."""
    from printshop.live.serve import Preview

    preview = Preview(Session(data_copy, render=False, draft=True))
    preview.refresh()
    before = dict(preview.views)
    texts = data_copy / "comrade" / "text" / "en.yaml"
    texts.write_text(
        texts.read_text(encoding="utf-8").replace('name: "Dissident"', 'name: "Dissident I"', 1),
        encoding="utf-8",
    )
    preview.refresh({texts})
    assert preview.state["ok"]
    new = sorted(
        (view.game, view.lang, view.key)
        for token, view in preview.views.items()
        if token not in before
    )
    assert new == [
        ("comrade", "en", "cards/dissident-glasnost/front"),
        ("comrade", "en", "cards/dissident-perestroika/front"),
    ], new
    resized = [
        view
        for view in before.values()
        if view.game == "kremlin"
        and view.lang == "fr"
        and not view.key.startswith("rules/")
        and any(
            laid.frame.size_across == "deck" and laid.fit.size < laid.frame.size
            for laid in view.face.frames
        )
    ]
    assert (
        len(resized) > 10
    )  # (what this test is about: faces set smaller than their own size to match the deck)

    session = Session(data_copy, tmp_path / "out", games=["comrade"], langs=["fr"], papers=["a4"])
    assert session.refresh().ok
    french = data_copy / "comrade" / "text" / "fr.yaml"
    french.write_text(
        french.read_text(encoding="utf-8") + "# a translator's note\n", encoding="utf-8"
    )
    update = session.refresh({french})
    assert (
        update.ok
        and update.jobs_rendered
        and update.faces_laid_out == 0
        and update.faces_drawn == 0
    ), update


def test_an_image_saved_lays_out_the_faces_that_draw_it(tmp_path):
    """A game's art is read face by face: saving one image lays out (and draws, and shows anew) the
    faces that draw it, not every face of the game; the files are those a cold build writes."""
    from PIL import Image

    from tests.conftest import FIXTURES, fixture_project

    data, templates = fixture_project(tmp_path / "project")
    shutil.copytree(FIXTURES / "harvest" / "data", data / "harvest")
    shutil.copytree(FIXTURES / "harvest" / "templates", templates / "harvest")
    settings = {"games": ["harvest"], "langs": ["en"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", templates_dir=templates, **settings)
    first = session.refresh()
    assert first.ok, [d.format() for d in first.report.errors]
    wood = [
        name
        for name, laid in session._laid.items()
        if laid.face is not None
        and any(
            shape.kind == "image" and shape.src == "images/wood.png"
            for shape in laid.face.face.shapes.values()
        )
    ]
    assert wood and len(wood) < len(session._laid) / 4
    art = data / "harvest" / "images" / "wood.png"
    with Image.open(art) as image:
        size = image.size
    Image.new("RGB", size, (20, 120, 40)).save(art)
    update = session.refresh({art})
    assert update.ok and update.faces_laid_out == len(wood), (update.faces_laid_out, wood)
    assert update.jobs_rendered == ["harvest en a4"] and [path.name for path in update.written] == [
        "harvest-en-resources-a4.pdf"
    ], update
    cold = build(data, tmp_path / "cold", templates_dir=templates, force=True, **settings)
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_game_with_print_data_of_its_own_is_laid_out_in_a_session_as_a_build_lays_it_out(
    tmp_path,
):
    """Harvest names card sizes and colours of its own (data/harvest/print/): a session laid the
    game out with the project's print data alone, where those sizes do not exist, so watch wrote no
    card file for its decks and serve showed none of its cards, without a word. It lays each game
    out as the game sees the project, as a build."""
    from printshop.live.views import face_views
    from tests.conftest import FIXTURES, fixture_project

    data, templates = fixture_project(tmp_path / "project")
    shutil.copytree(FIXTURES / "harvest" / "data", data / "harvest")
    shutil.copytree(FIXTURES / "harvest" / "templates", templates / "harvest")
    assert (data / "harvest" / "print" / "media.yaml").is_file()
    settings = {"games": ["harvest"], "langs": ["en"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", templates_dir=templates, **settings)
    assert session.refresh().ok
    assert any(view.key == "resources/wood/front" for view in face_views(session))
    cold = build(data, tmp_path / "cold", templates_dir=templates, force=True, **settings)
    assert not cold.report.has_errors and any("resources" in path.name for path in cold.written)
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_build_after_watch_takes_what_watch_made_from_the_cache(tmp_path):
    """When watch stops, the files of its last build go into the output folder's cache under the
    keys a build gives them: `printshop build` of the same data and settings then renders nothing
    and writes the same bytes. Saves in between are not stored (a cache of every version); a watch
    that ends on an error stores nothing."""
    with _watching(tmp_path) as (texts, lines, cards):
        _rename_informer(texts)
        assert re.fullmatch(REBUILT, _wait_for_lines(lines, 2)[1]), lines
        watched = cards.read_bytes()
    after = build(
        tmp_path / "data", tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"]
    )
    assert not after.report.has_errors and after.rendered_jobs == [], after.rendered_jobs
    assert (
        sorted(after.cached_jobs) == ["calibration en a4", "comrade en a4"]
        and cards.read_bytes() == watched
    )
    stored = list((tmp_path / "out" / ".printshop-cache" / "jobs").iterdir())
    assert len(stored) == 2, stored  # the last build's two jobs, not the first build's too

    data, out = tmp_path / "data", tmp_path / "broken-out"
    session = Session(data, out, games=["comrade"], langs=["en"], papers=["a4"])
    assert session.refresh().ok
    texts.write_text(texts.read_text(encoding="utf-8") + "broken: [\n", encoding="utf-8")
    assert not session.refresh({texts}).ok
    assert session.store() == [] and not (out / ".printshop-cache" / "jobs").exists()


def test_a_colour_saved_lays_out_and_draws_the_faces_that_use_it_and_shows_them_anew(tmp_path):
    """A colour of the shared palette (print/colours.yaml) is read colour by colour: saving one lays
    out and draws again the faces that use it (Kremlin's markers of one faction), not every face of
    every game, and registers no font again; the page gives those faces new images and keeps the
    others'; the files are those a cold build writes, in the new colour."""
    import io

    from PIL import Image

    from printshop.live.serve import Preview
    from printshop.render.faces import face_colours

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    settings = {"games": ["kremlin"], "langs": ["en"], "papers": ["a4"]}
    preview = Preview(Session(data, tmp_path / "live", **settings))
    preview.refresh()
    session = preview.session
    assert preview.state["ok"], preview.state
    using = {
        name
        for name, laid in session._laid.items()
        if laid.face is not None and "faction-3" in face_colours(laid.face)
    }
    assert 0 < len(using) < len(session._laid) / 4
    fonts, tokens = session.fonts, {view.place: view.token for view in preview.views.values()}
    colours = data / "print" / "colours.yaml"
    text = colours.read_text(encoding="utf-8")
    assert 'faction-3: "#3d6b35"' in text
    colours.write_text(
        text.replace('faction-3: "#3d6b35"', 'faction-3: "#00c8ff"'), encoding="utf-8"
    )
    update = session.refresh(
        {colours}
    )  # (the page's refresh is below: the session's own counts first)
    assert update.ok and update.faces_laid_out == len(using), (update.faces_laid_out, len(using))
    assert update.faces_drawn == len(using) and session.fonts is fonts
    preview.refresh(set())
    renewed = {view.key for view in preview.views.values() if tokens.get(view.place) != view.token}
    assert renewed == {name[3] for name in using}
    cold = build(data, tmp_path / "cold", force=True, **settings)
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")
    # and the new colour is what is printed: a marker of that faction, drawn for the page, is cyan
    view = next(view for view in preview.views.values() if view.key in renewed)
    with Image.open(io.BytesIO(preview.image(view.token))) as image:
        assert image.convert("RGB").getpixel((2, image.height // 2)) == (0, 200, 255)


def test_face_colours_and_motifs_name_every_colour_and_motif_drawing_a_face_reads(tmp_path):
    """render/faces.face_colours and face_motifs, by which a session keeps a face while its colours
    and motifs are unchanged, against what draw_face reads of the palette and the motifs, for every
    face of every game: one they missed would leave a face, and its image on the page, in the old
    colour or shape."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from printshop.memo import Reads
    from printshop.pipeline.build import check
    from printshop.render.colour import Paints
    from printshop.render.faces import draw_face, face_colours, face_motifs

    report, checked = check(DEFAULT_DATA_DIR, langs=["fr"], variant=None)
    assert not report.has_errors
    seen, drew_motifs = 0, False
    for layout in checked.layouts:
        project = checked.project.view(layout.localized.data)
        faces = [face for deck in layout.decks for face in deck.faces.values()]
        faces += [face for sheet in layout.sheets for face in (*sheet.faces, *sheet.backs)]
        for face in faces:
            palette, motifs = (
                Reads(project.colours.palette, log=[]),
                Reads(project.motifs.motifs, log=[]),
            )
            draw_face(
                Canvas(io.BytesIO()), face, Paints(palette), motifs, layout.localized.data.dir
            )
            assert palette.read == face_colours(face), (layout.game_id, face.key)
            assert motifs.read == face_motifs(face), (layout.game_id, face.key)
            seen += 1
            drew_motifs = drew_motifs or bool(motifs.read)
    assert seen > 200 and drew_motifs


def test_a_session_of_a_naming_variant_writes_what_build_variant_writes_and_follows_its_texts(
    tmp_path,
):
    """watch and serve lay out a naming variant (`--variant soviet`), as `printshop build --variant`
    builds it: the same files, with -soviet in their names, and the variant's names on the cards; a
    name of the variant saved lays out the faces that print it. A variant no game has any more is
    said at each refresh."""
    from printshop.live.serve import Preview

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    settings = {"games": ["assassin"], "langs": ["en"], "papers": ["a4"]}
    preview = Preview(Session(data, tmp_path / "live", variant="soviet", **settings))
    preview.refresh()
    assert preview.state["ok"], [
        d["text"] for d in preview.state["diagnostics"] if d["severity"] == "error"
    ]
    written = sorted(path.name for path in (tmp_path / "live" / "assassin").rglob("*.pdf"))
    assert written and all("-en-soviet-" in name for name in written), written
    assert [game["variant"] for game in preview.state["games"]] == [
        "soviet"
    ]  # the page's heading says so
    # the assassin card's name is written in the variant's texts: its sources lead there, not to the
    # default name
    texts = data / "assassin" / "text" / "en.yaml"
    [card] = [
        face
        for game in preview.state["games"]
        for row in game["rows"]
        for lang, face in row["faces"].items()
        if row["key"] == "cards/assassin/front"
    ]
    soviet, default = line_of(texts, 'name: "Commissar"'), line_of(texts, 'name: "Assassin"')
    assert any(source.endswith(f"text/en.yaml:{soviet}") for source in card["sources"]), card[
        "sources"
    ]
    assert not any(source.endswith(f"text/en.yaml:{default}") for source in card["sources"]), card[
        "sources"
    ]
    cold = build(data, tmp_path / "cold", force=True, variant="soviet", **settings)
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")
    cards = next((tmp_path / "live").rglob("assassin-en-soviet-cards-a4.pdf"))
    assert "COMMISSAR" in pdf_text(cards, "").upper()
    edit(texts, 'name: "Commissar"', 'name: "Politruk"')
    back = preview.session._laid[("assassin", "en", "soviet", "cards/back", "card-back")].face
    update = preview.session.refresh({texts})
    # the faces whose texts name the roles (the cards' objectives name the others), not the back
    assert update.ok and 1 <= update.faces_laid_out < len(preview.session._laid), (
        update.faces_laid_out
    )
    assert (
        preview.session._laid[("assassin", "en", "soviet", "cards/back", "card-back")].face is back
    )
    assert "POLITRUK" in pdf_text(cards, "").upper()
    # the variant taken out of the data: the default names, and a warning saying why
    game = data / "assassin" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    start, end = text.index("  soviet:\n"), text.index("  village:\n")
    game.write_text(text[:start] + text[end:], encoding="utf-8")
    update = preview.session.refresh({game})
    assert update.ok
    [warning] = [d for d in update.report.items if d.code == "unknown-reference"]
    assert (
        warning.message
        == "no game here has the naming variant 'soviet' any more: the default names are shown"
    )
    assert "village" in warning.hint


def test_an_empty_variant_is_the_default_names_as_in_a_build(tmp_path):
    """`--variant ''` builds the default names; a session took '' for a variant no game has and
    warned of it at every refresh."""
    session = Session(
        DEFAULT_DATA_DIR, None, games=["assassin"], langs=["en"], render=False, variant=""
    )
    update = session.refresh()
    assert update.ok and not [
        d for d in update.report.items if d.code == "unknown-reference"
    ]  # (no variant named '' to look for)
    assert all(layout.localized.variant is None for layout in session.checked.layouts)


def test_watch_and_serve_refuse_a_variant_no_game_has(tmp_path, capsys):
    """As build does, before anything starts: the variants there are, named."""
    from printshop.cli import main

    for command in (["watch", "--out", str(tmp_path / "out")], ["serve", "--port", "0"]):
        with pytest.raises(SystemExit) as usage:
            main([*command, "assassin", "--variant", "sovet"])
        err = capsys.readouterr().err
        assert usage.value.code == 2, (command, err)
        assert "no game here has the variant 'sovet' (variants: soviet, village)" in err
        assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "game, motifs_file, motif, old, new",
    [
        # the shared motifs: Comrade's chairman draws the gavel
        (
            "comrade",
            "print/motifs.yaml",
            "gavel",
            '"M41 44 L49 44 L49 80 L41 80 Z"',
            '"M39 44 L51 44 L51 80 L39 80 Z"',
        ),
        # a game's own: Kremlin's markers of the third faction
        (
            "kremlin",
            "kremlin/print/motifs.yaml",
            "faction-3",
            '"M30 34 L66 34 L72 48 L24 48 Z"',
            '"M20 30 L76 30 L80 48 L16 48 Z"',
        ),
    ],
)
def test_a_motif_saved_lays_out_and_draws_the_faces_that_draw_it(
    tmp_path, game, motifs_file, motif, old, new
):
    """Motifs are read motif by motif, as colours are: a motif saved (in the project's motifs or a
    game's own) lays out and draws again the faces that draw it, not every face; the files are those
    a cold build writes."""
    from printshop.render.faces import face_motifs

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    settings = {"games": [game], "langs": ["en"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", **settings)
    assert session.refresh().ok
    drawing = {
        name
        for name, laid in session._laid.items()
        if laid.face is not None and motif in face_motifs(laid.face)
    }
    assert 0 < len(drawing) < len(session._laid) / 2, (len(drawing), len(session._laid))
    edit(data / motifs_file, old, new)
    update = session.refresh({data / motifs_file})
    assert (
        update.ok and update.faces_laid_out == len(drawing) and update.faces_drawn == len(drawing)
    ), update
    cold = build(data, tmp_path / "cold", force=True, **settings)
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_print_data_no_face_reads_lays_out_no_face_and_a_card_size_lays_out_its_decks(tmp_path):
    """The booklet's style (print/booklet.yaml), saved, lays out no face (serve's images stay) and
    renders the kits again, as a build would; a card size changed in a game's own print/media.yaml
    lays out the faces of the decks of that size, not the others. The files are those a cold build
    writes."""
    from tests.conftest import FIXTURES, fixture_project

    data, templates = fixture_project(tmp_path / "project")
    shutil.copytree(FIXTURES / "harvest" / "data", data / "harvest")
    shutil.copytree(FIXTURES / "harvest" / "templates", templates / "harvest")
    settings = {"games": ["harvest"], "langs": ["en"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", templates_dir=templates, **settings)
    assert session.refresh().ok
    booklet = data / "print" / "booklet.yaml"
    edit(booklet, "folio: {font: sans, size: 7pt", "folio: {font: sans, size: 8pt")
    update = session.refresh({booklet})
    assert update.ok and update.faces_laid_out == 0 and update.jobs_rendered, update
    mini = {
        name
        for name, laid in session._laid.items()
        if laid.face is not None
        and abs(laid.face.width - 44 * 72 / 25.4) < 0.01
        and abs(laid.face.height - 68 * 72 / 25.4) < 0.01
    }
    assert 0 < len(mini) < len(session._laid)
    media = data / "harvest" / "print" / "media.yaml"
    edit(media, "mini-euro: {width: 44mm, height: 68mm", "mini-euro: {width: 45mm, height: 68mm")
    update = session.refresh({media})
    assert update.ok and update.faces_laid_out == len(mini), (update.faces_laid_out, len(mini))
    cold = build(data, tmp_path / "cold", templates_dir=templates, force=True, **settings)
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_language_file_saved_lays_out_the_faces_of_that_language_only(tmp_path):
    """A face reads its own language's file (typography, labels), as a job's key holds it: saving
    the French one lays out French faces, not the English ones; the files are those a cold build
    writes."""
    from tests.conftest import fixture_project

    data, templates = fixture_project(tmp_path / "project")
    settings = {"games": ["sampler"], "langs": ["en", "fr"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", templates_dir=templates, **settings)
    assert session.refresh().ok
    english = {name: laid.face for name, laid in session._laid.items() if name[1] == "en"}
    french = [name for name in session._laid if name[1] == "fr"]
    assert english and french
    edit(data / "languages" / "fr.yaml", 'fronts: "recto"', 'fronts: "recto (faces)"')
    update = session.refresh({data / "languages" / "fr.yaml"})
    assert update.ok and update.faces_laid_out == len(french), (update.faces_laid_out, len(french))
    assert all(session._laid[name].face is face for name, face in english.items())
    cold = build(data, tmp_path / "cold", templates_dir=templates, force=True, **settings)
    assert not cold.report.has_errors
    _same_files(tmp_path / "live", tmp_path / "cold")


def test_a_colour_taken_out_of_the_palette_is_drawn_in_magenta_on_the_page_not_a_broken_image(
    tmp_path,
):
    """A colour faces use, renamed in colours.yaml: the page lists the error at the faces, and draws
    them with the missing colour in the overset's magenta (a broken image said nothing of where);
    mended, they are drawn in the colour again."""
    import io

    from PIL import Image

    from printshop.live.serve import Preview
    from printshop.live.views import MISSING_COLOUR

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    preview = Preview(Session(data, None, games=["comrade-stalin"], langs=["en"], render=False))
    preview.refresh()
    assert preview.state["ok"]
    colours = data / "print" / "colours.yaml"
    edit(colours, 'red-deep: "#7d1a12"', 'red-dark: "#7d1a12"')
    preview.refresh({colours})
    errors = [d for d in preview.state["diagnostics"] if d["severity"] == "error"]
    assert errors and all("no colour 'red-deep' in the palette" in d["message"] for d in errors), (
        errors
    )
    back = next(token for token, view in preview.views.items() if view.key == "cards/back")
    assert any(back in d["faces"] for d in errors)

    def share(token, colour) -> float:
        """How much of the face's picture is `colour` (the back's frame and medallion)."""
        with Image.open(io.BytesIO(preview.image(token))) as image:
            pixels = list(image.convert("RGB").getdata())
        return sum(1 for pixel in pixels if pixel == colour) / len(pixels)

    magenta = tuple(int(MISSING_COLOUR[i : i + 2], 16) for i in (1, 3, 5))
    assert share(back, magenta) > 0.05
    assert all(preview.image(token) is not None for token in preview.views)
    edit(colours, 'red-dark: "#7d1a12"', 'red-deep: "#7d1a12"')
    preview.refresh({colours})
    back = next(token for token, view in preview.views.items() if view.key == "cards/back")
    assert preview.state["ok"] and share(back, magenta) == 0
    assert share(back, (0x7D, 0x1A, 0x12)) > 0.05


@pytest.mark.parametrize(
    "fault, old, new, error",
    [
        (
            "colour",
            "colour: red, align: center, valign: middle, uppercase: true}",
            "colour: rouge, align: center, valign: middle, uppercase: true}",
            "no colour 'rouge' in the palette",
        ),
        (
            "font",
            "font: sans-bold, size: 13pt",
            "font: sans-boldy, size: 13pt",
            "no font 'sans-boldy'",
        ),
    ],
)
def test_a_frame_in_a_colour_or_font_there_is_not_shows_its_text_in_magenta_until_mended(
    tmp_path, fault, old, new, error
):
    """A frame of Comrade's dissident cards (the secret word) given a colour the palette lacks, or a
    font there is not: the frame was left out of the preview, so the word vanished from the card
    with nothing on it to say where. Now its text is drawn in the overset's magenta (a font in the
    registered face named most like it), beside the error; the session writes nothing meanwhile;
    mended, the word is red again."""
    import io

    import numpy as np
    from PIL import Image

    from printshop.live.serve import Preview
    from printshop.live.views import MISSING_COLOUR

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    out = tmp_path / "out"
    session = Session(data, out, games=["comrade"], langs=["en"], papers=["a4"])
    preview = Preview(session)
    preview.refresh()
    written = sorted(path.read_bytes() for path in out.rglob("*.pdf"))
    assert preview.state["ok"] and written
    faces = data / "comrade" / "faces.yaml"
    edit(faces, old, new)

    def word(token) -> np.ndarray:
        """The pixels of the image within the frame 'word' (6 mm from the left, 50.5 mm from the
        top, 51 by 7.5 mm) of a face's image at the preview's resolution."""
        view = preview.views[token]
        with Image.open(io.BytesIO(preview.image(token))) as image:
            pixels = np.asarray(image.convert("RGB")).astype(int)
        scale = pixels.shape[1] / (view.face.width + 2 * view.face.bleed)
        frame = view.face.face.frames["word"]  # as faces.yaml defines it, laid out or not
        left, top = (view.face.bleed + frame.x) * scale, (view.face.bleed + frame.y) * scale
        return pixels[
            int(top) : int(top + frame.height * scale), int(left) : int(left + frame.width * scale)
        ]

    def inked_with(pixels: np.ndarray, hex_colour: str) -> int:
        target = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)])
        return int((np.abs(pixels - target).max(axis=2) <= 24).sum())

    preview.refresh({faces})
    assert (
        not preview.state["ok"]
        and sorted(path.read_bytes() for path in out.rglob("*.pdf")) == written
    )
    errors = [d for d in preview.state["diagnostics"] if d["severity"] == "error"]
    assert errors and all(error in d["message"] for d in errors), errors
    dissident = next(
        token
        for token, view in preview.views.items()
        if view.key == "cards/dissident-glasnost/front"
    )
    assert any(dissident in d["faces"] for d in errors)
    assert inked_with(word(dissident), MISSING_COLOUR) > 200  # the word, in magenta

    edit(faces, new, old)
    preview.refresh({faces})
    assert preview.state["ok"]
    dissident = next(
        token
        for token, view in preview.views.items()
        if view.key == "cards/dissident-glasnost/front"
    )
    red = real_project(["comrade"]).colours.palette["red"]
    mended = word(dissident)
    assert inked_with(mended, MISSING_COLOUR) == 0 and inked_with(mended, red) > 200


@pytest.mark.parametrize(
    "old, new, error",
    [
        (
            "art: {motif: megaphone, x: 20mm",
            "art: {kind: image, src: images/megaphone.png, x: 20mm",
            "image 'images/megaphone.png' not found",
        ),
        (
            "art: {motif: megaphone, x: 20mm",
            "art: {motif: megafone, x: 20mm",
            "no motif 'megafone'",
        ),
    ],
)
def test_art_not_there_is_an_empty_frame_in_magenta_and_the_art_once_it_is(
    tmp_path, old, new, error
):
    """A face naming an image not made yet (a designer laying out before the art is in), or a motif
    mistyped: the image's face was 'no image: this face could not be drawn', the motif's drawn
    without its art. Both are now drawn with an empty frame in the overset's magenta where the art
    goes, crossed and named, beside the error; once the file is there (or the name mended), the art
    is drawn and no magenta is left."""
    import io

    import numpy as np
    from PIL import Image

    from printshop.live.serve import Preview
    from printshop.live.views import MISSING_COLOUR

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    preview = Preview(Session(data, None, games=["comrade"], langs=["en"], render=False))
    preview.refresh()
    faces = data / "comrade" / "faces.yaml"
    edit(faces, old, new)
    preview.refresh({faces})
    errors = [d for d in preview.state["diagnostics"] if d["severity"] == "error"]
    assert errors and all(error in d["message"] for d in errors), errors

    def art(colour: str) -> int:
        """Pixels of `colour` within the art's box (20 mm from the left, 20.5 mm from the top, 23 mm
        square) of the first dissident card's image."""
        token = next(
            token
            for token, view in preview.views.items()
            if view.key == "cards/dissident-glasnost/front"
        )
        view = preview.views[token]
        with Image.open(io.BytesIO(preview.image(token))) as image:
            pixels = np.asarray(image.convert("RGB")).astype(int)
        scale = pixels.shape[1] / (view.face.width + 2 * view.face.bleed)
        shape = view.face.face.shapes["art"]
        left, top = (view.face.bleed + shape.x) * scale, (view.face.bleed + shape.y) * scale
        box = pixels[
            int(top) : int(top + shape.height * scale), int(left) : int(left + shape.width * scale)
        ]
        target = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
        return int((np.abs(box - target).max(axis=2) <= 24).sum())

    assert art(MISSING_COLOUR) > 150  # the frame, its cross and the name, in magenta
    if "image" in error:
        made = data / "comrade" / "images" / "megaphone.png"
        made.parent.mkdir(exist_ok=True)
        Image.new("RGB", (300, 300), (0x10, 0xA0, 0x30)).save(made)  # 23 mm at 331 dpi
        preview.refresh({made})
        assert preview.state["ok"] and art(MISSING_COLOUR) == 0 and art("#10a030") > 1000
    else:
        edit(faces, new, old)
        preview.refresh({faces})
        red = real_project(["comrade"]).colours.palette["red"]
        assert preview.state["ok"] and art(MISSING_COLOUR) == 0 and art(red) > 1000


def test_the_rules_are_shown_page_by_page_and_a_rule_saved_redraws_its_booklet_alone(
    tmp_path, built
):
    """The rules are most of what a translator translates, and serve showed none of them. Each
    game's rules booklet is now shown page by page after its faces (rows `rules/1`, `rules/2`...),
    each page rasterised from the A5 booklet `build` writes, byte for byte; its sources are the
    lines of the rules' texts. A rule saved renders that language's booklet again and no other; a
    card's text saved renders none."""
    import io

    from PIL import Image

    from printshop.live.serve import Preview

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    preview = Preview(Session(data, None, games=["comrade"], render=False))
    preview.refresh()
    pages = {
        (view.lang, view.key): token
        for token, view in preview.views.items()
        if view.key.startswith("rules/")
    }
    for lang in ("en", "fr"):
        written = (built / "comrade" / lang / f"comrade-{lang}-rules-a5.pdf").read_bytes()
        assert preview._booklets[("comrade", lang)].data == written
        count = len(pypdf_pages(written))
        assert sorted(key for (language, key) in pages if language == lang) == sorted(
            f"rules/{number}" for number in range(1, count + 1)
        )
    row = next(game for game in preview.state["games"] if game["id"] == "comrade")["rows"]
    first = next(r for r in row if r["key"] == "rules/1")["faces"]["en"]
    assert any(f["short"] == "text/en.yaml" for f in first["files"]) and first["template"].endswith(
        "rules.xml.j2"
    )
    with Image.open(io.BytesIO(preview.image(pages[("en", "rules/1")]))) as image:
        assert abs(image.height / image.width - 210 / 148) < 0.01  # an A5 page

    english = data / "comrade" / "text" / "en.yaml"
    edit(english, 'heading: "Components"', 'heading: "In the box"')
    preview.refresh({english})
    now = {
        (view.lang, view.key): token
        for token, view in preview.views.items()
        if view.key.startswith("rules/")
    }
    assert all(now[place] != token for place, token in pages.items() if place[0] == "en")
    assert all(now[place] == token for place, token in pages.items() if place[0] == "fr")
    assert (
        "IN THE BOX" in pdf_text(preview._booklets[("comrade", "en")].data).upper()
    )  # (a heading: in capitals)

    edit(english, 'name: "Dissident"', 'name: "Dissenter"')
    preview.refresh({english})
    assert {
        (view.lang, view.key): token
        for token, view in preview.views.items()
        if view.key.startswith("rules/")
    } == now


def test_the_faces_are_shown_before_the_rules_booklets_are_rendered_and_a_rule_saved_greys_its_pages_meanwhile(
    tmp_path, monkeypatch
):
    """A booklet takes about as long to render as every face of its game: serve's first page waited
    for them all, and so did a face after a save of the palette. The faces are now shown first; the
    booklets are rendered after (`render_pages`), their pages added with the faces' tokens
    unchanged. A rule saved shows that booklet's earlier pages greyed until its new ones are there;
    the other language's are untouched."""
    import printshop.live.serve as serve

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    import printshop.render.booklet as booklet_module

    # (serve imports render_booklet where it renders: the module's is the one it calls)
    rendered = []
    original = booklet_module.render_booklet
    monkeypatch.setattr(
        booklet_module,
        "render_booklet",
        lambda layout, *a, **k: (
            rendered.append((layout.game_id, layout.lang)) or original(layout, *a, **k)
        ),
    )
    preview = serve.Preview(Session(data, None, games=["comrade"], render=False))

    def shown() -> dict:
        return {
            (view.lang, view.key): (token, view.pending) for token, view in preview.views.items()
        }

    preview.refresh(pages=False)
    faces, version = shown(), preview.state["version"]
    assert faces and rendered == [] and not any(key.startswith("rules/") for _, key in faces)
    preview.render_pages()
    now = shown()
    assert (
        sorted(rendered) == [("comrade", "en"), ("comrade", "fr")]
        and preview.state["version"] == version + 1
    )
    assert {
        place: value for place, value in now.items() if not place[1].startswith("rules/")
    } == faces
    pages = {
        place: token
        for place, (token, pending) in now.items()
        if place[1].startswith("rules/") and not pending
    }
    assert {lang for lang, _ in pages} == {"en", "fr"}
    preview.render_pages()  # nothing left to render: nothing happens
    assert len(rendered) == 2 and preview.state["version"] == version + 1

    english = data / "comrade" / "text" / "en.yaml"
    edit(english, 'heading: "Components"', 'heading: "In the box"')
    preview.refresh({english}, pages=False)
    meanwhile = shown()
    assert len(rendered) == 2
    assert {
        place: value for place, value in meanwhile.items() if place[1].startswith("rules/")
    } == {
        place: (token, place[0] == "en") for place, token in pages.items()
    }  # the same pages, English greyed
    row = next(row for row in preview.state["games"][0]["rows"] if row["key"] == "rules/1")["faces"]
    assert (row["en"]["pending"], row["en"]["stale"], row["fr"]["pending"]) == (True, False, False)
    assert preview.state["ok"]  # (set again, not stopped by an error)
    preview.render_pages()
    after = shown()
    assert rendered[2:] == [("comrade", "en")]
    assert all(after[place] == (token, False) for place, token in pages.items() if place[0] == "fr")
    assert all(
        after[place][0] != token and not after[place][1]
        for place, token in pages.items()
        if place[0] == "en"
    )


def test_the_server_shows_the_rules_pages_once_rendered_after_the_faces(tmp_path):
    """serve listens once the faces are laid out; its watching thread renders the rules booklets,
    and the page (told by an event) shows their pages after the faces."""
    from printshop.live.serve import Server

    server = Server(
        Session(DEFAULT_DATA_DIR, None, games=["comrade"], langs=["en"], render=False), port=0
    ).start()
    try:
        started = time.monotonic()
        while time.monotonic() - started < DEADLINE and not any(
            row["key"].startswith("rules/")
            for game in server.preview.state["games"]
            for row in game["rows"]
        ):
            time.sleep(0.05)
        rows = [row["key"] for game in server.preview.state["games"] for row in game["rows"]]
        assert "rules/1" in rows and rows.index("rules/1") > 0  # after the faces
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/state") as answer:
            assert [
                row["key"] for game in json.loads(answer.read())["games"] for row in game["rows"]
            ] == rows
    finally:
        server.close()


def test_a_rules_page_names_the_rules_it_prints_and_a_diagnostic_at_a_rule_leads_to_that_page(
    tmp_path,
):
    """A rules page's sources were every line of the rules, so an error at one rule flagged every
    page of its booklet. Now a page names the rules it prints, found in the page's own text: the
    page pypdf reads the rule on, and that page alone, leads to its line, and the error there leads
    to that page."""
    from printshop.live.booklet_pages import letters
    from printshop.live.serve import Preview

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    french = data / "comrade" / "text" / "fr.yaml"
    preview = Preview(Session(data, None, games=["comrade"], langs=["fr"], render=False))
    preview.refresh()
    pages = sorted(
        (view for view in preview.views.values() if view.key.startswith("rules/")),
        key=lambda view: int(view.key.split("/")[1]),
    )
    read = [
        letters(page.extract_text())
        for page in pypdf_pages(preview._booklets[("comrade", "fr")].data)
    ]
    assert len(pages) == len(read) >= 4
    rules = {line for view in pages for path, line in view.sources if path.endswith("fr.yaml")}
    assert all(view.sources for view in pages) and all(
        len(view.sources) < len(rules) for view in pages
    )

    line = line_of(french, "arrondie au supérieur")
    shown = [
        index
        for index, text in enumerate(read)
        if letters("arrondie au supérieur : 3, 4 ou 5") in text
    ]
    assert len(shown) == 1
    assert [
        index for index, view in enumerate(pages) if line in {at for path, at in view.sources}
    ] == shown

    edit(
        french, "3, 4 ou 5", "3, 4 ou 6"
    )  # an error at that rule: its numbers are not the English text's
    preview.refresh({french})
    mismatch = [d for d in preview.state["diagnostics"] if d["code"] == "number-mismatch"]
    assert [d["line"] for d in mismatch] == [line]
    tokens = {view.key: token for token, view in preview.views.items()}
    assert mismatch[0]["faces"] == [tokens[f"rules/{shown[0] + 1}"]] and mismatch[0]["pages"] == 1


@pytest.mark.parametrize("fault", ["colour", "font"])
def test_a_booklet_style_in_a_colour_or_font_there_is_not_is_shown_in_magenta_until_mended(
    tmp_path, fault
):
    """A style of booklet.yaml in a colour or font there is not stopped the rules booklet: serve
    showed no rules page at all. Its pages are now shown, that style's text drawn in the overset's
    magenta (a font stood in for by the one named most like it), as a face's frame is, beside the
    error; mended, the pages are drawn right."""
    import io

    import numpy as np
    from PIL import Image

    from printshop.live.serve import Preview
    from printshop.live.views import MISSING_COLOUR
    from printshop.project.paths import PACKAGE_DEFAULTS_DIR

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    booklet = data / "print" / "booklet.yaml"
    shutil.copyfile(PACKAGE_DEFAULTS_DIR / "print" / "booklet.yaml", booklet)
    good = "h1: {font: sans-bold, size: 13pt, leading: 1.2, colour: accent"
    bad = (
        good.replace("colour: accent", "colour: accnt")
        if fault == "colour"
        else good.replace("sans-bold", "sans-boldy")
    )
    edit(booklet, good, bad)
    preview = Preview(Session(data, None, games=["comrade"], langs=["en"], render=False))
    preview.refresh()

    def magenta() -> int:
        """Pixels of the magenta on the second page (the rules' first headings)."""
        token = next(token for token, view in preview.views.items() if view.key == "rules/2")
        with Image.open(io.BytesIO(preview.image(token))) as image:
            pixels = np.asarray(image.convert("RGB")).astype(int)
        target = np.array([int(MISSING_COLOUR[i : i + 2], 16) for i in (1, 3, 5)])
        return int((np.abs(pixels - target).max(axis=2) <= 24).sum())

    assert not preview.state["ok"]
    assert any(
        d["severity"] == "error" and d["path"].endswith("booklet.yaml")
        for d in preview.state["diagnostics"]
    )
    assert magenta() > 500  # three headings in magenta
    assert not (tmp_path / "output").exists()
    edit(booklet, bad, good)
    preview.refresh({booklet})
    assert preview.state["ok"] and magenta() == 0


def test_a_rule_is_found_on_every_page_it_runs_over_and_on_none_it_is_not_printed_on():
    """How serve finds a rule in its booklet's pages: by runs of its letters between its
    placeholders, whatever the page did to it (lines broken, words hyphenated, capitals, no-break
    spaces, markup). A paragraph over a page break is on both pages; a text the booklet does not
    print is on none. A text too short for that ("Setup", "Purge {n}") is found as whole words: on
    the pages with the word, not where it is part of another ("setups"); a letter alone ("A") or a
    placeholder alone cannot be placed (None: serve counts it on every page, as it does a text found
    on none)."""
    from printshop.live.booklet_pages import SEARCHED, Booklet, letters, words

    paragraph = (
        "Shuffle the two dissident cards face down, take one without looking at it and set the "
        "other aside, still unseen."
    )
    pages = [
        words("SETUP\n1. Shuffle the two dissi-\ndent cards face down, take one"),
        words(
            "without looking at it and set the other aside,\u00a0still unseen.\nMIX IN THE INFORMER CARD"
        ),
        words("Count out 3 vote cards. The end. Two setups: a Purge\u00a03 and l’État."),
    ]
    booklet = Booklet("key", b"", 3, {}, {}, None, pages)
    assert booklet.pages_of(paragraph) == (0, 1)
    assert booklet.pages_of("<b>Mix in</b> the informer card") == (1,)
    assert booklet.pages_of("Count out {count} vote cards.") == (
        2,
    )  # the pieces between placeholders
    assert booklet.pages_of("A rule no template prints anywhere at all.") == ()
    assert booklet.pages_of("Setup") == (0,) and booklet.pages_of("<b>Set</b>") == (1,)
    assert booklet.pages_of("Purge {n}") == (2,) and booklet.pages_of("L’ÉTAT") == (2,)
    assert (
        booklet.pages_of("Take") == (0,)
        and booklet.pages_of("Mix") == (1,)
        and booklet.pages_of("Cards") == (0, 2)
    )
    assert booklet.pages_of("Ace") == () and booklet.pages_of("No one") == ()
    assert booklet.pages_of("A") is None and booklet.pages_of("{count}") is None
    assert len(letters(paragraph)) > 3 * SEARCHED  # (found by its runs, not as a whole)


def pypdf_pages(data: bytes) -> list:
    import io

    from pypdf import PdfReader

    return list(PdfReader(io.BytesIO(data)).pages)


def test_a_face_image_is_drawn_through_an_uncompressed_pdf_and_comes_out_the_same(
    tmp_path, monkeypatch
):
    """The one-page PDF a face's image is rasterised from lives only until pdfium has read it: it is
    not deflated (a third of each image's time went to compressing its page and font subsets), and
    the image is the one a compressed PDF gives."""
    import pypdfium2
    from reportlab.pdfgen import canvas as canvases

    from printshop.live.images import face_png
    from printshop.live.serve import Preview

    preview = Preview(
        Session(DEFAULT_DATA_DIR, None, games=["comrade"], langs=["fr"], render=False)
    )
    preview.refresh()
    view = next(
        view for view in preview.views.values() if view.key == "cards/dissident-glasnost/front"
    )
    read = []
    opened = pypdfium2.PdfDocument
    monkeypatch.setattr(
        pypdfium2, "PdfDocument", lambda data, *args, **kw: read.append(data) or opened(data)
    )
    image = face_png(view)
    assert len(read) == 1 and b"FlateDecode" not in read[0] and b"/FontFile2" in read[0]
    made = canvases.Canvas.__init__
    monkeypatch.setattr(
        canvases.Canvas,
        "__init__",
        lambda self, *args, **kw: made(self, *args, **{**kw, "pageCompression": 1}),
    )
    assert face_png(view) == image and b"FlateDecode" in read[1]


def test_faces_drawn_together_give_the_images_each_drawn_alone_gives(tmp_path):
    """serve draws the images a page asks for a dozen at a time, into one PDF (fonts embedded once):
    each image is the one its face drawn alone gives, whatever its size or its neighbours' (cards,
    backs, sheets)."""
    from printshop.live.images import face_png, face_pngs
    from printshop.live.serve import Preview

    preview = Preview(
        Session(DEFAULT_DATA_DIR, None, games=["comrade-stalin"], langs=["fr"], render=False)
    )
    preview.refresh()
    views = [view for view in preview.views.values() if not view.key.startswith("rules/")]
    pages = [view for view in preview.views.values() if view.key.startswith("rules/")]
    sizes = {(round(view.face.width), round(view.face.height)) for view in views}
    assert len(sizes) >= 2 and len(views) > 12 and len(pages) >= 2, sizes
    mixed = views[::-1][:14]  # sheets among cards, sizes alternating
    mixed[6:6] = pages[:2]  # and two pages of the rules, rasterised from their booklet
    assert face_pngs(mixed) == [face_png(view) for view in mixed]


def test_a_page_asking_for_every_image_at_once_has_each_face_drawn_once_a_batch_at_a_time(
    tmp_path, monkeypatch
):
    """The page asks for its images all at once, on the server's threads: each face is drawn once (a
    face another request is drawing is waited for), in PDFs of up to PREVIEW_BATCH faces, and every
    image comes back. A face that cannot be drawn gives no image, and its batch's other faces still
    theirs."""
    from concurrent.futures import ThreadPoolExecutor

    import printshop.live.images as images
    import printshop.live.serve as serve
    import printshop.render.faces as faces_module

    preview = serve.Preview(
        Session(DEFAULT_DATA_DIR, None, games=["kremlin"], langs=["fr"], render=False)
    )
    preview.refresh()
    tokens = list(preview.views)
    assert len(tokens) > 3 * serve.PREVIEW_BATCH
    drawn, batches = [], []
    together = images.face_pngs

    def counted(views, dpi=images.PREVIEW_DPI):
        batches.append(len(views))
        drawn.extend(view.key for view in views)
        return together(views, dpi)

    monkeypatch.setattr(images, "face_pngs", counted)
    broken = preview.views[tokens[5]].face
    draw = faces_module.draw_face

    def draw_or_fail(canvas, face, *args, **kwargs):
        if face is broken:
            raise ValueError("this face cannot be drawn")
        return draw(canvas, face, *args, **kwargs)

    monkeypatch.setattr(faces_module, "draw_face", draw_or_fail)
    with ThreadPoolExecutor(8) as pool:
        images = dict(zip(tokens, pool.map(preview.image, tokens)))
    assert images[tokens[5]] is None
    assert all(
        image is not None and image.startswith(b"\x89PNG")
        for token, image in images.items()
        if token != tokens[5]
    )
    # each face drawn in one batch; the broken one's batch, which failed, then drawn one by one,
    # once each
    counts = collections.Counter(drawn)
    again = {key for key, count in counts.items() if count == 2}
    assert set(counts) == {view.key for view in preview.views.values()} and set(
        counts.values()
    ) <= {1, 2}
    assert preview.views[tokens[5]].key in again and len(again) <= serve.PREVIEW_BATCH
    assert max(batches) == serve.PREVIEW_BATCH and len(batches) - len(again) < len(tokens) / 4


def test_after_an_edit_the_image_of_the_changed_face_is_drawn_without_the_faces_out_of_sight(
    tmp_path, monkeypatch
):
    """A batch takes only faces the last refresh changed: after one text is edited, its card's image
    is drawn alone (at once), not with a dozen faces the page never asked for because they are out
    of sight."""
    import printshop.live.images as images
    import printshop.live.serve as serve

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    preview = serve.Preview(Session(data, None, games=["kremlin"], langs=["fr"], render=False))
    preview.refresh()
    batches = []
    together = images.face_pngs
    monkeypatch.setattr(
        images,
        "face_pngs",
        lambda views, dpi=images.PREVIEW_DPI: (
            batches.append([view.key for view in views]) or together(views, dpi)
        ),
    )
    assert preview.image(next(iter(preview.views))) is not None
    assert len(batches[0]) == serve.PREVIEW_BATCH  # the page's first faces, drawn together
    before = set(preview.views)
    edit(data / "kremlin" / "text" / "fr.yaml", 'name: "Petr Niewitko"', 'name: "Piotr Niewitko"')
    preview.refresh({data / "kremlin" / "text" / "fr.yaml"})
    changed = [token for token in preview.views if token not in before]
    assert changed and len(changed) < serve.PREVIEW_BATCH
    assert preview.image(changed[0]) is not None
    assert batches[1] == [preview.views[token].key for token in changed]


def test_the_page_names_files_from_the_project_and_gives_no_command_line_hint(tmp_path):
    """What the page shows of a diagnostic: paths from the project's folder (serve may run
    anywhere), and no clause that tells what to type (`--data`, 'printshop ...'); a message that
    is all command line stays as it is, a hint that is goes."""
    from printshop.live.views import for_the_page

    root = tmp_path / "games"
    said = for_the_page(root)
    assert (
        said(f"image 'images/stamp.png' not found in {root}/data/comrade")
        == "image 'images/stamp.png' not found in data/comrade"
    )
    assert said("create the file, or pass the right folder with --data", hint=True) == (
        "create the file"
    )
    assert said("the data folder does not exist (see --data)") == "the data folder does not exist"
    assert said("no game in data/ yet: 'printshop new GAME' adds one") == "no game in data/ yet"
    assert said("name another with --port", hint=True) == ""
    assert (
        said("update the translation, then run printshop i18n sync", hint=True)
        == "update the translation"
    )
    assert said("printshop reads at most 100 million") == "printshop reads at most 100 million"
    assert said("--data") == "--data"
    assert (
        said("a plain message, with commas; and more") == "a plain message, with commas; and more"
    )
    assert (
        said(f"{tmp_path}/elsewhere/x.yaml") == f"{tmp_path}/elsewhere/x.yaml"
    )  # not the project's


def test_an_error_in_one_languages_texts_leaves_the_other_languages_faces_current(tmp_path):
    """While French texts cannot be read, nothing is laid out: the English faces, which do not read
    them, stay on the page as they are, current; the French ones are greyed. A save of an English
    file meanwhile greys the English faces too (they are not drawn from it yet); once the French
    file is mended every face is current. Each face's state says the names it prints and the size
    of its image."""

    preview, data, templates = _comrade_preview(tmp_path)

    def stale() -> dict:
        greyed: dict = {"en": 0, "fr": 0}
        for game in preview.state["games"]:
            for row in game["rows"]:
                for lang, face in row["faces"].items():
                    greyed[lang] += face["stale"]
        return greyed

    preview.refresh(pages=False)
    [game] = preview.state["games"]
    [row] = [row for row in game["rows"] if row["key"] == "cards/informer/front"]
    assert row["faces"]["en"]["names"] == ["Informer"]
    assert row["faces"]["fr"]["names"] and row["faces"]["fr"]["names"] != ["Informer"]
    assert (row["faces"]["en"]["width"], row["faces"]["en"]["height"]) == (301, 409)
    image = preview.image(row["faces"]["en"]["token"])  # the size the image has once drawn
    assert image is not None
    assert (int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")) == (301, 409)
    french, english = data / "comrade" / "text" / "fr.yaml", data / "comrade" / "text" / "en.yaml"
    original = french.read_text(encoding="utf-8")
    faces = len(game["rows"])
    french.write_text(original + "\nbroken: [\n", encoding="utf-8")
    preview.refresh({french}, pages=False)
    assert not preview.state["ok"] and not preview.state["readable"]
    assert stale() == {"en": 0, "fr": faces}
    preview.refresh({french}, pages=False)  # saved again, still broken: read as a whole
    assert stale() == {"en": 0, "fr": faces}
    english.write_text(english.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    preview.refresh({english}, pages=False)
    assert stale() == {"en": faces, "fr": faces}
    french.write_text(original, encoding="utf-8")
    preview.refresh({french}, pages=False)
    assert preview.state["ok"] and stale() == {"en": 0, "fr": 0}
    # every image, the rules pages' too, has the size the state gave it
    preview.refresh()
    shown = [
        face
        for game in preview.state["games"]
        for row in game["rows"]
        for face in row["faces"].values()
    ]
    assert len(shown) > 2 * faces  # (the rules pages)
    for face in shown:
        image = preview.image(face["token"])
        assert image is not None
        size = (int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big"))
        assert size == (face["width"], face["height"]), face
