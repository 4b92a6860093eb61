"""Issue 14's "done when": a game the project never saw, made with `printshop new` in a new project
and grown by hand (tests/fixtures/harvest/) with no edit outside its own folders, validates, builds
for print-and-play and for every shop profile, and the pages hold what it says."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from printshop.cli import main
from tests.conftest import FIXTURES
from tests.pdfinspect import page_texts, pdf_text

MM = 72 / 25.4


@pytest.fixture(scope="module")
def harvest(tmp_path_factory) -> Path:
    """A new project with `printshop new harvest`, the scaffold's files replaced by the grown
    game's, its translation's sources recorded, built for print-and-play and every shop."""
    root = tmp_path_factory.mktemp("publisher") / "games"
    assert main(["init", str(root)]) == 0
    cwd = Path.cwd()
    try:
        os.chdir(root)
        assert main(["new", "harvest"]) == 0
        before = {path for path in root.rglob("*") if path.is_file()}
        shutil.rmtree(root / "data" / "harvest")
        shutil.rmtree(root / "templates" / "harvest")
        shutil.copytree(FIXTURES / "harvest" / "data", root / "data" / "harvest")
        shutil.copytree(FIXTURES / "harvest" / "templates", root / "templates" / "harvest")
        assert main(["i18n", "sync", "fr", "harvest"]) == 0
        after = {path for path in root.rglob("*") if path.is_file()}
        outside = {
            path
            for path in after ^ before
            if not path.is_relative_to(root / "data" / "harvest")
            and not path.is_relative_to(root / "templates" / "harvest")
        }
        assert not outside, outside  # grown inside its own folders only
        assert main(["validate", "--strict"]) == 0
        assert main(["build", "--quiet"]) == 0
        assert main(["build", "--quiet", "--target", "shop"]) == 0
    finally:
        os.chdir(cwd)
    return root


def pages(path: Path) -> list:
    return PdfReader(path).pages


def test_two_card_sizes_of_its_own_with_copies(harvest):
    out = harvest / "output" / "harvest" / "en"
    resources = pages(out / "harvest-en-resources-a4.pdf")
    text = pdf_text(out / "harvest-en-resources-a4.pdf")
    # 48 cards: 8 of each of 6 kinds, 16 (4 × 4) mini cards to an A4 page, each page of fronts with
    # its backs
    assert len(resources) == 6 and text.count("WOOD") == 8 and text.count("ORE") == 8
    plans = pdf_text(out / "harvest-en-plans-a4.pdf")
    assert (
        "CATHEDRAL" in plans and "4 stone" in plans and "7 points" in plans
    )  # a bulleted cost, its points


def test_png_art_is_embedded(harvest):
    page = pages(harvest / "output" / "harvest" / "fr" / "harvest-fr-resources-a4.pdf")[0]
    images = []

    def walk(resources):
        for _, obj in (resources or {}).get("/XObject", {}).items():
            obj = obj.get_object()
            if obj.get("/Subtype") == "/Image":
                images.append(obj)
            elif obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))

    walk(page["/Resources"])
    assert images and all(int(image["/Width"]) >= 284 for image in images)


def test_a_two_sided_a5_aid_with_a_numbered_list(harvest):
    aid = page_texts(harvest / "output" / "harvest" / "fr" / "harvest-fr-aid-a4.pdf")
    assert len(aid) == 4  # 2 copies, each a page of fronts and its page of backs
    assert "1." in aid[0] and "Piochez 2 cartes ressource." in aid[0]
    assert "DÉCOMPTE" in aid[1] and "•" in aid[1]
    press = pages(harvest / "output" / "harvest" / "fr" / "press" / "eu-3mm" / "harvest-fr-aid.pdf")
    assert len(press) == 2  # front and back
    trim = press[0].trimbox
    assert round(float(trim.width) / MM) == 148 and round(float(trim.height) / MM) == 210


def test_a_four_page_booklet_in_both_languages(harvest):
    for lang, heading in (("en", "TRADING"), ("fr", "ÉCHANGES")):
        booklet = page_texts(harvest / "output" / "harvest" / lang / f"harvest-{lang}-rules-a5.pdf")
        assert len(booklet) == 4 and heading in booklet[3]


def test_every_shop_gets_what_it_makes_and_says_what_it_leaves_out(harvest):
    press = harvest / "output" / "harvest" / "en" / "press"
    for profile in ("eu-3mm", "drivethrucards", "printninja", "meinspiel"):
        manifest = json.loads((press / profile / "manifest.json").read_text(encoding="utf-8"))
        files = {entry["file"] for entry in manifest["files"]}
        assert "harvest-en-aid.pdf" in files, (profile, files)
        left = json.dumps(manifest).lower()
        assert (
            "mini-euro" in left and "plan-70x120" in left
        )  # the two custom sizes, named as left out
