"""Press files that never surprise (issue 13): every PDF checks clean in qpdf (and Ghostscript where
installed), raster art converted for CMYK shops, nothing left out of a shop without a reported line,
manifest.json per profile folder, the kit's press pages following a named profile, and the profiles
of more shops (PrintNinja, MeinSpiel with PDF/X-4)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from printshop import memo
from printshop.checks.preflight import preflight, shop_trims
from printshop.pipeline.build import build
from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.project.units import mm
from tests.conftest import edit, found, line_of, shared, unknown

PDF_PROFILES = ["eu-3mm", "drivethrucards", "printninja", "meinspiel"]
GS = shutil.which("gs")


def _kit_and_press(out: Path) -> list:
    return [
        build(
            DEFAULT_DATA_DIR,
            out,
            games=["kremlin", "comrade-stalin"],
            langs=["en"],
            papers=["a4"],
            target=target,
            profiles=PDF_PROFILES,
        )
        for target in ("pnp", "shop")
    ]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """Kremlin (board, markers, two decks) and Comrade Stalin (role sheets): their print-and-play
    kit in English on A4 and their press files for every PDF profile."""
    out, results = shared(tmp_path_factory, "press-outputs", _kit_and_press)  # once per session
    for result in results:
        assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out


@pytest.fixture(scope="module")
def project():
    return load_project(DEFAULT_DATA_DIR, games=[])


def _pdfs(*folders: Path) -> list[Path]:
    return sorted(
        path
        for folder in folders
        for path in folder.rglob("*.pdf")
        if ".printshop-cache" not in path.parts
    )


def _syntax_problems(pdf: pikepdf.Pdf) -> list:
    """qpdf's own check through pikepdf (named check() before pikepdf 9.x's check_pdf_syntax())."""
    return list((pdf.check_pdf_syntax if hasattr(pdf, "check_pdf_syntax") else pdf.check)())


def _ghostscript_complaints(*paths: Path) -> str:
    run = subprocess.run(
        [GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return (run.stdout + run.stderr).strip() + (
        "" if run.returncode == 0 else f" (exit {run.returncode})"
    )


# --- 3: every PDF renders without a warning
# --------------------------------------------------------
def test_the_imposed_booklet_is_pdf_1_4_with_an_id_and_checks_clean(built):
    booklets = sorted(built.rglob("*-rules-booklet-*.pdf"))
    assert len(booklets) == 4  # comrade en and fr, A4 and Letter
    for path in booklets:
        assert path.read_bytes()[:8] >= b"%PDF-1.4", path
        with pikepdf.open(path) as pdf:
            assert "/ID" in pdf.trailer and len(pdf.trailer.ID) == 2, path
            assert _syntax_problems(pdf) == [], path
            for (
                page
            ) in pdf.pages:  # each booklet page is a form with its own resources, placed once
                forms = list(page.Resources.XObject.values())
                assert len(forms) == 2 and all(
                    form.Subtype == "/Form" and "/Font" in form.Resources for form in forms
                )
    assert str(pikepdf.open(booklets[0]).docinfo.Title).startswith("Comrade")


def test_every_pdf_of_a_build_passes_qpdfs_check(built, outputs):
    files = _pdfs(built, outputs)
    assert len(files) > 30
    for path in files:
        with pikepdf.open(path) as pdf:
            assert _syntax_problems(pdf) == [], path


@pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (Debian package: ghostscript)")
def test_every_pdf_of_a_build_is_silent_in_ghostscript(built, outputs):
    files = _pdfs(built, outputs)
    if (
        _ghostscript_complaints(*files) == ""
    ):  # one run reads them all, one after another: one start-up, not 60
        return  # (a message Ghostscript gives once per run would have shown at its first file)
    for path in files:  # something complained: each file alone, to name it
        assert _ghostscript_complaints(path) == "", path


@pytest.mark.skipif(
    shutil.which("qpdf") is None, reason="qpdf is not installed (Debian package: qpdf)"
)
def test_qpdf_finds_no_warning_in_the_booklet(built):
    for path in built.rglob("*-rules-booklet-*.pdf"):
        run = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
        assert run.returncode == 0 and "WARNING" not in run.stdout + run.stderr, (
            run.stdout + run.stderr
        )


def test_the_imposed_booklet_is_the_same_bytes_every_time(built, tmp_path, monkeypatch):
    memo.clear("imposed_booklets")  # imposed anew
    result = build(DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors
    name = Path("comrade") / "en" / "comrade-en-rules-booklet-a4.pdf"
    assert (tmp_path / name).read_bytes() == (built / name).read_bytes()


# --- 4: raster art converted for press
# --------------------------------------------------------------
def _icon(path: Path, size: int, colour=(178, 42, 30)) -> None:
    """An RGBA icon: a transparent ring round an opaque disc, with half-transparent pixels between."""
    from PIL import ImageDraw

    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((size * 0.1, size * 0.1, size * 0.9, size * 0.9), fill=(*colour, 128))
    draw.ellipse((size * 0.2, size * 0.2, size * 0.8, size * 0.8), fill=(*colour, 255))
    draw.rectangle((size * 0.4, size * 0.4, size * 0.6, size * 0.6), fill=(20, 20, 20, 255))
    path.parent.mkdir(exist_ok=True)
    image.save(path)


def _with_icon(
    data: Path,
    pixels: int,
    width: str = "0.3in",
    face_line: str = "      table-band: {kind: rect",
    colour=(178, 42, 30),
    x: str = "5mm",
    y: str = "5mm",
) -> int:
    """The Comrade rule card gets an RGBA icon inside its red band (or another face, at
    `face_line`)."""
    _icon(data / "comrade" / "images" / "icon.png", pixels, colour)
    faces = data / "comrade" / "faces.yaml"
    return edit(
        faces,
        face_line,
        f"      icon: {{kind: image, src: images/icon.png, x: {x}, y: {y}, width: {width}, height: {width}}}\n"
        + face_line,
    )


def _max_ink(picture: Image.Image) -> float:
    """The largest C+M+Y+K of any pixel of a CMYK image, in percent."""
    data = picture.tobytes()
    return max(sum(data[i : i + 4]) for i in range(0, len(data), 4)) / 2.55


def _images(path: Path) -> list[pikepdf.Stream]:
    with pikepdf.open(path) as pdf:
        found_images, seen = [], set()
        stack = [page.Resources for page in pdf.pages]
        while stack:
            resources = stack.pop()
            for xobject in (resources.get("/XObject") or {}).values():
                if xobject.objgen in seen:
                    continue
                seen.add(xobject.objgen)
                if xobject.Subtype == "/Image":
                    found_images.append(
                        (dict(xobject.items()), pikepdf.PdfImage(xobject).as_pil_image())
                    )
                elif "/Resources" in xobject:
                    stack.append(xobject.Resources)
        return found_images


def test_a_deck_with_rgb_transparent_art_builds_press_files_that_pass_preflight(
    data_copy, tmp_path
):
    from printshop.render.press_colour import flat_cmyk

    _with_icon(data_copy, 90)  # 90 px over 0.3 in: 300 dpi
    # a muted red over the plain band: only the US shops, whose trim scales faces by 1 %, want more
    # pixels
    assert all(
        "prints at 297 dpi in" in d.message
        for d in found(data_copy, "press-art", games=["comrade"])
    )
    profiles = ["eu-3mm", "meinspiel"]
    result = build(
        data_copy, tmp_path, games=["comrade"], langs=["en"], target="shop", profiles=profiles
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    project = load_project(data_copy, games=[])
    for name in profiles:
        profile = project.profiles[name]
        red = flat_cmyk(
            project.colours.palette["red"], profile.colour.icc, ink_limit=profile.colour.ink_limit
        )
        files = sorted((tmp_path / "comrade" / "en" / "press" / name).glob("*.pdf"))
        cards = [path for path in files if "rules" not in path.name]
        assert cards and files
        for path in files:
            found_ = preflight(path, profile, shop_trims(project.media, profile))
            assert unknown(found_, name) == [], path
        with_icon = [(keys, picture) for path in cards for keys, picture in _images(path)]
        assert with_icon, name
        for keys, picture in with_icon:
            assert (
                keys["/ColorSpace"] == "/DeviceCMYK"
                and "/SMask" not in keys
                and "/Mask" not in keys
            )
            assert picture.mode == "CMYK"
            worst = _max_ink(picture)
            assert worst <= profile.colour.ink_limit + 0.01
            corner = picture.getpixel(
                (0, 0)
            )  # transparent in the art: exactly the band's red beneath, as the band prints it
            assert corner == red
            centre = picture.getpixel((45, 45))  # the dark square: mostly black ink
            assert centre[3] > 150


def test_art_is_limited_to_the_shops_ink_and_flattened_over_the_colour_beneath(tmp_path, project):
    from printshop.render.press_art import PressArt

    path = tmp_path / "dark.png"
    Image.new("RGBA", (4, 4), (0, 0, 0, 255)).save(path)
    profile = project.profiles["drivethrucards"]
    picture = PressArt(profile).convert(path, (0.6, 0.4, 0.4, 1.0))
    assert picture.mode == "CMYK" and _max_ink(picture) <= 240.01
    Image.new("RGBA", (4, 4), (0, 0, 0, 0)).save(
        path
    )  # fully transparent: nothing but what lies beneath
    beneath = PressArt(profile).convert(path, (0.6, 0.4, 0.4, 1.0))
    assert beneath.getpixel((0, 0)) == (153, 102, 102, 255)
    grey = tmp_path / "grey.png"
    Image.new("L", (4, 4), 90).save(grey)
    assert (
        PressArt(profile).convert(grey, (0, 0, 0, 0)).mode == "L"
    )  # grey prints in black ink as it is


def test_press_art_warns_about_too_few_pixels_at_the_shops_scale(data_copy):
    line = _with_icon(data_copy, 90)  # 300 dpi at 63 × 88 mm; the US shops scale faces by 1 %
    items = found(data_copy, "press-art")
    assert len(items) == 4 and {d.location.line for d in items} == {line}
    messages = sorted(d.message for d in items)
    assert any(
        "(90 × 90 px) prints at 297 dpi in DriveThruCards's files (faces scaled by 1.010" in m
        for m in messages
    )
    assert any("prints at 297 dpi in PrintNinja's files" in m for m in messages)
    # the shops sent a PNG of each face (the art drawn into it at the shop's scale) too
    assert any("prints at 297 dpi in The Game Crafter's files" in m for m in messages)
    assert any("prints at 297 dpi in MakePlayingCards's files" in m for m in messages)
    assert all("needs 300" in m for m in messages) and items[0].severity.value == "warning"
    assert "at least 91 × 91 px" in items[0].hint


def test_press_art_warns_about_colours_the_shops_cmyk_cannot_print(data_copy):
    _with_icon(data_copy, 120, colour=(0, 255, 0))  # pure green: far outside print's gamut
    items = [d for d in found(data_copy, "press-art") if "ΔE" in d.message]
    assert {d.message.split("'s CMYK")[0].rsplit("in ", 1)[1] for d in items} == {
        "EU print shops, 3 mm bleed",
        "DriveThruCards",
        "PrintNinja",
        "MeinSpiel",
    }
    assert "will print duller than on screen" in items[0].message


def test_press_art_warns_about_transparency_over_more_than_one_colour(data_copy):
    # the back's sunburst lies under every point of the card: no plain colour to flatten over
    _with_icon(data_copy, 120, face_line="      frame: {kind: rect, x: 4.8mm,", x="6mm", y="6mm")
    items = [d for d in found(data_copy, "press-art") if "transparent parts" in d.message]
    assert items and all("flattened over paper" in d.message for d in items)


def test_press_art_is_silent_for_art_that_converts_cleanly(data_copy):
    _with_icon(data_copy, 120)  # 400 dpi, muted colours, over the plain band
    assert found(data_copy, "press-art") == []


# --- 5: nothing left out silently; manifest.json
# -----------------------------------------------------
def test_a_card_size_a_shop_does_not_make_is_reported_by_validate_and_build(data_copy, tmp_path):
    profile = data_copy / "print" / "profiles" / "eu-3mm.yaml"
    edit(
        profile, "  poker-eu: {trim: poker-eu}\n", "  poker-eu: null\n"
    )  # over printshop's profile: null removes
    game = data_copy / "comrade" / "game.yaml"
    items = [
        d
        for d in found(data_copy, "press-left-out")
        if "of comrade is" in d.message and "EU print" in d.message
    ]
    [item] = items
    assert item.location.path == str(game) and item.location.line == line_of(
        game, "card_size: poker-eu"
    )
    assert item.severity.value == "warning" and not item.acknowledged
    assert (
        "deck 'cards' of comrade is left out of EU print shops, 3 mm bleed's files ('eu-3mm')"
        in item.message
    )
    assert "makes no poker-eu cards (it makes poker-us, bridge, tarot, chit-16)" in item.message
    result = build(
        data_copy, tmp_path, games=["comrade"], langs=["en"], target="shop", profiles=["eu-3mm"]
    )
    assert not result.report.has_errors
    assert any(
        d.code == "press-left-out" and "deck 'cards' of comrade" in d.message
        for d in result.report.items
    )
    folder = tmp_path / "comrade" / "en" / "press" / "eu-3mm"
    assert sorted(p.name for p in folder.iterdir()) == ["comrade-en-rules.pdf", "manifest.json"]
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["left_out"] == [
        {"kind": "deck", "id": "cards", "why": item.message.split(": ", 1)[1]}
    ]


def test_what_a_profile_knowingly_leaves_out_is_acknowledged_and_strict_passes(capsys):
    """Kremlin's chits, which most shops do not make: left out of their files, acknowledged."""
    from printshop.cli import main

    items = found(DEFAULT_DATA_DIR, "press-left-out", games=["kremlin"])
    assert items and all(d.acknowledged for d in items)
    markers = [d for d in items if "deck 'markers' of kremlin" in d.message]
    assert {d.message.split("files ('")[1].split("'")[0] for d in markers} == {
        "drivethrucards",
        "thegamecrafter",
        "makeplayingcards",
        "printninja",
        "meinspiel",
    }
    assert not any("('eu-3mm')" in d.message for d in items)  # the EU profile takes all of Kremlin
    assert main(["validate", "--strict"]) == 0
    capsys.readouterr()


