"""Issue 50, item 7: a tuck box per deck (`tuck_box:` on a deck in game.yaml). Its net, computed
with numbers (layout/tuck_box.py); a project made with `printshop init` and `printshop new` whose
deck asks for one validates and builds a tuck box PDF per paper, the paper's size, with the deck's
name in the kit's language, dashed folds, its back face, and no ink in the band printers cannot
print; and bad `tuck_box` input is said at its line with a hint."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from printshop.cli import main
from printshop.diagnostics import Report, StageFailed
from printshop.layout.tuck_box import net_overflow, tuck_box_net
from printshop.pipeline.build import check
from printshop.project.loader import load_project
from tests.test_generated_decks import DECK, make_game

MM = 72 / 25.4
BOX = "    tuck_box: {stock: 0.3mm, title: deck.market}\n"
NAMES = {"en": "Fish Market", "fr": "Marché aux poissons"}


def _near(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def test_the_net_is_sized_from_the_card_the_count_the_play_and_the_board():
    # 54 poker cards (63 × 88 mm) of 0.3 mm stock, 1 mm play a side, 0.35 mm board, 15 mm tuck
    # flaps, an 8 mm glue flap, a 20 mm thumb notch
    net = tuck_box_net(63 * MM, 88 * MM, 54, 0.3 * MM, 1 * MM, 0.35 * MM, 15 * MM, 8 * MM, 20 * MM)
    assert _near(net.wall_width, 65.35 * MM) and _near(net.wall_height, 90.35 * MM)
    assert _near(net.depth, 18.55 * MM)  # 54 × 0.3 + 2 × 1 + 0.35
    assert _near(net.width, (2 * 65.35 + 2 * 18.55 + 8) * MM)  # back, side, front, side, glue
    assert _near(net.height, (90.35 + 2 * (18.55 + 15)) * MM)  # bottom and lid, with their tucks
    assert _near(net.dust, 18.55 * MM) and _near(net.tuck, 15 * MM) and _near(net.glue, 8 * MM)
    back, front, lid = net.panel("back"), net.panel("front"), net.panel("lid")
    assert back.x == 0 and _near(front.x, (65.35 + 18.55) * MM)
    assert _near(lid.y, back.y + back.height) and _near(lid.height, net.depth)
    assert _near(net.panel("bottom").x, front.x) and net.panel("bottom-tuck").y == 0
    assert _near(net.panel("glue").x + net.panel("glue").width, net.width)
    # the cut lines close round the net; every line stays on it
    assert net.cuts[0][:2] == net.cuts[-1][2:]
    assert all(a[2:] == b[:2] for a, b in zip(net.cuts, net.cuts[1:], strict=False))
    for x1, y1, x2, y2 in net.cuts + net.folds:
        assert 0 <= min(x1, x2) and max(x1, x2) <= net.width + 1e-9
        assert 0 <= min(y1, y2) and max(y1, y2) <= net.height + 1e-9
    assert len(net.folds) == 12
    # the thumb notch: a half circle of 10 mm radius cut into the front's top, at its middle
    top = front.y + front.height
    inside = [
        (x, y)
        for x, y in net.outline()
        if front.x < x < front.x + front.width and front.y < y < top
    ]
    assert inside, "no notch in the front's top"
    middle = front.x + front.width / 2
    assert _near(min(y for _, y in inside), top - 10 * MM)
    assert all(_near(math.hypot(x - middle, y - top), 10 * MM) for x, y in inside)
    assert _near(net.notch, 10 * MM)
    # no notch asked: the front's top is one straight cut
    plain = tuck_box_net(63 * MM, 88 * MM, 54, 0.3 * MM, 1 * MM, 0.35 * MM, 15 * MM, 8 * MM, 0)
    assert len(plain.cuts) == len(net.cuts) - 33 and plain.notch == 0


def test_a_deep_box_keeps_its_dust_flaps_to_half_a_wall_and_turns_to_fit():
    net = tuck_box_net(63 * MM, 88 * MM, 200, 0.5 * MM, 1 * MM, 0.35 * MM, 15 * MM, 8 * MM)
    assert _near(net.depth, 102.35 * MM) and _near(net.dust, 65.35 / 2 * MM)  # half a wall
    # 2 × 65.35 + 2 × 18.55 + 8 = 175.8 mm wide: upright on A4 (200 mm between 5 mm margins)
    small = tuck_box_net(63 * MM, 88 * MM, 54, 0.3 * MM, 1 * MM, 0.35 * MM, 15 * MM, 8 * MM)
    assert net_overflow(small, 210 * MM, 297 * MM, (5 * MM, 5 * MM, 10 * MM)) == (False, 0, 0)
    # 2 × 90.35 + 2 × 12.35 + 8 = 213.4 mm wide: too wide upright, it fits across
    tarot = tuck_box_net(88 * MM, 120 * MM, 10, 1 * MM, 1 * MM, 0.35 * MM, 15 * MM, 8 * MM)
    across, wide, high = net_overflow(tarot, 210 * MM, 297 * MM, (5 * MM, 5 * MM, 10 * MM))
    assert across and (wide, high) == (0, 0)
    # the wrap's bleed counts: 175.8 + 2 × 13 mm is 1.8 mm too wide upright; it turns across
    assert net_overflow(small, 210 * MM, 297 * MM, (5 * MM, 5 * MM, 10 * MM), 13 * MM) == (
        True,
        0,
        0,
    )


def _game(root: Path, box: str = BOX) -> Path:
    data = make_game(root, DECK.replace("    back: back\n", "    back: back\n" + box, 1))
    for lang, name in NAMES.items():
        path = data / "market" / "text" / f"{lang}.yaml"
        path.write_text(
            path.read_text(encoding="utf-8") + f'deck:\n  market: "{name}"\n', encoding="utf-8"
        )
    return data


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tuckbox") / "games"
    _game(root)
    cwd = Path.cwd()
    try:
        os.chdir(root)
        assert main(["i18n", "sync", "fr", "market"]) == 0
        assert main(["validate", "--strict"]) == 0
        assert main(["build", "--quiet", "--jobs", "1"]) == 0
    finally:
        os.chdir(cwd)
    return root / "output" / "market"


@pytest.mark.parametrize(
    "lang,paper,size", [("en", "a4", (210, 297)), ("fr", "letter", (215.9, 279.4))]
)
def test_the_build_writes_a_tuck_box_per_paper_with_the_decks_name(built, lang, paper, size):
    path = built / lang / f"market-{lang}-market-tuckbox-{paper}.pdf"
    reader = PdfReader(path)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    box = page.mediabox
    assert sorted((round(float(box.width) / MM, 1), round(float(box.height) / MM, 1))) == sorted(
        size
    )
    text = page.extract_text()
    # on the front, the lid, both spines and the back's band; the game's title beside it on the
    # spines and the back, above it on the front
    assert text.count(NAMES[lang]) == 5, text
    assert text.count(f"Market · {NAMES[lang]}") == 3, text
    contents = page.get_contents().get_data().decode("latin-1")
    assert "[4 3] 0 d" in contents  # the fold lines, dashed


def test_the_net_is_inside_the_margins_and_the_back_is_drawn(built):
    path = built / "en" / "market-en-market-tuckbox-a4.pdf"
    page = pdfium.PdfDocument(str(path))[0]
    scale = 2  # 144 dpi
    image = page.render(scale=scale).to_pil().convert("L")
    width, height = image.size
    band = round(5 * MM * scale)
    pixels = image.load()
    inked = [
        (x, y)
        for y in range(height)
        for x in range(width)
        if (x < band or y < band or x >= width - band or y >= height - band) and pixels[x, y] < 250
    ]
    assert not inked, inked[:5]
    dark = sum(image.histogram()[:128])
    # the back face (a dark background, 63 × 88 mm) fills much of its panel
    assert dark > 0.5 * (63 * MM * scale) * (88 * MM * scale)


def _errors(root: Path, box: str) -> list:
    data = _game(root, box)
    report = Report()
    try:
        load_project(data, report=report)
    except StageFailed as failed:
        return list(failed.report.errors)
    if report.errors:
        return list(report.errors)
    report, _ = check(data, games=["market"])
    return list(report.errors)


BAD = {
    # name: (the tuck_box line, its code, words in the message)
    "unknown stock": (
        "    tuck_box: {stock: cardboard}\n",
        "wrong-type",
        ["tuck_box.stock", "not a length"],
    ),
    "negative thickness": (
        "    tuck_box: {stock: -0.3mm}\n",
        "wrong-type",
        ["tuck_box.stock", "more than 0"],
    ),
    "too large for A4 and Letter": (
        "    tuck_box: {stock: 2mm}\n",
        "paper-too-small",
        ["tuck box", "does not fit on", "mm too wide"],
    ),
    "a wrap colour not in the palette": (
        "    tuck_box: {colour: crimson}\n",
        "unknown-reference",
        ["no colour 'crimson'"],
    ),
    "a text colour not in the palette": (
        "    tuck_box: {text_colour: gold}\n",
        "unknown-reference",
        ["no colour 'gold'"],
    ),
    "a negative play": (
        "    tuck_box: {play: -1mm}\n",
        "wrong-type",
        ["tuck_box.play"],
    ),
    "title without a text": (
        "    tuck_box: {title: deck.nowhere}\n",
        "missing-text",
        ["deck.nowhere"],
    ),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_tuck_box_is_said_at_its_line(tmp_path, case):
    box, code, words = BAD[case]
    errors = _errors(tmp_path / "games", box)
    assert errors, case
    line = DECK.split("\n").index("    back: back") + 2  # the line after `back`
    for error in errors:
        assert error.location.path.endswith("market/game.yaml"), error.format()
        assert error.location.line == line, error.format()
        assert error.hint, error.format()
        assert error.code == code, error.format()
        for word in words:
            assert word in error.message, error.format()
    if case == "too large for A4 and Letter":
        # 45 cards × 2 mm: one error per paper, each saying which and by how much
        messages = " ".join(error.message for error in errors)
        assert "A4" in messages and "US Letter" in messages and len(errors) == 2


@pytest.mark.parametrize(
    "box",
    [
        "    tuck_box: {}\n",  # every default: 0.3 mm stock, the game's title
        "    tuck_box: {stock: 0.5mm, play: 2mm, board: 0.5mm, tuck_flap: 12mm, glue_flap: 10mm,"
        " thumb_notch: 0mm, colour: accent, text_colour: paper, bleed: 3mm}\n",
    ],
)
def test_a_good_tuck_box_passes(tmp_path, box):
    assert _errors(tmp_path / "games", box) == []


# --- the Kremlin politicians' box, measured on the PDFs the kit holds
# --------------------------------------------------------------------------------
def net_lines(path: Path) -> tuple[list[tuple[float, float]], list[tuple[float, ...]]]:
    """The tuck box page's cut outline (the longest closed, solid stroked path: its points) and its
    fold lines (the dashed segments), in the page's points, read from the PDF's content."""
    from pypdf.generic import ContentStream

    reader = PdfReader(path)
    page = reader.pages[0]
    operations = ContentStream(page.get_contents(), reader).operations
    ctm, stack, dashed = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], [], False
    points: list[tuple[float, float]] = []
    outlines, folds = [], []

    def at(x, y):
        a, b, c, d, e, f = ctm
        return (a * float(x) + c * float(y) + e, b * float(x) + d * float(y) + f)

    for operands, operator in operations:
        op = operator.decode()
        if op == "q":
            stack.append((list(ctm), dashed))
        elif op == "Q":
            ctm, dashed = stack.pop()
        elif op == "cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            m = ctm
            ctm = [
                a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2],
                c * m[1] + d * m[3], e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5],
            ]  # fmt: skip
        elif op == "d":
            dashed = bool(operands[0])
        elif op == "m":
            points = [at(*operands)]
        elif op == "l":
            points.append(at(*operands))
        elif op in ("S", "s") and points:
            if dashed and len(points) == 2:
                folds.append((*points[0], *points[1]))
            elif not dashed:
                outlines.append(points)
            points = []
        elif op in ("f", "f*", "n", "B", "b", "re"):
            points = []
    return max(outlines, key=len), folds


def closing_problems(
    outline: list[tuple[float, float]],
    folds: list[tuple[float, ...]],
    wall: float,
    depth: float,
    dust: float,
    tuck: float,
) -> list[str]:
    """What keeps the net from folding into a closed box with both ends closable: each end needs a
    closure panel as wide as a wall and as deep as the box (two folds `depth` apart) with a tuck
    flap past it, and a dust flap on each side panel reaching `dust` past the walls. Empty: a box
    that closes."""
    near = 0.05 * MM
    xs = sorted({round(f[0], 2) for f in folds if abs(f[0] - f[2]) < near})  # upright folds
    if len(xs) != 4:
        return [f"{len(xs)} upright folds, not the walls' 4 corners and the glue flap's"]
    x1, x2, x3, x4 = xs
    left = min(x for x, _ in outline)
    problems = []
    if abs(x1 - left - wall) > near or abs(x3 - x2 - wall) > near:
        problems.append("a wall is not a card and its play wide")
    if abs(x2 - x1 - depth) > near or abs(x4 - x3 - depth) > near:
        problems.append("a side is not as deep as the deck")
    walls = [f for f in folds if abs(f[0] - f[2]) < near]
    bottom, top = min(min(f[1], f[3]) for f in walls), max(max(f[1], f[3]) for f in walls)
    level = [f for f in folds if abs(f[1] - f[3]) < near]

    def across(y, a, b) -> bool:  # a fold at height y across a panel from a to b
        return any(
            abs(f[1] - y) < near and min(f[0], f[2]) <= a + near and max(f[0], f[2]) >= b - near
            for f in level
        )

    def reaches(y, a, b) -> bool:  # the outline goes as far as y over the panel from a to b
        return any(a - near <= x <= b + near and abs(py - y) < near for x, py in outline)

    for end, edge, out in (("top", top, 1), ("bottom", bottom, -1)):
        closures = [
            (a, b)
            for a, b in ((left, x1), (x2, x3))
            if across(edge, a, b) and across(edge + out * depth, a, b)
        ]
        if len(closures) != 1:
            problems.append(f"the {end} has {len(closures)} closure panels with their tuck folds")
        elif not reaches(edge + out * (depth + tuck), *closures[0]):
            problems.append(f"the {end}'s closure panel has no tuck flap")
        for side, (a, b) in (("left", (x1, x2)), ("right", (x3, x4))):
            if not across(edge, a, b) or not reaches(edge + out * dust, a, b):
                problems.append(f"no {side} dust flap at the {end}")
    return problems


@pytest.fixture(scope="module")
def kremlin_kit(tmp_path_factory):
    from tests.conftest import kit_view

    return kit_view(tmp_path_factory, ["kremlin"])


def _politicians_box():
    from printshop.checks.tuck_boxes import deck_net
    from printshop.project.paths import DEFAULT_DATA_DIR

    project = load_project(DEFAULT_DATA_DIR, games=["kremlin"])
    deck = project.games["kremlin"].game.decks["politicians"]
    return deck_net(project, deck), deck


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_kremlin_politicians_box_closes_at_both_ends(kremlin_kit, lang, paper):
    """The art director read the box as having dust flaps at the top only. Measured on the PDF: both
    ends have a closure panel as wide as a wall and as deep as the deck (the lid above the back, the
    bottom below the front), its tuck flap past it, and a dust flap on each side; the walls are a
    card and its play (63 mm + 2 x 1 mm + the board), the sides as deep as its 26 cards of 0.3 mm
    (7.8 mm) and the play; the back's face and the deck's name are on it."""
    net, deck = _politicians_box()
    cards = sum(card.count for card in deck.cards)
    box = deck.tuck_box
    assert cards == 26 and net.depth >= cards * box.stock + 2 * box.play
    assert abs(net.wall_width - (63 * MM + 2 * box.play + box.board)) < 1e-6
    path = kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-politicians-tuckbox-{paper}.pdf"
    outline, folds = net_lines(path)
    assert closing_problems(outline, folds, net.wall_width, net.depth, net.dust, net.tuck) == []
    assert len(folds) == len(net.folds)
    text = PdfReader(path).pages[0].extract_text()
    assert text.count({"en": "Politicians", "fr": "Politiciens"}[lang]) >= 5  # walls, lid, back


def test_the_closing_check_catches_a_box_open_at_the_bottom():
    """Must-catch: the same net with its bottom dust flaps cut away (the outline straight along the
    sides' bottom), or without its bottom closure, does not close."""
    net, _ = _politicians_box()
    x1, x2 = net.panel("side-left").x, net.panel("front").x
    y2 = net.panel("back").y
    outline = [
        (x, y2 if y < y2 and (x1 <= x <= x2 or x >= net.panel("side-right").x) else y)
        for x, y in net.outline()
    ]
    sizes = (net.wall_width, net.depth, net.dust, net.tuck)
    assert closing_problems(net.outline(), list(net.folds), *sizes) == []  # (must-pass)
    problems = closing_problems(outline, list(net.folds), *sizes)
    assert "no left dust flap at the bottom" in problems
    assert "no right dust flap at the bottom" in problems
    no_bottom = [f for f in net.folds if not (f[1] == f[3] == net.panel("bottom").y)]
    assert "the bottom has 0 closure panels with their tuck folds" in closing_problems(
        net.outline(), no_bottom, *sizes
    )


# --- review 2: the art on the front, what it holds on the back, the glue flap named, a uniform bleed
SCALE = 150 / 72  # 150 dpi
REACH = 2.5 * MM  # the wrap reaches this far past every cut edge (its bleed: 3 mm)
CONTENTS = {"en": "26 cards · 3–6 players", "fr": "26 cartes · 3 à 6 joueurs"}
GLUE = {"en": "glue", "fr": "colle"}


def _page(path: Path):
    """The page at 150 dpi (RGB) and the net's origin on it (the cut outline's lower-left), in
    points."""
    outline, _ = net_lines(path)
    image = pdfium.PdfDocument(str(path))[0].render(scale=SCALE).to_pil().convert("RGB")
    return image, outline, (min(x for x, _ in outline), min(y for _, y in outline))


def _red_share(image, origin, panel) -> float:
    """The share of the panel's pixels in the emblem's red (the back face's disc and frame)."""
    height = image.height
    left, top = (origin[0] + panel.x) * SCALE, height - (origin[1] + panel.y + panel.height) * SCALE
    crop = image.crop((round(left), round(top), round(left + panel.width * SCALE),
                       round(top + panel.height * SCALE)))  # fmt: skip
    r, g, b = np.asarray(crop, dtype=int).transpose(2, 0, 1)
    return float(((r > 140) & (g < 90) & (b < 90)).mean())


def bleed_gaps(path: Path, reach: float = REACH) -> list[tuple[float, float]]:
    """Points `reach` outside the cut outline, beside each of its edges (a fifth to four fifths of
    the way along it), that print paper white: where the wrap stops short of its bleed."""
    image, outline, _ = _page(path)
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(outline, outline[1:]))
    turn = 1 if area > 0 else -1  # counter-clockwise: the outside is on the right
    pixels, gaps = image.load(), []
    for (x1, y1), (x2, y2) in zip(outline, outline[1:]):
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 0.5 * MM:
            continue
        nx, ny = turn * (y2 - y1) / length, -turn * (x2 - x1) / length
        for step in range(1, 5):
            t = step / 5
            x, y = x1 + t * (x2 - x1) + nx * reach, y1 + t * (y2 - y1) + ny * reach
            if min(pixels[round(x * SCALE), round(image.height - y * SCALE)]) > 245:
                gaps.append((round(x / MM, 1), round(y / MM, 1)))
    return gaps


