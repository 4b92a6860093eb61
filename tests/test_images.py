"""Images wherever text goes (issue 50, item 1): `<img>` and `<figure>` in booklets and frames,
PNG, JPEG and SVG files (SVG as vectors), image shapes of SVG files, CMYK press files, the cache
and a session noticing a changed file, and each bad input said at its line."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pikepdf
import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader

from printshop.pipeline.build import build, check
from tests.conftest import REPO, fixture_project, line_of

BLUE = (0x1F, 0x6F, 0xB2)  # the diagram's rectangle
SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
<rect x="0" y="0" width="100" height="50" fill="#1f6fb2"/>
<path d="M10 40 L50 5 L90 40 Z" fill="#d4a017" stroke="#000000" stroke-width="1"/>
</svg>
"""
BOOKLET = """<title>Images</title>
<p>VECTORPAGE</p>
<figure><img src="images/diagram.svg" width="60mm"/><caption>A <b>diagram</b>, in vectors.</caption></figure>
<pagebreak/>
<p>PHOTOPAGE</p>
<img src="images/photo.png" width="40mm" align="left"/>
<img src="images/photo.jpg" width="30mm" align="right"/>
<pagebreak/>
<p>KEPTPAGE</p>
<spacer height="150mm"/>
<figure><img src="images/diagram.svg" width="80mm"/><caption>KEPTCAPTION</caption></figure>
"""
# the aid's body frame is 120 mm wide and 100 mm tall: the diagram asked 200 mm wide is set 120
AID = """{% block title %}{{ t.aid.title }}{% endblock %}
{% block body %}<img src="images/diagram.svg" width="200mm"/>
<p>{{ t.aid.body }}</p>{% endblock %}
"""
TOKEN = """{% block title %}{{ t.token.name }}{% endblock %}
{% block body %}<img src="images/photo.jpg" width="20mm"/>{{ t.token.body }}{% endblock %}
"""


