"""The `printshop serve` page as a designer and a translator use it, in headless Chromium (driven as
tests/test_serve.py drives it; skipped without Chromium): the face looked at keeps its place on the
screen across saves that change many faces, a colour or a label; the first click on a new error
shows its first face; an error in one language's file greys that language alone; every language's
column can be reached however many there are; the search finds the names printed on cards; the
diagnostics are reached and used with the keyboard, read at 4.5:1 contrast at least, and changes
are announced to screen readers; messages name files from the project's folder, with no hint of
the command line.
"""

# ruff: noqa: F811 - the fixtures imported below are the tests' arguments

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from printshop.live.session import Session
from tests.conftest import REPO, edit

# the worker's Chromium and a tab of it, as test_serve.py's tests have them (the tests' `browser`
# arguments are these fixtures)
from tests.test_serve import CHROMIUM, browser, chromium  # noqa: F401

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")

WIDTH, HEIGHT = 1500, 900  # the window the designer measured in


def _project(tmp_path: Path) -> tuple[Path, Path]:
    data, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(REPO / "data", data)
    shutil.copytree(REPO / "templates", templates)
    return data, templates


class Page:
    """A served project open in a tab of a `WIDTH` × `HEIGHT` window."""

    def __init__(self, browser, data: Path, templates: Path, games: list[str], langs: list[str]):
        from printshop.live.serve import Server

        self.browser = browser
        session = Session(
            data, None, games=games, langs=langs, render=False, templates_dir=templates
        )
        self.server = Server(session, port=0).start()
        browser.call("Page.enable")
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            width=WIDTH,
            height=HEIGHT,
            deviceScaleFactor=1,
            mobile=False,
        )
        browser.call("Page.navigate", url=self.server.url)
        self.settled()

    def evaluate(self, expression: str):
        return self.browser.evaluate(expression)

    def wait_for(self, expression: str, what: str):
        return self.browser.wait_for(expression, what)

    def version(self) -> int:
        return int(self.evaluate("+document.getElementById('status').dataset.version || 0"))

    def settled(self, after: int = 0) -> None:
        """Until the page shows a state after version `after`, the rules pages set, and every image
        in sight loaded."""
        self.wait_for(
            f"(() => {{ const status = document.getElementById('status');"
            f" if (!status || +(status.dataset.version || 0) <= {after}) return false;"
            " if (document.querySelector('td.face.pending')) return false;"
            " const pane = document.getElementById('main').getBoundingClientRect();"
            " return Array.from(document.querySelectorAll('td.face img')).every(img => {"
            "  const box = img.getBoundingClientRect();"
            "  return box.bottom < pane.top || box.top > pane.bottom || (img.complete && img.naturalWidth > 0);"
            " }); })()",
            "the page settled",
        )

    def key(self, name: str, code: str, text: str = "") -> None:
        """A key pressed and let go, as the keyboard sends it."""
        codes = {"Tab": 9, "Enter": 13}
        for kind in ("keyDown", "keyUp"):
            self.browser.call(
                "Input.dispatchKeyEvent",
                type=kind,
                key=name,
                code=code,
                windowsVirtualKeyCode=codes[name],
                **({"text": text} if text and kind == "keyDown" else {}),
            )

    def close(self) -> None:
        self.server.close()


CELL = 'document.querySelector(\'td.face[data-key="{key}"][data-lang="{lang}"]\')'


def test_the_face_looked_at_keeps_its_place_across_saves_of_many_faces_a_colour_and_a_label(
    tmp_path, browser
):
    """Measured by the designer: after a save of faces.yaml changing many faces the card looked at
    was 11,150 px away, after a colour used by 52 faces 6,022 px, after a label 276 px, and it did
    not come back. Now, ten saves of each kind: the card stays within 3 px of where it was, at every
    frame the page draws (sampled on each animation frame) and once each save is shown."""
    data, templates = _project(tmp_path)
    page = Page(browser, data, templates, ["kremlin"], ["en"])
    try:
        cell = CELL.format(key="intrigue/i09/front", lang="en")
        page.evaluate(f"{cell}.scrollIntoView({{block: 'center'}})")
        page.settled()
        page.evaluate(
            f"window.looked = {cell}; window.start = looked.getBoundingClientRect().top;"
            " window.worst = 0; window.frames = 0;"
            " (function sample() { const top = window.looked.getBoundingClientRect().top;"
            "  window.worst = Math.max(window.worst, Math.abs(top - window.start)); window.frames++;"
            "  requestAnimationFrame(sample); })();"
        )
        start = page.evaluate("window.start")
        assert 200 < start < HEIGHT - 200  # in the middle of the window, far from either end
        faces = data / "kremlin" / "faces.yaml"
        colours = data / "print" / "colours.yaml"
        texts = data / "kremlin" / "text" / "en.yaml"
        kinds = [
            # the rule of every intrigue card (36 cards) moved by a tenth of a millimetre, and back
            (faces, "stroke: grey, stroke_width: 0.3mm", "stroke: grey, stroke_width: 0.4mm"),
            # the party's red, which 71 of Kremlin's faces use
            (colours, 'red: "#b22a1e"', 'red: "#b22a1f"'),
            # a label every intrigue card prints
            (texts, 'when: "When to play"', 'when: "When to Play"'),
        ]
        image = f"{cell}.querySelector('img').getAttribute('src')"
        for path, one, other in kinds:
            for save in range(10):
                before, src = page.version(), page.evaluate(image)
                old, new = (one, other) if save % 2 == 0 else (other, one)
                edit(path, old, new)
                page.wait_for(
                    f"{image} !== {json.dumps(src)}", f"the card drawn again ({path.name})"
                )
                page.settled(before)
                top = page.evaluate(f"{cell}.getBoundingClientRect().top")
                assert abs(top - start) <= 3, (path.name, save, top, start)
        assert page.evaluate("window.frames") > 30  # (the page was sampled as it drew)
        assert page.evaluate("window.worst") <= 3
        assert page.evaluate(f"{cell} === window.looked")  # the same element: updated in place
    finally:
        page.close()


