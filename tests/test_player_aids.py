"""Player aids on the printed page (issue 51): Kremlin's player aid fills its sheet with its sections
in both languages, Comrade's turn summary has a back of its own, Assassin's caller cards say how to
read them, and every kit's how-to page names every PDF of its folder and says when the imposed A5
rules are reduced."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2
import pytest
import yaml

from printshop.pipeline.build import build
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.conftest import copy_data, edit, kit_view
from tests.pdfinspect import page_texts, words

LANGS = ("en", "fr")
PAPERS = ("a4", "letter")
KIT_PAPERS = re.compile(r"-(a4|letter)\.pdf$")


def _texts(game: str, lang: str) -> dict:
    return yaml.safe_load((DEFAULT_DATA_DIR / game / "text" / f"{lang}.yaml").read_text("utf-8"))


def _plain(text: str) -> str:
    """A text as words() reads it off the page: each run of white space (the narrow no-break
    spaces of French typography too) one space, an inline icon (drawn, not a letter) nothing."""
    return " ".join(re.sub(r"<icon\b[^<>]*/>", "", text).split())


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> Path:
    return kit_view(tmp_path_factory, ["assassin", "comrade", "comrade-stalin", "kremlin"])


# --- Kremlin's player aid ---------------------------------------------------------------------


def ink_rows(path: Path, dpi: int = 30) -> list[float]:
    """For each row of pixels of the PDF's first page, the share of its pixels that are not paper
    white: where the page carries something."""
    document = pypdfium2.PdfDocument(str(path))
    image = document[0].render(scale=dpi / 72, grayscale=True).to_pil()
    width, height = image.size
    pixels = image.load()
    return [sum(pixels[x, y] < 235 for x in range(width)) / width for y in range(height)]


def empty_bottom(path: Path) -> float:
    """The share of the page's height, above the footer's strip (its last 6 %), under the last row
    that carries anything: how much of the page's foot is left empty."""
    rows = ink_rows(path)
    body = rows[: int(len(rows) * 0.94)]
    last = max((y for y, share in enumerate(body) if share > 0.02), default=0)
    return (len(body) - 1 - last) / len(rows)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("paper", PAPERS)
def test_kremlins_player_aid_prints_its_sections_in_each_language(kits, lang, paper):
    """Every section's title, every phase's name, every stress cost and the winning conditions are
    on the sheet, in the language built."""
    text = words(kits / "kremlin" / lang / f"kremlin-{lang}-reference-{paper}.pdf").upper()
    t = _texts("kremlin", lang)
    reference = t["reference"]
    for title in ("title", "purge_title", "stress_title", "win_title"):
        assert _plain(reference[title]).upper() in text, title
    assert _plain(t["board"]["turn"]).upper() in text
    for number in range(1, 9):
        assert _plain(t["phase"][f"n{number}"]["name"]).upper() in text, number
    for row in reference["stress"].values():
        assert _plain(row["act"]).upper() in text, row
    assert re.search(r"\b1 / 3\b.*\b1 / 2\b", text)
    for level in ("level_summit", "level_first", "level_second"):
        assert _plain(t["board"][level]).upper() in text, level
    for number in ("18", "14", "10", "6", "18–20"):
        assert number in text
    # the first words of each way to win (a line may break after them)
    for way in reference["win"].values():
        assert " ".join(way.split()[:2]).upper() in text, way


def test_kremlins_player_aid_fills_its_page_and_the_measure_finds_an_empty_foot(kits):
    """The aid's boxes and the wall's battlements reach the foot of the sheet (must-pass); the same
    measure finds the empty foot of the calibration page's front, whose scale bar stands under the
    middle (must-catch; the how-to page it measured now fills its page)."""
    for lang in LANGS:
        for paper in PAPERS:
            aid = kits / "kremlin" / lang / f"kremlin-{lang}-reference-{paper}.pdf"
            assert empty_bottom(aid) < 0.08, aid.name
    assert empty_bottom(kits / "calibration" / "duplex-calibration-en-a4.pdf") > 0.15


# --- Comrade's turn summary -------------------------------------------------------------------


def _backs_text(pdf: Path) -> str:
    """The text of the pages of backs (every second page) of a card sheet file."""
    return " ".join(" ".join(text.split()) for text in page_texts(pdf)[1::2])


@pytest.mark.parametrize("lang", LANGS)
def test_the_turn_summary_and_the_chairman_card_have_backs_of_their_own(kits, lang):
    """Behind the turn summary and behind the chairman card (review 6-S: face down it read as a
    role card): its name and that it is no role card, once each; behind the role cards, the
    deck's motto, as many times as the deck has role cards (the vote cards have their own)."""
    t = _texts("comrade", lang)
    for paper in PAPERS:
        backs = _backs_text(kits / "comrade" / lang / f"comrade-{lang}-cards-{paper}.pdf")
        hint = " ".join(t["card"]["rule"]["back_hint"].split()[:3])  # (a line may break after)
        assert backs.count(hint) == 2, paper
        for card in ("rule", "chairman"):
            assert backs.upper().count(_plain(t["card"][card]["name"]).upper()) == 1, paper
        # 18 cards: 5 votes, the summary and the chairman card have backs of their own
        assert backs.count(_plain(t["back"]["motto"])) == 11, paper