def box_problems(path: Path, lang: str) -> list[str]:
    """What review 2 found on the box: the art not on the front (the thumb-notch panel), the back
    without what the box holds, the glue flap unnamed, the wrap short of its bleed somewhere."""
    net, _ = _politicians_box()
    image, _, origin = _page(path)
    problems = []
    front, back = (_red_share(image, origin, net.panel(name)) for name in ("front", "back"))
    if not (front > 0.03 and back < 0.01):  # the disc and frame take 8 % of the front
        problems.append(f"the art is not on the front (red: front {front:.2f}, back {back:.2f})")
    page = PdfReader(path).pages[0]
    text = " ".join(page.extract_text().replace("\u202f", " ").replace("\u00a0", " ").split())
    if CONTENTS[lang] not in text:
        problems.append("no contents line")
    glue = net.panel("glue")
    words: list[tuple[float, float]] = []

    def visit(text, cm, tm, font, size):  # where each text run starts, on the page
        if text.strip() == GLUE[lang]:
            words.append((cm[4] + tm[4], cm[5] + tm[5]))

    page.extract_text(visitor_text=visit)
    x0, y0 = origin[0] + glue.x, origin[1] + glue.y
    if not any(x0 <= x <= x0 + glue.width + 1 and y0 <= y <= y0 + glue.height for x, y in words):
        problems.append("the glue flap is not named")
    if gaps := bleed_gaps(path):
        problems.append(f"the wrap stops short of its bleed at {gaps[:4]} (mm)")
    return problems


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_kremlin_box_has_its_art_on_the_front_and_a_uniform_bleed(kremlin_kit, lang, paper):
    """Review 2 (3.5): the emblem was on the back (the lid's hinge) and the front had plain type;
    the glue flap had no word; the wrap stopped short of the glue flap. Now the front carries the
    back face, the back says what the box holds (from the game's data), the flap says "glue" /
    "colle", and the wrap reaches 2.5 mm past every cut edge."""
    path = kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-politicians-tuckbox-{paper}.pdf"
    assert box_problems(path, lang) == []