# the faces the overflow error leads to, in order, as the server lists them
FACES_OF_OVERFLOW = (
    "fetch('/state').then(r => r.json()).then(state => state.diagnostics"
    ".find(d => d.code === 'text-overflow').faces)"
)


def test_the_first_click_on_a_new_error_shows_its_first_face(tmp_path, browser):
    """Clicks on an error cycle through its faces; an error listed later in the same place (the
    same number) started where the click before had left off, at its second face."""
    data, templates = _project(tmp_path)
    texts = data / "comrade" / "text" / "en.yaml"
    page = Page(browser, data, templates, ["comrade"], ["en"])
    overflow = (
        "document.querySelector('.diagnostic.error[data-code=\"text-overflow\"][data-faces]')"
    )
    try:
        original = texts.read_text(encoding="utf-8")
        edit(texts, 'name: "Informer"', 'name: "' + "Informer " * 30 + '"')
        page.wait_for(f"{overflow} !== null", "the overflow of the informer's name")
        [informer] = page.evaluate(FACES_OF_OVERFLOW)
        page.evaluate(f"{overflow}.click()")
        assert page.evaluate("document.querySelector('td.face.focus').id") == f"face-{informer}"
        # mended; then the dissident's name too long, on two cards: a new error, listed in the
        # same place
        texts.write_text(original, encoding="utf-8")
        page.wait_for(f"{overflow} === null", "the overflow mended")
        edit(texts, 'name: "Dissident"', 'name: "' + "Dissident " * 30 + '"')
        page.wait_for(f"{overflow} !== null", "the overflow of the dissident's name")
        faces = page.evaluate(FACES_OF_OVERFLOW)
        assert len(faces) == 2
        page.evaluate(f"{overflow}.click()")
        assert page.evaluate("document.querySelector('td.face.focus').id") == f"face-{faces[0]}"
        page.evaluate(f"{overflow}.click()")  # and the next click, its second
        assert page.evaluate("document.querySelector('td.face.focus').id") == f"face-{faces[1]}"
    finally:
        page.close()


def test_a_yaml_error_in_one_languages_texts_greys_that_language_alone(tmp_path, browser):
    """A syntax error in text/fr.yaml greyed the English column too: the English faces do not read
    that file and are current."""
    data, templates = _project(tmp_path)
    french = data / "comrade" / "text" / "fr.yaml"
    page = Page(browser, data, templates, ["comrade"], ["en", "fr"])
    stale = "Array.from(document.querySelectorAll('td.face.stale')).map(td => td.dataset.lang)"
    try:
        original = french.read_text(encoding="utf-8")
        before = page.version()
        french.write_text(original + "\nbroken: [\n", encoding="utf-8")
        page.wait_for(
            "document.querySelector('.diagnostic.error[data-code=\"yaml-syntax\"]') !== null",
            "the syntax error",
        )
        page.settled(before)
        greyed = page.evaluate(stale)
        assert greyed and set(greyed) == {"fr"}, greyed
        cells = "document.querySelectorAll('td.face[data-lang=\"fr\"]').length"
        assert len(greyed) == page.evaluate(cells)
        assert page.evaluate(
            "Array.from(document.querySelectorAll('td.face[data-lang=\"en\"]'))"
            ".every(td => !td.querySelector('.stale-note') && getComputedStyle(td.querySelector('img')).opacity === '1')"
        )
        french.write_text(original, encoding="utf-8")
        page.wait_for(f"{stale}.length === 0", "the French faces current again")
    finally:
        page.close()


