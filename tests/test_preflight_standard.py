"""Preflight against the requirement table (docs/preflight.md), not a list of cases: real press
files printshop builds for three shops (PDF/X-1a, PDF/X-4 and no PDF/X) altered by a generator, one
requirement at a time, on several pages, each alteration beside a valid twin that must pass; files
rewritten by other producers (Ghostscript's pdfwrite, qpdf --linearize, page labels or Keywords
removed) that must pass; and the ink model's worst point against Ghostscript's separations."""

from __future__ import annotations

import shutil
import subprocess
import zlib
from dataclasses import dataclass
from typing import Callable

import numpy
import pikepdf
import pytest
from PIL import Image

from printshop.checks.preflight import preflight, shop_trims
from printshop.checks.preflight.ink import FileInks, PageInk
from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.conftest import shared_build, unknown

PROFILES = ("drivethrucards", "meinspiel", "printninja")  # PDF/X-1a, PDF/X-4, no PDF/X
PAGES = (1, 2, -1)  # a back, a front (or two fronts) and the last page
CARDS = {
    "drivethrucards": "comrade-en-cards.pdf",
    "meinspiel": "comrade-en-cards-fronts.pdf",
    "printninja": "comrade-en-cards.pdf",
}


@pytest.fixture(scope="module")
def press(tmp_path_factory):
    out, _ = shared_build(
        tmp_path_factory, games=["comrade"], langs=["en"], target="shop", profiles=list(PROFILES)
    )
    return out / "comrade" / "en" / "press"


@pytest.fixture(scope="module")
def project():
    return load_project(DEFAULT_DATA_DIR, games=[])


def problems(path, profile_name, project):
    profile = project.profiles[profile_name]
    return preflight(path, profile, shop_trims(project.media, profile))


def errors(found) -> list[str]:
    return [f"page {p.page}: {p.message}" for p in found if not p.warning]


# --- the generator: one alteration a requirement, and its valid twin
# ----------------------------------
def on_page(change: Callable) -> Callable:
    """An alteration `change(pdf, page)` made on the page of the test's parameter."""

    def alter(pdf, number):
        page = pdf.pages[number]
        page.obj.Resources = pikepdf.Dictionary(page.obj.Resources)
        change(pdf, page)

    return alter


def whole(change: Callable) -> Callable:
    return lambda pdf, number: change(pdf)


def paint(content: bytes, overprint_mode: int = 1, **xobjects) -> Callable:
    """Paint `content` on the page, with /GSop an overprinting graphics state, /GSht one with a
    halftone of type 6 and `xobjects` (name -> a function of the file making it)."""

    def change(pdf, page):
        states = pikepdf.Dictionary(page.obj.Resources.get("/ExtGState", {}))
        states["/GSop"] = pikepdf.Dictionary(OP=True, op=True, OPM=overprint_mode)
        threshold = pdf.make_stream(bytes(16), HalftoneType=6, Width=4, Height=4)
        states["/GSht"] = pikepdf.Dictionary(HT=threshold)
        states["/GSht1"] = pikepdf.Dictionary(HT=pikepdf.Dictionary(HalftoneType=1))
        page.obj.Resources.ExtGState = states
        with_resources(pdf, page, "/XObject", xobjects)
        page.contents_add(pdf.make_stream(b"q " + content + b" Q"), prepend=False)

    return on_page(change)


def with_resources(pdf, page, kind: str, makers: dict) -> None:
    """Resources of `kind` (/XObject, /ColorSpace) added to the page: name -> a function of the
    file making it."""
    table = pikepdf.Dictionary(page.obj.Resources.get(kind, {}))
    for name, make in makers.items():
        table[f"/{name}"] = make(pdf)
    page.obj.Resources[kind] = table