def test_without_its_own_back_the_turn_summary_would_wear_the_role_cards_back(tmp_path):
    """Must-catch: the summary declared without `back:` gets the shared back, the same as a role
    card's: the hint is gone and the motto is printed once more."""
    data = copy_data(tmp_path / "data", ["comrade"])
    edit(data / "comrade" / "game.yaml", "front: rule, back: rule-back}", "front: rule}")
    result = build(data, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    backs = _backs_text(tmp_path / "out" / "comrade" / "en" / "comrade-en-cards-a4.pdf")
    t = _texts("comrade", "en")
    assert backs.count(" ".join(t["card"]["rule"]["back_hint"].split()[:3])) == 1  # chairman's
    assert backs.count(_plain(t["back"]["motto"])) == 12


# --- Assassin's aids --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_assassins_caller_cards_say_how_to_read_them_and_number_each_step(kits, lang):
    t = _texts("assassin", lang)
    text = words(kits / "assassin" / lang / f"assassin-{lang}-cards-a4.pdf")
    assert text.count(_plain(t["card"]["caller"]["hint"])) == 2
    for script in ("identify", "assassinate"):
        lines = t["card"]["caller"][script]["lines"]
        for number, line in enumerate(lines.values(), start=1):
            first = re.sub(r"<[^>]+>", "", line).split()[0]
            assert re.search(rf"\b{number} {re.escape(first)}", text), (script, number)


# --- the how-to page --------------------------------------------------------------------------


def unlisted(how_to: Path) -> list[str]:
    """The PDFs of the how-to page's kit folder that the page does not name: those of its paper
    (and low-ink or not, as it is), and those of no home paper (A5 rules, press pages)."""
    folder, name = how_to.parent, how_to.name
    paper = KIT_PAPERS.search(name)
    assert paper is not None, name
    low_ink = "-lowink-" in name
    text = words(how_to)
    missing = []
    for path in sorted(folder.glob("*.pdf")):
        if path == how_to or "-how-to-print-" in path.name:
            continue
        own_paper = KIT_PAPERS.search(path.name)
        if own_paper is not None and (
            own_paper.group(1) != paper.group(1) or ("-lowink-" in path.name) != low_ink
        ):
            continue
        if (
            own_paper is None
            and path.name.endswith("-a5.pdf")
            and ("-lowink-" in path.name) != low_ink
        ):
            continue
        if path.name not in text:
            missing.append(path.name)
    return missing


def test_every_pdf_of_a_kit_folder_is_named_on_its_how_to_page(kits, tmp_path):
    """Every game, language and paper (must-pass); a file dropped into a kit folder that the page
    does not name is found (must-catch)."""
    pages = sorted(kits.glob("*/*/*-how-to-print-*.pdf"))
    assert len(pages) == 4 * 2 * 2
    for page in pages:
        assert unlisted(page) == [], page.name
    press = [path.name for path in kits.glob("*/*/*-press.pdf")]
    assert {name.split("-")[0] for name in press} == {"kremlin", "comrade"}, press
    folder = tmp_path / "kremlin" / "en"
    folder.mkdir(parents=True)
    for path in (kits / "kremlin" / "en").glob("*.pdf"):
        shutil.copy(path, folder / path.name)
    (folder / "kremlin-en-extra-a4.pdf").write_bytes(b"")
    assert unlisted(folder / "kremlin-en-how-to-print-a4.pdf") == ["kremlin-en-extra-a4.pdf"]


def imposed_scale(pdf: Path) -> float:
    """The scale the first side of an imposed booklet draws its pages at (its `cm` operator)."""
    from pypdf import PdfReader

    content = PdfReader(pdf).pages[0].get_contents().get_data().decode("latin-1")
    match = re.search(r"q ([\d.]+) 0 0 ([\d.]+) [\d.]+ [\d.]+ cm", content)
    assert match is not None
    return float(match.group(1))


@pytest.mark.parametrize("lang", LANGS)
def test_the_how_to_page_says_by_how_much_the_imposed_rules_are_reduced(kits, lang):
    """On Letter the A5 pages are drawn smaller in the imposed booklet; the page says so, with the
    booklet file's own scale. On A4 they are at full size, and the page says nothing of it."""
    label = yaml.safe_load(
        (
            Path(__file__).resolve().parents[1]
            / "printshop"
            / "defaults"
            / "languages"
            / f"{lang}.yaml"
        ).read_text("utf-8")
    )["labels"]["howto_rules-booklet_reduced"]
    for game in ("assassin", "comrade", "comrade-stalin", "kremlin"):
        folder = kits / game / lang
        letter = imposed_scale(folder / f"{game}-{lang}-rules-booklet-letter.pdf")
        a4 = imposed_scale(folder / f"{game}-{lang}-rules-booklet-a4.pdf")
        assert letter < 0.95 and a4 == 1.0
        scale = int(letter * 100)
        assert "{scale}" in label
        said = re.compile(rf"\b{scale} ?%")
        assert said.search(words(folder / f"{game}-{lang}-how-to-print-letter.pdf")), game
        assert not said.search(words(folder / f"{game}-{lang}-how-to-print-a4.pdf")), game