def _languages(data: Path, codes: list[str]) -> None:
    """More languages for Comrade: its French texts under other codes (their own words do not
    matter here: the page's columns do)."""
    french = (REPO / "printshop" / "defaults" / "languages" / "fr.yaml").read_text(encoding="utf-8")
    (data / "languages").mkdir(exist_ok=True)
    for code in codes:
        (data / "languages" / f"{code}.yaml").write_text(
            french.replace("name: French", f"name: Language {code}"), encoding="utf-8"
        )
        for suffix in (".yaml", ".sources.yaml"):
            shutil.copy(
                data / "comrade" / "text" / f"fr{suffix}",
                data / "comrade" / "text" / f"{code}{suffix}",
            )


@pytest.mark.parametrize("langs", [["en", "fr", "de"], ["en", "fr", "de", "es", "it"]])
def test_every_languages_column_can_be_reached_in_a_1500_px_window(tmp_path, browser, langs):
    """With three languages in a 1,500 px window the third column was cut off: the faces' pane now
    scrolls sideways within the window, the diagnostics beside it stay in sight, and each column
    scrolled to is whole in the pane."""
    data, templates = _project(tmp_path)
    _languages(data, [lang for lang in langs if lang not in ("en", "fr")])
    page = Page(browser, data, templates, ["comrade"], langs)
    try:
        heads = page.evaluate(
            "Array.from(document.querySelectorAll('table.game th[data-lang]')).map(th => th.dataset.lang)"
        )
        assert sorted(heads) == sorted(langs)
        # the page itself never runs past the window: the side panel is whole, in sight
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
        side = page.evaluate(
            "JSON.parse(JSON.stringify(document.getElementById('side').getBoundingClientRect()))"
        )
        assert side["right"] <= WIDTH + 0.5 and side["left"] >= 0 and side["width"] > 200
        pane = "document.getElementById('main')"
        if len(langs) <= 3:  # the faces made smaller to fit, down to 180 px wide
            assert page.evaluate(f"{pane}.scrollWidth <= {pane}.clientWidth")
            widths = page.evaluate(
                "Array.from(document.querySelectorAll('td.face img')).map(img => img.width)"
            )
            assert widths and min(widths) >= 180
        for lang in langs:
            cell = CELL.format(key="cards/informer/front", lang=lang)
            box = page.evaluate(
                f"(() => {{ const td = {cell}; td.scrollIntoView({{block: 'center', inline: 'nearest'}});"
                " const pane = document.getElementById('main');"
                " const r = td.getBoundingClientRect(), p = pane.getBoundingClientRect();"
                " return {left: r.left, right: r.right, paneLeft: p.left,"
                "  paneRight: p.left + pane.clientWidth, sideLeft: document.getElementById('side')"
                ".getBoundingClientRect().left}; })()"
            )
            assert box["left"] >= box["paneLeft"] - 0.5, (lang, box)
            assert box["right"] <= box["paneRight"] + 0.5, (lang, box)
            assert box["right"] <= box["sideLeft"] + 0.5, (lang, box)
    finally:
        page.close()


def test_the_search_finds_the_names_printed_on_cards(tmp_path, browser):
    """The search box matched the faces' keys alone: a card is now found by the name it prints,
    in any language shown."""
    data, templates = _project(tmp_path)
    page = Page(browser, data, templates, ["kremlin"], ["en"])
    shown = (
        "Array.from(document.querySelectorAll('tr[data-key]'))"
        ".filter(tr => !tr.classList.contains('hidden')).map(tr => tr.dataset.key)"
    )
    try:
        page.evaluate(
            "const find = document.getElementById('find'); find.value = 'miracle drug';"
            " find.dispatchEvent(new Event('input'))"
        )
        assert page.evaluate(shown) == ["kremlin/intrigue/i21/front"]
        page.evaluate("find.value = 'sanatorium visit'; find.dispatchEvent(new Event('input'))")
        assert len(page.evaluate(shown)) == 2  # the two cards of that title
        page.evaluate("find.value = 'Purgemoff'; find.dispatchEvent(new Event('input'))")
        found = page.evaluate(shown)  # his card, and the sheet that prints every politician's name
        assert "kremlin/politicians/f/front" in found and "kremlin/politicians/a/front" not in found
        page.evaluate("find.value = 'politicians/f/'; find.dispatchEvent(new Event('input'))")
        assert "kremlin/politicians/f/front" in page.evaluate(shown)  # keys, as before
    finally:
        page.close()