def annotation(flags: int, subtype: str = "/Text", **keys) -> Callable:
    def change(pdf, page):
        trim = [float(v) for v in page.obj.TrimBox]
        note = pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Annot,
                Subtype=pikepdf.Name(subtype),
                Rect=[trim[0] + 20, trim[1] + 20, trim[0] + 40, trim[1] + 40],
                F=flags,
                Contents=pikepdf.String("a note"),
                **keys,
            )
        )
        page.obj.Annots = pikepdf.Array([note])

    return on_page(change)


def javascript(pdf) -> pikepdf.Dictionary:
    return pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)"))


def form_field(pdf):
    widget = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.Widget,
            FT=pikepdf.Name.Tx,
            T=pikepdf.String("name"),
            Rect=[0, 0, 0, 0],
            F=4,
        )
    )
    pdf.Root.AcroForm = pikepdf.Dictionary(Fields=[widget])


def layers(**config):
    def change(pdf):
        group = pdf.make_indirect(
            pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name=pikepdf.String("notes"))
        )
        default = pikepdf.Dictionary(OFF=[group], **config)
        pdf.Root.OCProperties = pikepdf.Dictionary(OCGs=[group], D=default)

    return whole(change)


def rotate(degrees: int):
    def change(pdf, page):
        page.obj.Rotate = degrees

    return on_page(change)


def larger_trim(pdf, number, pages=None):
    """The page 3 pt wider and taller (trim, bleed and media alike): a card of a size the shop
    does not make, and no Keywords to say whose file it is."""
    del pdf.docinfo["/Keywords"]
    for page in pages if pages is not None else [pdf.pages[number]]:
        for key in ("/MediaBox", "/BleedBox", "/TrimBox", "/CropBox"):
            if key in page.obj:
                x0, y0, x1, y1 = (float(v) for v in page.obj[key])
                page.obj[key] = [x0, y0, x1 + 3, y1 + 3]


def no_keywords(pdf, number):
    del pdf.docinfo["/Keywords"]


def drop_intent_profile(pdf):
    del pdf.Root.OutputIntents[0]["/DestOutputProfile"]


def drop_xmp(pdf):
    del pdf.Root["/Metadata"]


def xmp_saying(version: str):
    def change(pdf):
        data = pdf.Root.Metadata.read_bytes().replace(b"PDF/X-4", version.encode())
        pdf.Root.Metadata = pdf.make_stream(
            data, Type=pikepdf.Name.Metadata, Subtype=pikepdf.Name.XML
        )

    return whole(change)


def box(key: str, grow: float):
    """The page's `key` box `grow` points larger on every side (smaller when negative)."""

    def change(pdf, page):
        x0, y0, x1, y1 = (float(v) for v in page.obj.get(key, page.mediabox))
        page.obj[key] = [x0 - grow, y0 - grow, x1 + grow, y1 + grow]

    return on_page(change)


def drop(*keys: str, where=lambda pdf: pdf.docinfo) -> Callable:
    def change(pdf):
        for key in keys:
            del where(pdf)[key]

    return whole(change)


def picture(compression: str):
    """A 2 × 2 CMYK image, compressed as `compression` says (LZW's stream is a stand-in: the
    filter is refused before anything is decoded)."""

    def make(pdf):
        data = zlib.compress(bytes(16)) if compression == "/FlateDecode" else bytes(16)
        stream = pdf.make_stream(
            b"", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2, Height=2,
            BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceCMYK,
        )  # fmt: skip
        stream.write(data, filter=pikepdf.Name(compression))  # written as it is, already encoded
        return stream

    return make


def postscript(pdf):
    return pdf.make_stream(
        b"% a PostScript fragment", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.PS
    )


def form(pdf):
    return pdf.make_stream(
        b"0 0 0 1 k 0 0 1 1 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
        BBox=[0, 0, 1, 1],
    )  # fmt: skip


def art_box(pdf, page):
    page.obj.ArtBox = page.obj.TrimBox