def test_each_profile_folder_has_a_manifest_of_its_files(outputs, project):
    folders = sorted(outputs.glob("*/en/press/*"))
    assert len(folders) == 2 * len(PDF_PROFILES)
    for folder in folders:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["profile"] == folder.name and manifest["game"] == folder.parents[2].name
        files = sorted(path.name for path in folder.glob("*.pdf"))
        assert sorted(entry["file"] for entry in manifest["files"]) == files
        for entry in manifest["files"]:
            with pikepdf.open(folder / entry["file"]) as pdf:
                assert entry["pages"] == len(pdf.pages)
                trim = [float(v) for v in pdf.pages[0].TrimBox]
            assert entry["trim_mm"] == pytest.approx(
                [(trim[2] - trim[0]) * 25.4 / 72, (trim[3] - trim[1]) * 25.4 / 72], abs=0.01
            )
            assert (
                entry["product"] in ("sheet", "booklet", "tuck-box")
                or entry["product"] in project.media.card_sizes
            )
    dtc = json.loads(
        (outputs / "kremlin" / "en" / "press" / "drivethrucards" / "manifest.json").read_text(
            "utf-8"
        )
    )
    markers = next(item for item in dtc["left_out"] if item["id"] == "markers")
    assert "makes no chit-16" in markers["why"] and markers["acknowledged"]
    assert {
        "kind": "sheet",
        "id": "influence",
        "why": "the sheet is not marked press: true in game.yaml",
    } in dtc["left_out"]
    assert (
        next(e for e in dtc["files"] if e["file"] == "kremlin-en-politicians.pdf")["product"]
        == "poker-us"
    )


