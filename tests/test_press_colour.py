"""Flat colours through the ICC profile (issue 53, item 4): a flat area of a palette colour and raster
art of the same sRGB colour print alike in every CMYK shop's files; pure black type stays K100; a
palette colour outside the press gamut is warned of."""

from __future__ import annotations

import functools

import pikepdf
import pytest
from PIL import Image, ImageCms

from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.render.press import press_paints
from printshop.render.press_art import WHITE, PressArt, cmyk_profile
from printshop.render.press_colour import delta_e, lab
from tests.conftest import PRESS_PROFILES, found, shared_build

MOST = 2.0  # ΔE2000 a flat area may differ from art of its colour


@pytest.fixture(scope="module")
def palettes() -> dict[str, dict[str, str]]:
    """Every palette the project's games print with (printshop's, the project's, each game's own)."""
    project = load_project(DEFAULT_DATA_DIR, games=None)
    palettes = {"project": dict(project.colours.palette)}
    for game_id, game in project.games.items():
        palettes[game_id] = dict(project.view(game).colours.palette)
    return palettes


@pytest.fixture(scope="module")
def shops():
    """The CMYK shops, by ICC profile: both of printshop's (FOGRA39 and SWOP) are used."""
    project = load_project(DEFAULT_DATA_DIR, games=[])
    cmyk = {name: p for name, p in project.profiles.items() if p.colour.space == "cmyk"}
    assert {p.colour.icc for p in cmyk.values()} == {"fogra39l-300.icc", "swop-tr003-300.icc"}
    return cmyk


@functools.cache
def _to_lab(icc: str | None):
    return ImageCms.buildTransform(
        cmyk_profile(icc),
        ImageCms.createProfile("LAB"),
        "CMYK",
        "LAB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )


def _lab(icc: str | None, cmyk: tuple[int, ...]) -> tuple[float, float, float]:
    """L*a*b* (D50) of an 8-bit CMYK colour as the profile says it prints."""
    return lab(ImageCms.applyTransform(Image.new("CMYK", (1, 1), tuple(cmyk)), _to_lab(icc)))


def _art_patch(tmp_path, hex_value: str, profile) -> tuple[int, ...]:
    """A patch of raster art of the colour, through press_art as a face's image goes."""
    path = tmp_path / f"{hex_value[1:]}.png"
    Image.new("RGB", (8, 8), tuple(int(hex_value[i : i + 2], 16) for i in (1, 3, 5))).save(path)
    return PressArt(profile).convert(path, WHITE).getpixel((4, 4))


def _flat(palette: dict[str, str], name: str, profile) -> tuple[int, ...]:
    """The palette colour as press files fill an area with it (press_paints), in 8 bits."""
    colour = press_paints(palette, profile).fill(name)
    return tuple(round(v * 255) for v in (colour.cyan, colour.magenta, colour.yellow, colour.black))


def _old_formula(hex_value: str, ink_limit: float | None) -> tuple[int, ...]:
    """printshop's conversion before issue 53: black from the darkest channel, CMY scaled to fit."""
    r, g, b = (int(hex_value[i : i + 2], 16) / 255 for i in (1, 3, 5))
    k = 1 - max(r, g, b)
    if k >= 1:
        return 0, 0, 0, 255
    c, m, y = ((1 - v - k) / (1 - k) for v in (r, g, b))
    if ink_limit is not None and (c + m + y + k) * 100 > ink_limit:
        scale = max(0.0, ink_limit / 100 - k) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return tuple(round(v * 255) for v in (c, m, y, k))


def _worst(tmp_path, palettes, shops, flat) -> tuple[float, str]:
    """The largest ΔE2000 between a flat area (`flat(palette, name, profile)`) and an art patch of
    the same colour, over every palette colour and CMYK shop, and where it is."""
    worst, where, seen = 0.0, "", set()
    for palette in palettes.values():
        for name, value in palette.items():
            for shop, profile in shops.items():
                if value == "#000000" and profile.colour.rich_black:
                    continue  # the shop's own rich black for black areas: its guide asks for it
                if (value, shop) in seen:
                    continue
                seen.add((value, shop))
                icc = profile.colour.icc
                art = _lab(icc, _art_patch(tmp_path, value, profile))
                difference = delta_e(_lab(icc, flat(palette, name, profile)), art)
                if difference > worst:
                    worst, where = difference, f"{name} ({value}) at {shop}"
    return worst, where


def test_a_flat_colour_prints_as_art_of_the_same_colour(tmp_path, palettes, shops):
    worst, where = _worst(tmp_path, palettes, shops, _flat)
    assert worst <= MOST, where


def test_the_old_formula_is_caught_by_the_same_measure(tmp_path, palettes, shops):
    worst, where = _worst(
        tmp_path,
        palettes,
        shops,
        lambda palette, name, profile: _old_formula(palette[name], profile.colour.ink_limit),
    )
    assert worst > 10, where  # faction-5's purple, about 11 to 13 apart


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [  # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 17, 25 and 34
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ],
)
def test_delta_e_2000_gives_the_published_test_values(first, second, expected):
    assert delta_e(first, second) == pytest.approx(expected, abs=1e-4)