UNCHANGED = whole(lambda pdf: None)
PLACED = b"0.4 0 0 0.4 20 20 cm /X9 Do"  # 360 dpi
PDFX = ("drivethrucards", "meinspiel")
WHITE = b"/GSop gs 0 0 0 0 k 20 20 40 40 re f"
WHITE_TEXT = b"/GSop gs 0 0 0 0 k BT /FWhite 12 Tf 20 20 Td (Vanish) Tj ET"
RICH = b"0 1 0.65 0 k 20 20 40 40 re f "  # 165 %, the shop's limits are 240 and 300 %
PALE = b"0 0 0 0 k 20 20 40 40 re f "  # paper white, knocking out what lies beneath


@dataclass(frozen=True)
class Requirement:
    """A row of docs/preflight.md: an alteration that breaks it (refused with `cause`, on the page
    or for the file), and one that keeps it (must pass)."""

    row: str
    breaks: Callable
    cause: str
    keeps: Callable
    profiles: tuple[str, ...] = PROFILES  # where the broken file is refused
    warned: tuple[str, ...] = ()  # where it passes with a warning instead
    on_the_page: bool = True


REQUIREMENTS = [
    Requirement(
        "information", drop("/Trapped"), "Trapped is neither True nor False", UNCHANGED,
        profiles=PDFX, on_the_page=False,
    ),
    Requirement(
        "information", drop("/Title"), "no Title in the document information",
        drop("/Subject"), profiles=PDFX, on_the_page=False,
    ),
    Requirement(
        "information", drop("/GTS_PDFXVersion"), "no GTS_PDFXVersion", UNCHANGED,
        profiles=PDFX, on_the_page=False,
    ),
    Requirement(
        "output intent", drop("/OutputIntents", where=lambda pdf: pdf.Root),
        "no PDF/X output intent", UNCHANGED, profiles=PDFX, on_the_page=False,
    ),
    Requirement(
        "boxes", on_page(art_box), "both a TrimBox and an ArtBox", UNCHANGED, profiles=PDFX
    ),
    Requirement(
        "compression", paint(PLACED, X9=picture("/LZWDecode")), "compressed with LZWDecode",
        paint(PLACED, X9=picture("/FlateDecode")), profiles=("drivethrucards",),
    ),
    Requirement(
        "postscript", paint(PLACED, X9=postscript), "PostScript XObject /X9",
        paint(PLACED, X9=form),
    ),
    Requirement(
        "halftones", paint(b"/GSht gs"), "a halftone of type 6", paint(b"/GSht1 gs"),
        profiles=PDFX,
    ),
    Requirement("boxes", box("/MediaBox", 5), "larger than its BleedBox", box("/CropBox", 0)),
    Requirement(
        "boxes", box("/BleedBox", 5), "the BleedBox reaches outside the MediaBox",
        box("/BleedBox", 0),
    ),
    Requirement(
        "annotations", annotation(4), "annotation inside the BleedBox", annotation(4 | 2),
        profiles=("drivethrucards", "meinspiel"), warned=("printninja",),
    ),
    Requirement(
        "annotations", annotation(4), "annotation inside the BleedBox",
        annotation(4, "/PrinterMark"), profiles=("drivethrucards", "meinspiel"),
        warned=("printninja",),
    ),
    Requirement(
        "actions",
        annotation(0, "/Link", A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI="https://x.org")),
        "annotation with an action", annotation(0, "/Link"),
        profiles=("drivethrucards", "meinspiel"), warned=("printninja",),
    ),
    Requirement(
        "actions", whole(lambda pdf: setattr(pdf.Root, "OpenAction", javascript(pdf))),
        "an OpenAction in the catalog", whole(lambda pdf: None),
        profiles=("drivethrucards", "meinspiel"), warned=("printninja",), on_the_page=False,
    ),
    Requirement(
        "javascript",
        whole(lambda pdf: setattr(pdf.Root, "Names", pikepdf.Dictionary(JavaScript=pikepdf.Dictionary(Names=[])))),  # noqa: E501
        "JavaScript in the document's names", whole(lambda pdf: None),
        profiles=("drivethrucards", "meinspiel"), warned=("printninja",), on_the_page=False,
    ),
    Requirement(
        "actions",
        on_page(lambda pdf, page: setattr(page.obj, "AA", pikepdf.Dictionary(O=javascript(pdf)))),
        "page actions (AA)", whole(lambda pdf: None),
        profiles=("drivethrucards", "meinspiel"), warned=("printninja",),
    ),
    Requirement(
        "forms", whole(form_field), "form field(s) (AcroForm)",
        whole(lambda pdf: setattr(pdf.Root, "AcroForm", pikepdf.Dictionary(Fields=[]))),
        profiles=("drivethrucards", "meinspiel"), warned=("printninja",), on_the_page=False,
    ),
    Requirement(
        "optional content", layers(Name=pikepdf.String("print")), "optional content (layers",
        whole(lambda pdf: None), profiles=("drivethrucards",), warned=("printninja",),
        on_the_page=False,
    ),
    Requirement(
        "optional content", layers(), "optional-content configuration has no Name",
        layers(Name=pikepdf.String("print")), profiles=("meinspiel",), on_the_page=False,
    ),
    Requirement(
        "optional content", layers(Name=pikepdf.String("print"), AS=[]), "has AS",
        layers(Name=pikepdf.String("print")), profiles=("meinspiel",), on_the_page=False,
    ),
    Requirement(
        "output intent profile", whole(drop_intent_profile), "embeds no ICC profile",
        whole(lambda pdf: None), profiles=("meinspiel",), on_the_page=False,
    ),
    Requirement(
        "xmp", whole(drop_xmp), "no XMP metadata", xmp_saying("PDF/X-4"),
        profiles=("meinspiel",), on_the_page=False,
    ),
    Requirement(
        "xmp", xmp_saying("PDF/X-3:2002"), "the XMP metadata says PDF/X-3:2002",
        xmp_saying("PDF/X-4"), profiles=("meinspiel",), on_the_page=False,
    ),
    Requirement("rotation", rotate(90), "rotated 90°", rotate(0)),
    Requirement("rotation", rotate(270), "rotated 270°", rotate(360)),
    Requirement("card size", larger_trim, "trim is", no_keywords),
    Requirement(
        "white overprint", paint(WHITE), "white (no ink) set to overprint", paint(WHITE, 0)
    ),
    Requirement(
        "white overprint", paint(WHITE_TEXT), "white (no ink) set to overprint",
        paint(WHITE_TEXT.replace(b"/GSop gs ", b"")),
    ),
    Requirement(
        "overprint ink", paint(RICH + b"/GSop gs 0 0 0 1 k 30 30 10 10 re f"),
        "265 % total ink where overprint leaves ink beneath",
        paint(PALE + b"/GSop gs 0 0 0 1 k 30 30 10 10 re f"),
        profiles=("drivethrucards",),  # the others' limit is 300 %
    ),
]  # fmt: skip