# --- 6: the kit's press pages follow a named profile
# ------------------------------------------------
def test_the_kits_press_pages_follow_the_eu_profile(outputs, project):
    eu = project.profiles[project.media.print_and_play.press_profile]
    assert project.media.print_and_play.press_profile == "eu-3mm"
    for path in (
        outputs / "kremlin" / "en" / "kremlin-en-board-press.pdf",
        outputs / "comrade-stalin" / "en" / "comrade-stalin-en-roles-press.pdf",
    ):
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:
                trim, bleed = [float(v) for v in page.TrimBox], [float(v) for v in page.BleedBox]
                assert (
                    trim[0] - bleed[0]
                    == pytest.approx(mm(3), abs=0.01)
                    == pytest.approx(eu.bleed, abs=0.01)
                )
        assert preflight(path, eu) == [], (
            path
        )  # CMYK within 300 %, 3 mm bleed: what the EU shops take


def test_the_kits_press_pages_follow_another_profile_when_media_names_it(data_copy, tmp_path):
    edit(
        data_copy / "print" / "media.yaml", "press_profile: eu-3mm", "press_profile: drivethrucards"
    )
    result = build(data_copy, tmp_path, games=["comrade-stalin"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors
    path = tmp_path / "comrade-stalin" / "en" / "comrade-stalin-en-roles-press.pdf"
    with pikepdf.open(path) as pdf:
        trim, bleed = (
            [float(v) for v in pdf.pages[0].TrimBox],
            [float(v) for v in pdf.pages[0].BleedBox],
        )
        assert trim[0] - bleed[0] == pytest.approx(9, abs=0.01)  # 1/8 in
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
    project = load_project(data_copy, games=[])
    assert preflight(path, project.profiles["drivethrucards"]) == []


def test_an_unknown_press_profile_for_the_kit_is_reported(data_copy):
    line = edit(
        data_copy / "print" / "media.yaml", "press_profile: eu-3mm", "press_profile: eu-5mm"
    )
    items = [d for d in found(data_copy, "unknown-reference") if "kit's press pages" in d.message]
    assert (
        items
        and items[0].location.line == line
        and "no print-shop profile 'eu-5mm'" in items[0].message
    )


# --- 7: more shops, as data
# -------------------------------------------------------------------------
def test_meinspiel_gets_fronts_and_backs_as_two_pdf_x4_files_with_equal_page_counts(
    outputs, project
):
    folder = outputs / "kremlin" / "en" / "press" / "meinspiel"
    profile = project.profiles["meinspiel"]
    for deck in ("politicians", "intrigue"):
        fronts, backs = (
            folder / f"kremlin-en-{deck}-fronts.pdf",
            folder / f"kremlin-en-{deck}-backs.pdf",
        )
        with pikepdf.open(fronts) as front, pikepdf.open(backs) as back:
            assert len(front.pages) == len(back.pages) > 0
            assert (
                front.Root.PageLabels.Nums[1].P == "front "
                and back.Root.PageLabels.Nums[1].P == "back "
            )
            assert str(front.docinfo.GTS_PDFXVersion) == "PDF/X-4"
            [intent] = front.Root.OutputIntents
            assert intent.OutputConditionIdentifier == "FOGRA39" and intent.DestOutputProfile.N == 4
            xmp = front.open_metadata()
            assert xmp["pdfxid:GTS_PDFXVersion"] == "PDF/X-4" and xmp[
                "xmpMM:DocumentID"
            ].startswith("uuid:")
            assert front.pdf_version == "1.4"
        for path in (fronts, backs):
            assert preflight(path, profile, shop_trims(project.media, profile)) == [], path
    assert not list(folder.glob("*markers*"))


def _fonts_embedded_and_set(pdf: pikepdf.Pdf) -> tuple[set[str], set[str]]:
    """(the fonts a PDF embeds, the fonts its pages and forms set text in), by their base names."""
    embedded = {
        str(o.BaseFont)
        for o in pdf.objects
        if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"
    }
    used: set[str] = set()
    streams = [(page.obj, page.obj.get("/Resources")) for page in pdf.pages]
    streams += [
        (o, o.get("/Resources"))
        for o in pdf.objects
        if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"
    ]
    for stream, resources in streams:
        fonts = resources.get("/Font", {}) if resources is not None else {}
        for operands, operator in pikepdf.parse_content_stream(stream):
            if str(operator) == "Tf" and str(operands[0]) in fonts:
                used.add(str(fonts[str(operands[0])].BaseFont))
    return embedded, used


def test_a_file_of_backs_carries_only_what_the_backs_use(outputs):
    """meinspiel takes fronts and backs as two files: each draws only its side's faces, and embeds
    only the fonts they set (a file of backs used to carry every front's fonts)."""
    folder = outputs / "kremlin" / "en" / "press" / "meinspiel"
    for deck in ("politicians", "intrigue"):
        for side in ("fronts", "backs"):
            with pikepdf.open(folder / f"kremlin-en-{deck}-{side}.pdf") as pdf:
                embedded, used = _fonts_embedded_and_set(pdf)
                assert used and embedded == used, (deck, side, embedded - used)


def test_printninja_takes_one_pdf_per_deck_with_an_eighth_inch_bleed(outputs, project):
    folder = outputs / "kremlin" / "en" / "press" / "printninja"
    profile = project.profiles["printninja"]
    assert sorted(p.name for p in folder.glob("*.pdf")) == [
        "kremlin-en-board.pdf",
        "kremlin-en-intrigue.pdf",
        "kremlin-en-politicians-tuckbox.pdf",  # the politicians' tuck box, with its die line
        "kremlin-en-politicians.pdf",
        "kremlin-en-rules.pdf",
    ]
    for path in folder.glob("*.pdf"):
        assert preflight(path, profile, shop_trims(project.media, profile)) == [], path
    with pikepdf.open(folder / "kremlin-en-politicians.pdf") as pdf:
        assert len(pdf.pages) == 2 * 26
        box = [float(v) for v in pdf.pages[0].MediaBox]
        assert box[2:] == pytest.approx([2.75 * 72, 3.75 * 72], abs=0.01)


def test_press_outputs_are_byte_identical_from_build_to_build(outputs, tmp_path):
    again = build(
        DEFAULT_DATA_DIR,
        tmp_path,
        games=["kremlin"],
        langs=["en"],
        target="shop",
        profiles=["meinspiel", "printninja"],
    )
    assert not again.report.has_errors
    for path in sorted((tmp_path / "kremlin").rglob("*")):
        if path.is_file():
            assert path.read_bytes() == (outputs / path.relative_to(tmp_path)).read_bytes(), path