def _photo(path: Path, size=(600, 400), kind="PNG") -> None:
    picture = Image.new("RGB", size, (200, 40, 40))
    picture.paste((40, 160, 60), (0, 0, size[0] // 2, size[1]))
    picture.save(path, kind)


def make_project(root: Path) -> tuple[Path, Path]:
    data, templates = fixture_project(root)
    game = data / "sampler"
    with (game / "game.yaml").open("a", encoding="utf-8") as file:
        file.write("\nbooklet:\n  template: sampler/rules.xml.j2\n")
    images = game / "images"
    images.mkdir()
    (images / "diagram.svg").write_text(SVG, encoding="utf-8")
    _photo(images / "photo.png")
    _photo(images / "photo.jpg", kind="JPEG")
    (templates / "sampler" / "rules.xml.j2").write_text(BOOKLET, encoding="utf-8")
    (templates / "sampler" / "aid-front.j2").write_text(AID, encoding="utf-8")
    (templates / "sampler" / "token.j2").write_text(TOKEN, encoding="utf-8")
    # an SVG as a face's art: the tokens' back
    faces = game / "faces.yaml"
    text = faces.read_text(encoding="utf-8")
    back = text.index("    background: red\n", text.index("  token-back:")) + len(
        "    background: red\n"
    )
    faces.write_text(
        text[:back]
        + "    shapes:\n      emblem: {kind: image, src: images/diagram.svg, x: 10mm, y: 60mm, "
        "width: 40mm, height: 20mm}\n" + text[back:],
        encoding="utf-8",
    )
    return data, templates


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    return make_project(tmp_path_factory.mktemp("images"))


def _build(data: Path, templates: Path, out: Path, **settings):
    settings = {"games": ["sampler"], "langs": ["en"], "papers": ["a4"], "jobs": 1, **settings}
    result = build(data, out, templates_dir=templates, **settings)
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return result


@pytest.fixture(scope="module")
def built(project, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    _build(*project, out)
    return out / "sampler" / "en"


def _copy(project: tuple[Path, Path], root: Path) -> tuple[Path, Path]:
    data, templates = root / "data", root / "templates"
    shutil.copytree(project[0], data)
    shutil.copytree(project[1], templates)
    return data, templates


def _page_of(pdf: Path, marker: str) -> int:
    return next(
        index
        for index, page in enumerate(PdfReader(pdf).pages)
        if marker in (page.extract_text() or "")
    )


def _image_xobjects(pdf: Path, index: int) -> int:
    """Image XObjects the page draws, in its forms too."""
    with pikepdf.open(pdf) as document:
        seen, count = set(), 0

        def walk(resources) -> None:
            nonlocal count
            for _, item in (resources.get("/XObject") or {}).items():
                if item.objgen in seen:
                    continue
                seen.add(item.objgen)
                if item.get("/Subtype") == "/Image":
                    count += 1
                elif "/Resources" in item:
                    walk(item.Resources)

        walk(document.pages[index].Resources)
        return count


def _pixels(pdf: Path, index: int, colour, scale: float = 1.0) -> np.ndarray:
    """A mask of the page's pixels within a few levels of `colour`."""
    document = pypdfium2.PdfDocument(str(pdf))
    image = np.asarray(document[index].render(scale=scale).to_pil().convert("RGB")).astype(int)
    document.close()
    return np.abs(image - np.array(colour)).sum(axis=2) < 24


# --- booklets ---------------------------------------------------------------------------------
def test_an_svg_in_a_booklet_is_drawn_as_vectors_never_as_an_image(built):
    booklet = built / "sampler-en-rules-a5.pdf"
    page = _page_of(booklet, "VECTORPAGE")
    assert _image_xobjects(booklet, page) == 0
    with pikepdf.open(booklet) as document:
        content = (
            b"".join(pikepdf.Page(document.pages[page]).contents_coalesce() or [])
            or document.pages[page].Contents.read_bytes()
        )
    assert b" re" in content or b" l" in content  # paths: its rectangle and triangle
    blue = _pixels(booklet, page, BLUE)
    assert blue.sum() > 2000  # drawn, 60 mm wide
    rows, columns = np.nonzero(blue)
    width_mm = (columns.max() - columns.min() + 1) * 25.4 / 72
    assert 57 < width_mm < 62  # at its width, its proportions kept (half as tall)
    assert 27 < (rows.max() - rows.min() + 1) * 25.4 / 72 < 32
    assert "A diagram, in vectors." in PdfReader(booklet).pages[page].extract_text()


def test_png_and_jpeg_are_placed_as_images_left_and_right(built):
    booklet = built / "sampler-en-rules-a5.pdf"
    page = _page_of(booklet, "PHOTOPAGE")
    assert _image_xobjects(booklet, page) == 2
    green = _pixels(booklet, page, (40, 160, 60))
    columns = np.nonzero(green.any(axis=0))[0]
    width = green.shape[1]
    assert columns.min() < width * 0.2 and columns.max() > width * 0.6  # one left, one right


def test_a_figure_is_never_parted_from_its_caption(built):
    booklet = built / "sampler-en-rules-a5.pdf"
    first = _page_of(booklet, "KEPTPAGE")
    caption = _page_of(booklet, "KEPTCAPTION")
    assert caption == first + 1  # no room under the spacer: the figure moved, whole
    assert _pixels(booklet, caption, BLUE).sum() > 2000
    assert _pixels(booklet, first, BLUE).sum() == 0


# --- frames -----------------------------------------------------------------------------------
def test_an_image_wider_than_its_frame_is_scaled_down_to_it(built):
    aid = built / "sampler-en-aid-a4.pdf"  # two aids a page, scaled alike
    left = slice(0, 421)
    blue = _pixels(aid, 0, BLUE, scale=2)[:, : left.stop * 2]
    band = _pixels(aid, 0, (0xB2, 0x2A, 0x1E), scale=2)[:, : left.stop * 2]  # its 30 mm band

    def width(mask) -> int:
        columns = np.nonzero(mask.any(axis=0))[0]
        return int(columns.max() - columns.min() + 1)

    # the frame's 120 mm, four times the band, not the 200 asked for
    assert 3.9 < width(blue) / width(band) < 4.1


def test_fitting_counts_an_images_height(project, tmp_path):
    """The aid's body frame is 100 mm tall: its line of text fits under a picture 80 mm tall
    (must-pass), not under one 100 mm tall (must-catch: text-overflow, said at the text)."""
    data, templates = _copy(project, tmp_path)
    tall = SVG.replace(
        'width="100" height="50" viewBox="0 0 100 50"',
        'width="50" height="100" viewBox="0 0 100 50" preserveAspectRatio="none"',
    )
    (data / "sampler" / "images" / "tall.svg").write_text(tall, encoding="utf-8")
    aid = templates / "sampler" / "aid-front.j2"
    for width, fits in (("40mm", True), ("50mm", False)):
        aid.write_text(
            AID.replace(
                'src="images/diagram.svg" width="200mm"', f'src="images/tall.svg" width="{width}"'
            ),
            encoding="utf-8",
        )
        report, checked = check(data, templates_dir=templates, games=["sampler"], langs=["en"])
        overflow = [d for d in report.items if d.code == "text-overflow"]
        if fits:
            assert not overflow, [d.format() for d in overflow]
            assert checked is not None
        else:
            assert overflow and "frame 'body'" in overflow[0].message, [
                d.format() for d in report.items
            ]


def test_an_svg_image_shape_is_vector_art_on_the_face(built):
    tokens = built / "sampler-en-tokens-a4.pdf"
    backs = [i for i in range(len(PdfReader(tokens).pages)) if _pixels(tokens, i, BLUE).sum()]
    assert backs  # the backs' emblem
    assert all(_image_xobjects(tokens, i) <= 1 for i in backs)  # (the fronts' JPEG, once)


# --- press files ------------------------------------------------------------------------------
def test_a_cmyk_shop_gets_the_svg_in_cmyk_and_its_files_pass_preflight(project, tmp_path):
    from printshop.checks.preflight import preflight, shop_trims
    from printshop.project.loader import load_project

    _build(*project, tmp_path, target="shop", profiles=["eu-3mm"])
    loaded = load_project(project[0], project[1], games=["sampler"])
    profile = loaded.profiles["eu-3mm"]
    files = sorted((tmp_path / "sampler").rglob("*.pdf"))
    booklet = [path for path in files if "rules" in path.name]
    assert booklet, files
    for path in files:
        assert preflight(path, profile, shop_trims(loaded.media, profile)) == [], path
    page = _page_of(booklet[0], "VECTORPAGE")
    with pikepdf.open(booklet[0]) as document:
        content = pikepdf.Page(document.pages[page]).contents_coalesce()
        data = document.pages[page].Contents.read_bytes()
    assert b" k" in data and b" rg" not in data, content  # CMYK fills, no RGB


# --- the cache and a session ------------------------------------------------------------------
def test_a_changed_svg_or_png_builds_again(project, tmp_path):
    data, templates = _copy(project, tmp_path / "p")
    out = tmp_path / "out"
    _build(data, templates, out)
    booklet = out / "sampler" / "en" / "sampler-en-rules-a5.pdf"
    before = booklet.read_bytes()
    svg = data / "sampler" / "images" / "diagram.svg"
    svg.write_text(SVG.replace("#1f6fb2", "#2f8f3f"), encoding="utf-8")
    result = _build(data, templates, out)
    assert booklet in result.written and result.up_to_date is None, result
    assert booklet.read_bytes() != before
    assert _pixels(booklet, _page_of(booklet, "VECTORPAGE"), (0x2F, 0x8F, 0x3F)).sum() > 2000
    before = booklet.read_bytes()
    Image.new("RGB", (600, 400), (10, 10, 200)).save(data / "sampler" / "images" / "photo.png")
    result = _build(data, templates, out)
    assert booklet in result.written, result
    assert _pixels(booklet, _page_of(booklet, "PHOTOPAGE"), (10, 10, 200)).sum() > 1000


def test_a_session_draws_an_edited_svg_again(project, tmp_path):
    from printshop.live.session import Session

    data, templates = _copy(project, tmp_path / "p")
    out = tmp_path / "out"
    session = Session(data, out, templates_dir=templates, games=["sampler"], langs=["en"])
    first = session.refresh()
    assert first.ok, [d.format() for d in first.report.errors]
    booklet = out / "sampler" / "en" / "sampler-en-rules-a5.pdf"
    before = booklet.read_bytes()
    svg = data / "sampler" / "images" / "diagram.svg"
    svg.write_text(SVG.replace("#1f6fb2", "#2f8f3f"), encoding="utf-8")
    update = session.refresh({svg})
    assert update.ok and booklet in update.written, update.written
    assert booklet.read_bytes() != before
    # a raster image of a card's frame: the cards drawn again
    tokens = out / "sampler" / "en" / "sampler-en-tokens-a4.pdf"
    before = tokens.read_bytes()
    photo = data / "sampler" / "images" / "photo.jpg"
    Image.new("RGB", (600, 400), (10, 10, 200)).save(photo, "JPEG")
    update = session.refresh({photo})
    assert update.ok and tokens in update.written, update.written
    assert tokens.read_bytes() != before
    cold = tmp_path / "cold"
    _build(data, templates, cold)
    for made in (booklet, tokens):
        assert (cold / "sampler" / "en" / made.name).read_bytes() == made.read_bytes()


# --- bad input: each said at the template's line, nothing written -----------------------------
def _jpeg_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 300), "white").save(buffer, "JPEG")
    return buffer.getvalue()


BAD = [
    # (name, the <img> or <figure> written, files to add, code, needle, hint says)
    ("missing", '<img src="images/nope.png" width="20mm"/>', {}, "file-missing", "nope.png", "put"),
    (
        "outside",
        '<img src="../print/outside.png" width="20mm"/>',
        {"../print/outside.png": "png"},
        "unsafe-path",
        "outside.png",
        "copy",
    ),
    (
        "jpeg-named-png",
        '<img src="images/fake.png" width="20mm"/>',
        {"images/fake.png": _jpeg_bytes()},
        "wrong-type",
        "fake.png",
        "save",
    ),
    (
        "text-named-png",
        '<img src="images/text.png" width="20mm"/>',
        {"images/text.png": b"hello"},
        "wrong-type",
        "text.png",
        "save",
    ),
    (
        "malformed-svg",
        '<img src="images/broken.svg" width="20mm"/>',
        {"images/broken.svg": b"<svg xmlns='http://www.w3.org/2000/svg'><rect"},
        "wrong-type",
        "broken.svg",
        "save",
    ),
    (
        "not-an-svg",
        '<img src="images/page.svg" width="20mm"/>',
        {"images/page.svg": b"<html><body>hello</body></html>"},
        "wrong-type",
        "page.svg",
        "save",
    ),
    (
        "svg-links-a-file",
        '<img src="images/linking.svg" width="20mm"/>',
        {
            "images/linking.svg": b'<svg xmlns="http://www.w3.org/2000/svg" '
            b'xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
            b'<image xlink:href="../../secret.png" width="10" height="10"/></svg>',
        },
        "wrong-type",
        "linking.svg",
        "save",
    ),
    (
        "gif",
        '<img src="images/still.gif" width="20mm"/>',
        {"images/still.gif": "gif"},
        "wrong-type",
        "still.gif",
        ".svg",
    ),
    (
        "low-dpi",
        '<img src="images/small.png" width="60mm"/>',
        {"images/small.png": "small"},
        "image-resolution",
        "small.png",
        "at least",
    ),
    (
        "no-caption",
        '<figure><img src="images/diagram.svg"/></figure>',
        {},
        "template",
        "<figure",
        "",
    ),
    ("no-img", "<figure><caption>Alone</caption></figure>", {}, "template", "<figure", ""),
    ("width", '<img src="images/diagram.svg" width="60"/>', {}, "template", 'width="60"', "unit"),
    (
        "height",
        '<img src="images/diagram.svg" height="-2mm"/>',
        {},
        "template",
        'height="-2mm"',
        "",
    ),
    (
        "align",
        '<img src="images/diagram.svg" align="middle"/>',
        {},
        "template",
        'align="middle"',
        "left",
    ),
]


def _write(game: Path, name: str, content) -> None:
    path = game / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if content == "png":
        _photo(path)
    elif content == "gif":
        Image.new("RGB", (600, 600), "white").save(path, "GIF")
    elif content == "small":
        Image.new("RGB", (100, 100), "white").save(path, "PNG")
    else:
        path.write_bytes(content)


@pytest.mark.parametrize("name, markup, files, code, needle, hint", BAD, ids=[b[0] for b in BAD])
def test_bad_images_are_said_at_the_templates_line(
    project, tmp_path, name, markup, files, code, needle, hint
):
    data, templates = _copy(project, tmp_path)
    for file, content in files.items():
        _write(data / "sampler", file, content)
    rules = templates / "sampler" / "rules.xml.j2"
    rules.write_text(BOOKLET + "\n<p>After.</p>\n" + markup + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = build(
        data, out, templates_dir=templates, games=["sampler"], langs=["en"], papers=["a4"], jobs=1
    )
    said = [d for d in result.report.items if d.code == code]
    assert said, [d.format() for d in result.report.items]
    assert said[0].location.path == str(rules)
    assert said[0].location.line == line_of(rules, needle)
    assert hint in said[0].hint
    assert not list(out.rglob("*.pdf"))  # nothing written


@pytest.mark.parametrize("name, markup, files, code, needle, hint", BAD, ids=[b[0] for b in BAD])
def test_good_images_pass_where_the_bad_ones_fail(
    project, tmp_path, name, markup, files, code, needle, hint
):
    """The must-pass twin of each: the same place with what it should say."""
    data, templates = _copy(project, tmp_path)
    good = {
        "template": '<figure><img src="images/diagram.svg" width="40mm" align="left"/>'
        "<caption>Fine.</caption></figure>",
        "image-resolution": '<img src="images/small.png" width="15mm"/>',
    }
    _write(data / "sampler", "images/small.png", "small")
    rules = templates / "sampler" / "rules.xml.j2"
    fixed = good.get(code, '<img src="images/photo.png" height="20mm"/>')
    rules.write_text(BOOKLET + "\n<p>After.</p>\n" + fixed + "\n", encoding="utf-8")
    report, _ = check(data, templates_dir=templates, games=["sampler"])
    assert not [d for d in report.items if d.code == code], [d.format() for d in report.items]


def test_a_bad_svg_shape_is_said_at_faces_yaml(project, tmp_path):
    data, templates = _copy(project, tmp_path)
    (data / "sampler" / "images" / "diagram.svg").write_text("<svg", encoding="utf-8")
    (templates / "sampler" / "rules.xml.j2").write_text("<p>No images.</p>", encoding="utf-8")
    for name in ("aid-front.j2", "token.j2"):
        path = templates / "sampler" / name
        path.write_text(
            path.read_text(encoding="utf-8")
            .replace('<img src="images/diagram.svg" width="200mm"/>', "")
            .replace('<img src="images/photo.jpg" width="20mm"/>', ""),
            encoding="utf-8",
        )
    report, _ = check(data, templates_dir=templates, games=["sampler"])
    said = [d for d in report.items if d.code == "wrong-type"]
    assert said and said[0].location.path.endswith("faces.yaml"), [d.format() for d in said]
    assert "SVG" in said[0].message


def test_the_kremlin_board_svg_is_what_its_script_writes():
    from tests.make_kremlin_board import OUT, board_svg

    assert OUT.read_text(encoding="utf-8") == board_svg()
    assert OUT.is_relative_to(REPO / "data" / "kremlin")


@pytest.mark.parametrize(
    "width, home, shops",
    [("22mm", True, True), ("15mm", False, True), ("8mm", False, False)],
)
def test_a_frames_raster_image_is_checked_at_the_width_it_takes(
    project, tmp_path, width, home, shops
):
    """A 100 px PNG on a token: 115 dpi at 22 mm (image-resolution: a home print needs 150), 169
    at 15 mm (press-art: the shops need 300), 317 at 8 mm (fine everywhere)."""
    data, templates = _copy(project, tmp_path)
    _write(data / "sampler", "images/small.png", "small")
    token = templates / "sampler" / "token.j2"
    token.write_text(
        TOKEN.replace(
            'src="images/photo.jpg" width="20mm"', f'src="images/small.png" width="{width}"'
        ),
        encoding="utf-8",
    )
    report, _ = check(data, templates_dir=templates, games=["sampler"], langs=["en"])
    for code, expected in (("image-resolution", home), ("press-art", shops and not home)):
        said = [d for d in report.items if d.code == code and "small.png" in d.message]
        assert bool(said) == expected, (code, [d.format() for d in report.items])
        if said:
            assert said[0].location.path == str(token)
            assert said[0].location.line == line_of(token, "small.png")
            assert said[0].hint


def test_an_svg_using_its_own_parts_is_drawn(project, tmp_path):
    """The must-pass twin of an SVG linking a file: `<use href="#…">` and a data: URI are its own."""
    data, templates = _copy(project, tmp_path)
    own = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="100" height="50"><defs><rect id="r" width="100" height="50" fill="#1f6fb2"/></defs>'
        '<use xlink:href="#r"/><use href="#r" x="0"/></svg>'
    )
    (data / "sampler" / "images" / "diagram.svg").write_text(own, encoding="utf-8")
    report, _ = check(data, templates_dir=templates, games=["sampler"], langs=["en"])
    assert not report.has_errors, [d.format() for d in report.errors]


@pytest.mark.parametrize("alpha", [True, False])
def test_a_transparent_picture_in_a_frame_is_said_to_flatten_over_white(project, tmp_path, alpha):
    """CMYK press files flatten a frame's picture over paper white: said for one with transparent
    parts (must-catch), not for an opaque one (must-pass)."""
    data, templates = _copy(project, tmp_path)
    picture = Image.new("RGBA" if alpha else "RGB", (600, 400), (200, 40, 40))
    picture.save(data / "sampler" / "images" / "photo.png")
    token = templates / "sampler" / "token.j2"
    token.write_text(TOKEN.replace("photo.jpg", "photo.png"), encoding="utf-8")
    report, _ = check(data, templates_dir=templates, games=["sampler"], langs=["en"])
    said = [d for d in report.items if d.code == "press-art" and "transparent" in d.message]
    assert bool(said) == alpha, [d.format() for d in report.items]
    if said:
        assert said[0].location.path == str(token) and said[0].hint