def generate(original, tmp_path, alteration, number: int, name: str):
    with pikepdf.open(original) as pdf:
        index = number if number >= 0 else len(pdf.pages) + number
        font = next(iter(pdf.pages[1].obj.Resources.Font.keys()), "/F1")[1:]
        _with_font(pdf, index, font)
        alteration(pdf, index)
        path = tmp_path / name
        # as written: qpdf would otherwise decode the LZW stream and write it again with Flate
        pdf.save(path, stream_decode_level=pikepdf.StreamDecodeLevel.none, compress_streams=False)
    return path, index + 1


def _with_font(pdf, index: int, font: str) -> None:
    """The page's own resources with a font named as WHITE_TEXT asks (the file's first)."""
    page = pdf.pages[index]
    page.obj.Resources = pikepdf.Dictionary(page.obj.Resources)
    fonts = pikepdf.Dictionary(page.obj.Resources.get("/Font", {}))
    fonts["/FWhite"] = pdf.pages[1].obj.Resources.Font[f"/{font}"]
    page.obj.Resources.Font = fonts


def _cases():
    for requirement in REQUIREMENTS:
        for profile in (*requirement.profiles, *requirement.warned):
            for number in PAGES if requirement.on_the_page else (2,):
                yield pytest.param(
                    requirement, profile, number, id=f"{requirement.row}-{requirement.cause[:24]}-"
                    f"{profile}-page{number}".replace(" ", "_"),
                )  # fmt: skip