def test_the_ink_limit_holds_for_every_flat_colour(palettes, shops):
    for palette in palettes.values():
        for name in palette:
            for shop, profile in shops.items():
                ink = sum(_flat(palette, name, profile)) * 100 / 255
                assert ink <= (profile.colour.ink_limit or 400) + 0.01, (name, shop)


def test_black_type_and_lines_print_in_black_ink_alone(shops):
    palette = {"ink": "#000000", "night": "#161b27"}
    for profile in shops.values():
        paints = press_paints(palette, profile)
        for black in (paints.text("ink"), paints.line("ink")):
            assert (black.cyan, black.magenta, black.yellow, black.black) == (0, 0, 0, 1)
        near = paints.text("night")  # a near-black is built as the profile builds it: four inks
        assert min(near.cyan, near.magenta, near.yellow) > 0.1 and near.black > 0.8


def _text_colours(path) -> set[tuple[float, ...]]:
    """The CMYK fill colours text is shown in, anywhere in the file (pages and forms)."""
    shown: set[tuple[float, ...]] = set()
    with pikepdf.open(path) as pdf:
        streams = [page.obj for page in pdf.pages]
        streams += [
            obj
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"
        ]
        for stream in streams:
            fill, stack = (0.0, 0.0, 0.0, 1.0), []
            for operands, operator in pikepdf.parse_content_stream(stream):
                op = str(operator)
                if op == "q":
                    stack.append(fill)
                elif op == "Q" and stack:
                    fill = stack.pop()
                elif op == "k":
                    fill = tuple(float(v) for v in operands)
                elif op in ("Tj", "TJ", "'", '"'):
                    shown.add(fill)
    return shown


def test_black_text_in_press_files_is_k100_only(tmp_path_factory):
    out, _ = shared_build(tmp_path_factory, target="shop", profiles=PRESS_PROFILES)
    path = out / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-rules.pdf"
    colours = _text_colours(path)
    assert (0.0, 0.0, 0.0, 1.0) in colours  # the body text, #000000
    dark = [c for c in colours if c[3] > 0.9 and c != (0.0, 0.0, 0.0, 1.0)]
    assert dark == []  # no black type built of four inks


def test_a_palette_colour_outside_the_press_gamut_is_warned_with_its_delta_e(data_copy):
    colours = data_copy / "print" / "colours.yaml"
    colours.write_text(
        colours.read_text(encoding="utf-8") + '  green: "#00ff00"\n  blue: "#0000ff"\n',
        encoding="utf-8",
    )
    warned = {d.message.split("'")[1]: d for d in found(data_copy, "press-gamut", games=[])}
    assert sorted(warned) == ["blue", "green"]
    green = warned["green"]
    assert green.location.path.endswith("colours.yaml") and green.location.line > 1
    assert "itself 15.6 at DriveThruCards (swop-tr003-300.icc, 240 % ink); 18.0 at" in green.message


def test_the_projects_palettes_are_inside_the_press_gamut(data_copy):
    assert found(data_copy, "press-gamut", games=[]) == []


# --- the soft proof (issue 53, item 5) ----------------------------------------------------------
def _cmyk_pdf(panel: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8)) -> bytes:
    """A page of known ink: a flat CMYK panel, a CMYK image, a grey panel, K100 type."""
    import io

    from reportlab.lib.colors import CMYKColor
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(144, 72), invariant=1)
    canvas.setFillColor(CMYKColor(*panel))
    canvas.rect(0, 0, 48, 72, fill=1, stroke=0)
    image = Image.new("CMYK", (4, 4), (10, 200, 30, 40))
    canvas.drawImage(ImageReader(image), 48, 0, 48, 72)
    canvas.setFillGray(0.25)  # prints as 75 % black ink
    canvas.rect(96, 36, 48, 36, fill=1, stroke=0)
    canvas.setFillColor(CMYKColor(0, 0, 0, 1))
    canvas.setFont("Helvetica", 20)
    canvas.drawString(100, 8, "K")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_the_soft_proof_reads_each_ink_exactly():
    from printshop.render.soft_proof import inks

    (page,) = inks(_cmyk_pdf(), 72)
    assert page.mode == "CMYK" and page.size == (144, 72)
    assert page.getpixel((24, 36)) == (51, 102, 153, 204)  # the panel
    assert page.getpixel((72, 36)) == (10, 200, 30, 40)  # the image's pixels
    assert page.getpixel((120, 18)) == (0, 0, 0, 191)  # grey: black ink
    assert page.getpixel((140, 60)) == (0, 0, 0, 0)  # bare paper: no ink