def test_the_box_guards_catch_the_box_review_2_saw(tmp_path, monkeypatch):
    """Must-catch: the box as review 2 saw it (front and back dressed the other way round, no word
    on the glue flap, the wrap leaving out the glue flap) fails every guard."""
    from printshop.layout.tuck_box import TuckBoxNet
    from printshop.pipeline.build import build
    from printshop.render import tuck_box

    panel = TuckBoxNet.panel
    swap = {"front": "back", "back": "front"}
    wrap = TuckBoxNet.wrap
    monkeypatch.setattr(TuckBoxNet, "panel", lambda net, name: panel(net, swap.get(name, name)))
    monkeypatch.setattr(
        TuckBoxNet,
        "wrap",
        lambda net, bleed: [r for r, p in zip(wrap(net, bleed), net.panels) if p.name != "glue"],
    )
    monkeypatch.setattr(tuck_box, "_glue", lambda *args: None)
    monkeypatch.setattr(tuck_box, "contents_line", lambda *args: "")
    from printshop.project.paths import DEFAULT_DATA_DIR

    result = build(DEFAULT_DATA_DIR, tmp_path, games=["kremlin"], langs=["fr"], papers=["a4"],
                   jobs=1, force=True)  # fmt: skip
    assert not result.report.has_errors
    monkeypatch.undo()  # measured on the true net
    problems = box_problems(
        tmp_path / "kremlin" / "fr" / "kremlin-fr-politicians-tuckbox-a4.pdf", "fr"
    )
    assert [p.split(" (")[0].split(" at ")[0] for p in problems] == [
        "the art is not on the front",
        "no contents line",
        "the glue flap is not named",
        "the wrap stops short of its bleed",
    ], problems