@pytest.mark.parametrize(("requirement", "profile", "number"), list(_cases()))
def test_each_requirement_refuses_what_breaks_it_and_passes_what_keeps_it(
    requirement, profile, number, press, project, tmp_path
):
    original = press / profile / CARDS[profile]
    broken, page = generate(original, tmp_path, requirement.breaks, number, "broken.pdf")
    found = problems(broken, profile, project)
    named = [p for p in found if requirement.cause in p.message]
    assert named, (requirement.cause, [p.message for p in found])
    if profile in requirement.warned:
        assert all(p.warning for p in named) and not errors(found)
    else:
        assert any(not p.warning for p in named)
        assert all(p.page == (page if requirement.on_the_page else 0) for p in named)
    kept, _ = generate(original, tmp_path, requirement.keeps, number, "kept.pdf")
    assert errors(problems(kept, profile, project)) == []


# --- valid files from other producers
# ----------------------------------------------------------
@pytest.mark.parametrize("profile", PROFILES)
def test_the_press_files_as_built_pass(press, project, profile):
    for path in sorted((press / profile).glob("*.pdf")):
        assert unknown(problems(path, profile, project), profile) == [], path.name


@pytest.mark.parametrize("profile", PROFILES)
def test_a_linearised_file_passes(press, project, profile, tmp_path):
    for path in sorted((press / profile).glob("*.pdf")):
        out = tmp_path / path.name
        subprocess.run(["qpdf", "--linearize", str(path), str(out)], check=True)
        assert unknown(problems(out, profile, project), profile) == [], path.name


@pytest.mark.parametrize("profile", ("drivethrucards", "printninja"))
def test_a_file_rewritten_by_ghostscript_passes_where_pdfx_is_not_asked(
    press, project, profile, tmp_path
):
    """Ghostscript's pdfwrite keeps the boxes, colours and page labels but not the PDF/X keys: the
    file passes a CMYK shop's rules without PDF/X. Told not to, it turns no page; left to its
    default it turns pages of upside-down text a half turn, which is a warning."""
    original = press / profile / CARDS[profile]
    shop = project.profiles[profile].model_copy(update={"pdfx": None})
    trims = shop_trims(project.media, shop)
    out = tmp_path / "gs.pdf"
    command = ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
               "-dColorConversionStrategy=/LeaveColorUnchanged", f"-sOutputFile={out}"]  # fmt: skip
    subprocess.run([*command, "-dAutoRotatePages=/None", str(original)], check=True)
    assert preflight(out, shop, trims) == []
    subprocess.run([*command, str(original)], check=True)
    turned = preflight(out, shop, trims)
    assert all(p.warning and "rotated 180°" in p.message for p in turned)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_file_whose_page_labels_were_dropped_passes_with_a_warning(
    press, project, profile, tmp_path
):
    path, _ = generate(
        press / profile / CARDS[profile], tmp_path,
        whole(lambda pdf: pdf.Root.__delitem__("/PageLabels")), 1, "unlabelled.pdf",
    )  # fmt: skip
    found = problems(path, profile, project)
    assert errors(found) == []
    assert [p.message for p in found if "page order cannot be read" in p.message]