def test_the_soft_proof_shows_what_the_profile_prints(shops):
    from printshop.render.press_colour import flat_cmyk
    from printshop.render.soft_proof import soft_proof

    profile = shops["drivethrucards"]
    icc = profile.colour.icc
    red = flat_cmyk("#b22a1e", icc, ink_limit=profile.colour.ink_limit)
    red_pdf = _cmyk_pdf(tuple(v / 255 for v in red))
    (proof,) = soft_proof(red_pdf, icc, 72)
    expected = ImageCms.applyTransform(
        Image.new("CMYK", (1, 1), red),
        ImageCms.buildTransform(
            cmyk_profile(icc),
            ImageCms.createProfile("sRGB"),
            "CMYK",
            "RGB",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        ),
    )
    assert proof.mode == "RGB" and proof.getpixel((24, 36)) == expected.getpixel((0, 0))
    assert proof.getpixel((140, 60)) == (255, 255, 255)  # paper white shows as white
    # pdfium's own rendering of CMYK is a fixed formula, not the press: it shows the press's deepest
    # black (the profile's sRGB black, within the ink limit) as the screen's, far blacker than it prints
    black = _cmyk_pdf(tuple(v / 255 for v in flat_cmyk("#000000", icc, ink_limit=240)))
    (proof,) = soft_proof(black, icc, 72)
    import pypdfium2

    naive = pypdfium2.PdfDocument(black)[0].render(scale=1).to_pil().convert("RGB")
    ours, theirs = (_srgb_lab(picture.getpixel((24, 36))) for picture in (proof, naive))
    assert ours[0] > theirs[0] + 5 and delta_e(ours, theirs) > 5


def _srgb_lab(rgb) -> tuple[float, float, float]:
    from printshop.render.press_colour import srgb_lab

    return srgb_lab("#" + "".join(f"{v:02x}" for v in rgb))


def test_the_soft_proof_reads_the_inks_ghostscript_renders(tmp_path, tmp_path_factory):
    import shutil
    import subprocess

    import numpy

    from printshop.render.soft_proof import inks

    if shutil.which("gs") is None:
        pytest.skip("Ghostscript is not installed (only this comparison needs it)")
    out, _ = shared_build(tmp_path_factory, target="shop", profiles=PRESS_PROFILES)
    path = out / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-cards.pdf"
    ours = inks(path.read_bytes(), 50)[:4]
    subprocess.run(
        ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r50", "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4",
         "-dFirstPage=1", "-dLastPage=4", f"-sOutputFile={tmp_path}/p%03d.tif", str(path)],
        check=True,
    )  # fmt: skip
    for number, page in enumerate(ours, 1):
        with Image.open(tmp_path / f"p{number:03d}.tif") as theirs:
            assert theirs.mode == "CMYK" and theirs.size == page.size
            expected = numpy.asarray(theirs, dtype=int)
        got = numpy.asarray(page, dtype=int)
        # the two renderers smooth the edges of type and lines each its own way: compared where the
        # ink is flat (a pixel and its eight neighbours alike), away from the page's edge
        centre = got[1:-1, 1:-1]
        flat = numpy.ones(centre.shape[:2], dtype=bool)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                around = got[1 + dy : got.shape[0] - 1 + dy, 1 + dx : got.shape[1] - 1 + dx]
                flat &= (around == centre).all(axis=2)
        difference = numpy.abs(centre - expected[1:-1, 1:-1]).max(axis=2)[flat]
        assert flat.mean() > 0.3 and (difference <= 2).mean() > 0.99, number


def test_preflight_writes_a_soft_proof_of_each_page(tmp_path, tmp_path_factory, capsys):
    from pypdf import PdfReader

    from printshop.cli import main

    out, _ = shared_build(tmp_path_factory, target="shop", profiles=PRESS_PROFILES)
    path = out / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-rules.pdf"
    arguments = ["preflight", str(path), "--profile", "drivethrucards", "--dpi", "30"]
    assert main([*arguments, "--soft-proof", str(tmp_path / "a")]) == 0
    assert main([*arguments, "--soft-proof", str(tmp_path / "b")]) == 0
    pages = len(PdfReader(path).pages)
    made = sorted((tmp_path / "a").iterdir())
    assert [p.name for p in made] == [f"comrade-en-rules-p{n:03d}.png" for n in range(1, pages + 1)]
    with Image.open(made[0]) as first:
        assert first.mode == "RGB" and first.info["dpi"][0] == pytest.approx(30, abs=0.1)
    assert all(p.read_bytes() == (tmp_path / "b" / p.name).read_bytes() for p in made)
    assert f"soft proof: {pages} page(s) written" in capsys.readouterr().err


def test_a_soft_proof_for_an_rgb_shop_is_refused(tmp_path, tmp_path_factory, capsys):
    from printshop.cli import main

    out, _ = shared_build(tmp_path_factory, target="shop", profiles=PRESS_PROFILES)
    path = out / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-rules.pdf"
    with pytest.raises(SystemExit) as stop:
        main(["preflight", str(path), "--profile", "thegamecrafter", "--soft-proof", str(tmp_path)])
    assert stop.value.code == 2 and "takes RGB files" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