def _contrast(page: Page, selector: str) -> list:
    """[text, its contrast against the colour behind it] of each element with text that
    `selector` finds, from their computed styles (the colour behind: the nearest opaque background
    of the element or an ancestor)."""
    return page.evaluate(
        "(() => { const rgb = s => s.match(/[\\d.]+/g).map(Number);"
        " const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;"
        "  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });"
        "  return 0.2126 * r + 0.7152 * g + 0.0722 * b; };"
        " const behind = node => { for (; node; node = node.parentElement) {"
        "  const c = rgb(getComputedStyle(node).backgroundColor); if (c.length < 4 || c[3] > 0) return c; }"
        "  return [255, 255, 255]; };"
        f" return Array.from(document.querySelectorAll({json.dumps(selector)}))"
        "  .filter(node => Array.from(node.childNodes).some(n => n.nodeType === 3 && n.textContent.trim()))"
        "  .map(node => { const a = lum(rgb(getComputedStyle(node).color)), b = lum(behind(node));"
        "   return [node.textContent.trim().slice(0, 40), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]; });"
        "})()"
    )


def test_the_diagnostics_are_reached_and_used_with_the_keyboard_readable_and_announced(
    tmp_path, browser
):
    """Diagnostics could not be reached with the keyboard, warnings read at 3.99:1, and nothing was
    said to a screen reader. Now: the first Tab reaches the link to the diagnostics, Enter goes to
    the first, Enter on it shows its face (and says so); every text of the side panel and of the
    faces' flags reads at 4.5:1 at least, a focused one too; a save is announced in a live region."""
    data, templates = _project(tmp_path)
    texts = data / "comrade" / "text" / "en.yaml"
    page = Page(browser, data, templates, ["comrade"], ["en", "fr"])
    live = "document.querySelector('[aria-live]')"
    try:
        assert page.evaluate(f"{live}.getAttribute('aria-live')") == "polite"
        said = page.evaluate(f"{live}.textContent")
        edit(texts, 'name: "Dissident"', 'name: "' + "Dissident " * 30 + '"')
        page.wait_for(
            "document.querySelector('.diagnostic.error[data-faces]') !== null", "the overflow"
        )
        page.wait_for(f"{live}.textContent.includes('error')", "the errors announced")
        assert page.evaluate(f"{live}.textContent") != said

        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.key("Tab", "Tab")
        assert page.evaluate("document.activeElement.id") == "to-diagnostics"
        page.key("Enter", "Enter", "\r")
        assert page.evaluate("document.activeElement.classList.contains('diagnostic')")
        assert page.evaluate("document.activeElement.dataset.code") == "text-overflow"
        page.key("Enter", "Enter", "\r")
        assert page.evaluate("document.querySelector('td.face.focus').dataset.key").startswith(
            "cards/dissident"
        )
        page.wait_for(f"{live}.textContent.startsWith('showing cards/dissident')", "the face shown")
        # Tab goes on through the diagnostics, each of them
        page.key("Tab", "Tab")
        assert page.evaluate(
            "document.activeElement.classList.contains('diagnostic') ||"
            " document.activeElement.tagName === 'SUMMARY'"
        )

        low = [
            (text, ratio)
            for selector in ("#side *", "#bar *", "td.face *", "table.game th")
            for text, ratio in _contrast(page, selector)
            if ratio < 4.5
        ]
        assert not low, low
        page.evaluate(
            "document.querySelectorAll('.diagnostic').forEach(d => d.classList.add('focus'))"
        )
        low = [
            (text, ratio) for text, ratio in _contrast(page, "#side .diagnostic *") if ratio < 4.5
        ]
        assert not low, low
        warnings = _contrast(page, "details.group.warning > summary, button.flag.warning")
        assert warnings and all(ratio >= 4.5 for _, ratio in warnings), warnings
    finally:
        page.close()


def test_messages_on_the_page_name_files_from_the_project_without_command_line_hints(
    tmp_path, browser, monkeypatch
):
    """A missing image's message named the game's folder by its absolute path and hinted at
    `--data`: the page is not the terminal. Its messages name files from the project's folder."""
    data, templates = _project(tmp_path)
    monkeypatch.chdir(REPO.parent)  # serve started elsewhere than the project's folder
    edit(
        data / "comrade" / "faces.yaml",
        "      rule: {y: 59mm}\n",
        "      rule: {y: 59mm}\n      stamp: {kind: image, "
        "src: images/stamp.png, x: 50mm, y: 70mm, width: 5mm, height: 5mm}\n",
    )
    page = Page(browser, data, templates, ["comrade"], ["en"])
    try:
        page.wait_for(
            "document.querySelector('.diagnostic[data-code=\"file-missing\"]') !== null",
            "the missing image",
        )
        said = page.evaluate(
            "Array.from(document.querySelectorAll('#side .diagnostic')).map(d => d.textContent)"
        )
        missing = [text for text in said if "stamp.png" in text]
        assert missing and "data/comrade" in missing[0], said
        for text in said:
            assert str(tmp_path) not in text and "--data" not in text, text
            assert "--" not in text.replace("\u2192", ""), text
    finally:
        page.close()