def test_a_card_file_without_keywords_is_still_a_card_file(press, project, tmp_path):
    """Known by its pages' size: out of order, it is refused with or without the Keywords."""

    def swapped(pdf, number):  # the first card's front labelled, and so read, before its back
        nums = pdf.Root.PageLabels.Nums
        nums[1].P, nums[3].P = nums[3].P, nums[1].P

    original = press / "drivethrucards" / CARDS["drivethrucards"]
    with_keywords, _ = generate(original, tmp_path, swapped, 0, "swapped.pdf")

    def swapped_anonymous(pdf, number):
        swapped(pdf, number)
        no_keywords(pdf, number)

    without, _ = generate(original, tmp_path, swapped_anonymous, 0, "anonymous.pdf")
    for path in (with_keywords, without):
        assert any(
            "card 1: front before back" in e
            for e in errors(problems(path, "drivethrucards", project))
        )


def test_a_card_file_from_another_tool_at_the_wrong_size_is_refused(press, project, tmp_path):
    """Every page 64.6 × 90.0 mm for DriveThruCards' 63.5 × 88.9, no Keywords: refused page by
    page, as printshop's own file would be."""
    original = press / "drivethrucards" / CARDS["drivethrucards"]
    path, _ = generate(
        original, tmp_path, lambda pdf, n: larger_trim(pdf, n, pdf.pages), 0, "wrong-size.pdf"
    )
    refused = errors(problems(path, "drivethrucards", project))
    with pikepdf.open(path) as pdf:
        pages = len(pdf.pages)
    assert len([e for e in refused if "trim is 64.6 × 90.0 mm" in e]) == pages


def test_a_booklet_without_keywords_is_not_a_card_file(press, project, tmp_path):
    path, _ = generate(
        press / "drivethrucards" / "comrade-en-rules.pdf", tmp_path, no_keywords, 0, "rules.pdf"
    )
    assert problems(path, "drivethrucards", project) == []


# --- the ink model against a rendering of the separations
# --------------------------------------
def rendered_worst(path, page: int) -> float:
    """The worst point of page `page`'s separations, rendered by Ghostscript at 150 dpi."""
    out = path.parent / f"sep-{page}.tif"
    subprocess.run(
        ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-r150",
         f"-dFirstPage={page}", f"-dLastPage={page}", f"-sOutputFile={out}", str(path)],
        check=True,
    )  # fmt: skip
    total = sum(
        (255 - numpy.asarray(Image.open(plate), dtype=float)) * (100 / 255)
        for plate in path.parent.glob(f"sep-{page}(*).tif")
    )
    return float(numpy.max(total))


def model_worst(path, page: int, profile) -> float:
    with pikepdf.open(path) as pdf:
        reading = PageInk(pdf, pdf.pages[page - 1], profile, FileInks(path))
        reading.read()
        return reading.worst


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript renders the separations")
@pytest.mark.parametrize(
    ("profile", "number", "content"),
    [
        ("drivethrucards", 1, b""),
        ("drivethrucards", 2, b""),
        ("drivethrucards", -1, b""),
        ("meinspiel", 2, b""),
        # a K100 rule overprinting the card's pale panel: the model alone would put it on the
        # heaviest colour of the page (260 %); what prints is K100 on the panel's tint
        ("drivethrucards", 2, b"/GSop gs 0 0 0 1 K 1 w 30 30 m 30 70 l S"),
        ("drivethrucards", 2, b"/GSop gs 0 0 0 1 K 3 w 0 135 m 198 135 l S"),
        ("drivethrucards", 1, RICH + b"/GSop gs 0 0 0 0.5 k 30 30 10 10 re f"),
    ],
)
def test_the_models_worst_point_agrees_with_the_rendered_separations(
    press, project, tmp_path, profile, number, content
):
    original = press / profile / CARDS[profile]
    path, page = generate(original, tmp_path, paint(content), number, "page.pdf")
    model = model_worst(path, page, project.profiles[profile])
    measured = rendered_worst(path, page)
    assert abs(model - measured) <= 0.02 * measured, (model, measured)
