"""Preflight against a corpus of broken press files: a real DriveThruCards file built once, then
altered with pikepdf the ordinary ways files go wrong (one case per rule), each of which must be
refused with its page and cause, beside valid variants that must pass. Then PNG card faces."""

from __future__ import annotations

import re
import zlib

import pikepdf
import pytest
from PIL import Image

from printshop.checks.preflight import preflight, shop_trims
from printshop.cli import main
from printshop.project.loader import load_project
from printshop.project.models.profile import ProfileColour
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.conftest import shared_build

PAGE = 3  # the page every alteration is made on


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out, _ = shared_build(
        tmp_path_factory,
        games=["comrade"],
        langs=["en"],
        target="shop",
        profiles=["drivethrucards", "thegamecrafter"],
    )
    return out / "comrade" / "en" / "press"


@pytest.fixture(scope="module")
def project():
    return load_project(DEFAULT_DATA_DIR, games=[])


@pytest.fixture(scope="module")
def dtc(project):
    return project.profiles["drivethrucards"]


@pytest.fixture(scope="module")
def spots_taken(dtc):
    """DriveThruCards as if it printed spot colours: the ink of Separation and DeviceN colours
    measured apart from the spot-colour rule (tests/test_preflight_shop_rules.py)."""
    spot = dtc.rules.spot_colours.model_copy(update={"handling": "allowed"})
    return dtc.model_copy(update={"rules": dtc.rules.model_copy(update={"spot_colours": spot})})


@pytest.fixture(scope="module")
def cmyk_shop(dtc):
    """A CMYK shop with DriveThruCards' sizes and ink limit that does not ask for PDF/X-1a."""
    return dtc.model_copy(update={"pdfx": None})


@pytest.fixture(scope="module")
def original(built):
    return built / "drivethrucards" / "comrade-en-cards.pdf"


def check(path, profile, project):
    """Problems (warnings left out), as 'page N: message' lines."""
    return [
        f"page {p.page}: {p.message}"
        for p in preflight(path, profile, shop_trims(project.media, profile))
        if not p.warning
    ]


def variant(original, tmp_path, alter, name="variant.pdf", **save):
    """The press file altered by `alter(pdf, page)` on page 3, saved under another name."""
    with pikepdf.open(original) as pdf:
        page = pdf.pages[PAGE - 1]
        page.obj.Resources = pikepdf.Dictionary(page.obj.Resources)  # this page's own copy
        alter(pdf, page)
        path = tmp_path / name
        pdf.save(path, **save)
    return path


def draw(content: bytes, **resources):
    """An alteration that adds `resources` (kind -> {name: object}) to the page and paints
    `content`."""

    def alter(pdf, page):
        for kind, entries in resources.items():
            table = page.obj.Resources.get(f"/{kind}")
            table = pikepdf.Dictionary(table) if table is not None else pikepdf.Dictionary()
            for name, value in entries.items():
                table[f"/{name}"] = value(pdf) if callable(value) else value
            page.obj.Resources[f"/{kind}"] = table
        page.contents_add(pdf.make_stream(b"q " + content + b" Q"), prepend=False)

    return alter


def refused(problems, *causes):
    """Some problem on page 3 names every one of `causes`."""
    return any(
        line.startswith(f"page {PAGE}: ") and all(c in line for c in causes) for line in problems
    )


def icc(components: int):
    def make(pdf):
        if components == 3:
            from PIL import ImageCms

            data = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
        else:
            data = b"stand-in for a CMYK ICC profile: preflight reads /N"
        stream = pdf.make_stream(data)
        stream.N = components
        return pikepdf.Array([pikepdf.Name.ICCBased, stream])

    return make


def image(space, samples: bytes, width: int, height: int, **keys):
    def make(pdf):
        stream = pdf.make_stream(zlib.compress(samples))
        stream.Filter = pikepdf.Name.FlateDecode
        stream.Type, stream.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        stream.Width, stream.Height, stream.BitsPerComponent = width, height, 8
        stream.ColorSpace = space(pdf) if callable(space) else space
        for key, value in keys.items():
            stream[f"/{key}"] = value(pdf) if callable(value) else value
        return stream

    return make


PLACE = b"0.02 0 0 0.02 20 20 cm "  # 1 pixel = 0.02 pt: far above 300 dpi


def function2(c0, c1):
    return pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=c0, C1=c1, N=1)


# --- the file as built, and variants that stay valid
# --------------------------------------------------
def test_the_press_file_as_built_passes(original, dtc, project):
    assert check(original, dtc, project) == []


def test_a_page_without_bleedbox_has_its_bleed_in_the_mediabox(original, tmp_path, dtc, project):
    def alter(pdf, page):
        for each in pdf.pages:
            del each.obj["/BleedBox"]

    assert check(variant(original, tmp_path, alter), dtc, project) == []


def test_artbox_without_trimbox_is_a_warning(original, tmp_path, dtc, project, capsys):
    def alter(pdf, page):
        page.obj.ArtBox = page.obj.TrimBox
        del page.obj["/TrimBox"]

    path = variant(original, tmp_path, alter)
    found = preflight(path, dtc, shop_trims(project.media, dtc))
    assert [(p.page, p.warning) for p in found] == [
        (PAGE, True)
    ] and "no TrimBox: the ArtBox" in found[0].message
    assert main(["preflight", str(path), "--profile", "drivethrucards"]) == 0
    assert "variant.pdf: ok, 1 warning" in capsys.readouterr().out


def test_boxes_that_tell_no_trim_or_do_not_nest_are_refused(original, tmp_path, dtc, project):
    def no_trim(pdf, page):
        del page.obj["/TrimBox"]

    assert refused(
        check(variant(original, tmp_path, no_trim), dtc, project), "no TrimBox and BleedBox"
    )

    def trim_outside(pdf, page):
        page.obj.BleedBox = [9, 9, 150, 200]

    assert refused(
        check(variant(original, tmp_path, trim_outside), dtc, project),
        "TrimBox reaches outside the BleedBox",
    )


# --- colour: operators and spaces
# -------------------------------------------------------------------
def test_rgb_set_with_sc_in_an_iccbased_space(original, tmp_path, dtc, cmyk_shop, project):
    rgb = variant(
        original, tmp_path, draw(b"/CS9 cs 1 0 0 sc 0 0 20 20 re f", ColorSpace={"CS9": icc(3)})
    )
    assert refused(
        check(rgb, dtc, project), "RGB colour in a CMYK file", "ICCBased space /CS9 (3 components)"
    )
    assert refused(check(rgb, cmyk_shop, project), "RGB colour in a CMYK file")
    cmyk = variant(
        original,
        tmp_path,
        draw(b"/CS9 cs 0.2 0.5 0.5 0.2 sc 0 0 20 20 re f", ColorSpace={"CS9": icc(4)}),
    )
    assert check(cmyk, cmyk_shop, project) == []  # ICC-based CMYK within the limit
    assert refused(
        check(cmyk, dtc, project), "device-independent colour", "PDF/X-1a:2003 allows only CMYK"
    )
    heavy = variant(
        original, tmp_path, draw(b"/CS9 cs 1 1 1 0 sc 0 0 20 20 re f", ColorSpace={"CS9": icc(4)})
    )
    assert refused(
        check(heavy, cmyk_shop, project),
        "300 % total ink (the limit is 240 %)",
        "ICCBased space /CS9",
    )


def test_400_percent_set_with_sc_in_devicecmyk(original, tmp_path, dtc, project):
    path = variant(original, tmp_path, draw(b"/DeviceCMYK cs 1 1 1 1 sc 0 0 20 20 re f"))
    assert refused(
        check(path, dtc, project),
        "400 % total ink (the limit is 240 %)",
        "set with 'sc'",
        "painted with 'f'",
    )
    rich_black = variant(
        original, tmp_path, draw(b"/DeviceCMYK cs 0.6 0.4 0.4 1 sc 0 0 20 20 re f")
    )
    assert check(rich_black, dtc, project) == []


def test_rgb_and_ink_in_strokes_and_grey(original, tmp_path, dtc, project):
    stroke = variant(original, tmp_path, draw(b"1 1 1 1 K 0 0 m 20 20 l S"))
    assert refused(
        check(stroke, dtc, project), "400 % total ink", "stroke DeviceCMYK", "painted with 'S'"
    )
    rgb = variant(original, tmp_path, draw(b"0 0 1 RG 0 0 m 20 20 l S"))
    assert refused(check(rgb, dtc, project), "RGB colour in a CMYK file: set with 'RG'")
    grey = variant(original, tmp_path, draw(b"0 g 0 0 20 20 re f"))  # K100
    assert check(grey, dtc, project) == []


def test_indexed_spaces_by_their_base(original, tmp_path, dtc, project):
    rgb = variant(
        original,
        tmp_path,
        draw(
            b"/CS9 cs 1 sc 0 0 20 20 re f",
            ColorSpace={
                "CS9": pikepdf.Array(
                    [
                        pikepdf.Name.Indexed,
                        pikepdf.Name.DeviceRGB,
                        1,
                        pikepdf.String(b"\xff\0\0\0\xff\0"),
                    ]
                )
            },
        ),
    )
    assert refused(
        check(rgb, dtc, project), "RGB colour in a CMYK file", "Indexed space /CS9 on DeviceRGB"
    )
    palette = pikepdf.String(
        bytes([0, 0, 0, 255, 255, 255, 255, 255])
    )  # entry 0: K100; entry 1: 400 %
    cmyk = [pikepdf.Name.Indexed, pikepdf.Name.DeviceCMYK, 1, palette]
    light = variant(
        original,
        tmp_path,
        draw(b"/CS9 cs 0 sc 0 0 20 20 re f", ColorSpace={"CS9": pikepdf.Array(cmyk)}),
    )
    assert check(light, dtc, project) == []
    heavy = variant(
        original,
        tmp_path,
        draw(b"/CS9 cs 1 sc 0 0 20 20 re f", ColorSpace={"CS9": pikepdf.Array(cmyk)}),
    )
    assert refused(check(heavy, dtc, project), "400 % total ink", "Indexed space /CS9")


def separation(alternate, transform):
    return lambda pdf: pikepdf.Array(
        [
            pikepdf.Name.Separation,
            pikepdf.Name("/Gold"),
            alternate,
            transform(pdf) if callable(transform) else transform,
        ]
    )


def test_separation_colours_by_their_alternate(original, tmp_path, dtc, spots_taken, project):
    gold = separation(pikepdf.Name.DeviceCMYK, function2([0, 0, 0, 0], [0.1, 0.9, 0.9, 0]))
    path = variant(
        original, tmp_path, draw(b"/CS9 cs 1 scn 0 0 20 20 re f", ColorSpace={"CS9": gold})
    )
    assert check(path, spots_taken, project) == []  # 190 % at full tint
    assert refused(check(path, dtc, project), "spot colour 'Gold'", "takes CMYK only")
    rgb = separation(pikepdf.Name.DeviceRGB, function2([1, 1, 1], [0.8, 0.6, 0]))
    path = variant(
        original, tmp_path, draw(b"/CS9 cs 1 scn 0 0 20 20 re f", ColorSpace={"CS9": rgb})
    )
    assert refused(
        check(path, dtc, project),
        "RGB colour in a CMYK file",
        "Separation space /CS9 (Gold; alternate DeviceRGB)",
    )

    def sampled(pdf):  # type 0: tint 0 -> nothing, tint 1 -> 400 %
        stream = pdf.make_stream(bytes([0, 0, 0, 0, 255, 255, 255, 255]))
        stream.FunctionType, stream.Domain, stream.Range = 0, [0, 1], [0, 1] * 4
        stream.Size, stream.BitsPerSample = [2], 8
        return stream

    half = variant(
        original,
        tmp_path,
        draw(
            b"/CS9 cs 0.5 scn 0 0 20 20 re f",
            ColorSpace={"CS9": separation(pikepdf.Name.DeviceCMYK, sampled)},
        ),
    )
    assert check(half, spots_taken, project) == []  # 200 %
    full = variant(
        original,
        tmp_path,
        draw(
            b"/CS9 cs 1 scn 0 0 20 20 re f",
            ColorSpace={"CS9": separation(pikepdf.Name.DeviceCMYK, sampled)},
        ),
    )
    assert refused(check(full, dtc, project), "400 % total ink", "Separation space /CS9")


def test_devicen_with_a_calculator_tint_transform(original, tmp_path, dtc, spots_taken, project):
    def devicen(program: bytes):
        def make(pdf):
            function = pdf.make_stream(program)
            function.FunctionType, function.Domain, function.Range = 4, [0, 1, 0, 1], [0, 1] * 4
            return pikepdf.Array(
                [
                    pikepdf.Name.DeviceN,
                    [pikepdf.Name("/Gold"), pikepdf.Name("/Silver")],
                    pikepdf.Name.DeviceCMYK,
                    function,
                ]
            )

        return make

    light = variant(
        original,
        tmp_path,
        draw(
            b"/CS9 cs 1 1 scn 0 0 20 20 re f",
            ColorSpace={"CS9": devicen(b"{ 0.5 mul exch 0.5 mul exch 0 0 }")},
        ),
    )
    assert check(light, spots_taken, project) == []  # 100 %
    heavy = variant(
        original,
        tmp_path,
        draw(
            b"/CS9 cs 1 1 scn 0 0 20 20 re f",
            ColorSpace={"CS9": devicen(b"{ add 2 div dup dup dup }")},
        ),
    )
    assert refused(
        check(heavy, dtc, project), "400 % total ink", "DeviceN space /CS9 (Gold, Silver"
    )


def test_lab_colour_is_refused_in_a_cmyk_file(original, tmp_path, dtc, project):
    lab = pikepdf.Array([pikepdf.Name.Lab, pikepdf.Dictionary(WhitePoint=[0.9505, 1, 1.089])])
    path = variant(
        original, tmp_path, draw(b"/CS9 cs 50 20 20 sc 0 0 20 20 re f", ColorSpace={"CS9": lab})
    )
    assert refused(check(path, dtc, project), "Lab colour in a CMYK file", "Lab space /CS9")


def test_colour_inside_a_form_is_read_with_the_forms_resources(original, tmp_path, dtc, project):
    def form(content, **resources):
        def make(pdf):
            stream = pdf.make_stream(content)
            stream.Type, stream.Subtype, stream.BBox = (
                pikepdf.Name.XObject,
                pikepdf.Name.Form,
                [0, 0, 50, 50],
            )
            stream.Resources = pikepdf.Dictionary(
                {
                    f"/{k}": pikepdf.Dictionary({f"/{n}": v(pdf) for n, v in e.items()})
                    for k, e in resources.items()
                }
            )
            return stream

        return make

    rgb = variant(
        original,
        tmp_path,
        draw(
            b"/Fm9 Do",
            XObject={"Fm9": form(b"/CS1 cs 0 0 1 sc 0 0 20 20 re f", ColorSpace={"CS1": icc(3)})},
        ),
    )
    assert refused(check(rgb, dtc, project), "RGB colour in a CMYK file", "ICCBased space /CS1")
    fine = variant(
        original, tmp_path, draw(b"/Fm9 Do", XObject={"Fm9": form(b"0 0.5 0.5 0 k 0 0 20 20 re f")})
    )
    assert check(fine, dtc, project) == []
    grouped = variant(
        original, tmp_path, draw(b"/Fm9 Do", XObject={"Fm9": form(b"0 0.5 0.5 0 k 0 0 20 20 re f")})
    )
    with pikepdf.open(grouped, allow_overwriting_input=True) as pdf:
        pdf.pages[PAGE - 1].Resources.XObject.Fm9.Group = pikepdf.Dictionary(
            S=pikepdf.Name.Transparency
        )
        pdf.save(grouped)
    assert refused(check(grouped, dtc, project), "transparency group on form /Fm9")


# --- shadings and patterns
# --------------------------------------------------------------------------
def shading(space, c0, c1):
    return lambda pdf: pikepdf.Dictionary(
        ShadingType=2,
        ColorSpace=space,
        Coords=[0, 0, 20, 0],
        Function=function2(c0, c1),
        Extend=[True, True],
    )


def test_shadings_by_their_space_and_heaviest_point(original, tmp_path, dtc, project):
    clip = b"0 0 20 20 re W n "
    rgb = variant(
        original,
        tmp_path,
        draw(
            clip + b"/Sh9 sh",
            Shading={"Sh9": shading(pikepdf.Name.DeviceRGB, [1, 0, 0], [0, 0, 1])},
        ),
    )
    assert refused(check(rgb, dtc, project), "RGB colour in a CMYK file", "shading /Sh9")
    fine = variant(
        original,
        tmp_path,
        draw(
            clip + b"/Sh9 sh",
            Shading={"Sh9": shading(pikepdf.Name.DeviceCMYK, [0, 0, 0, 0], [0.6, 0.4, 0.4, 1])},
        ),
    )
    assert check(fine, dtc, project) == []
    heavy = variant(
        original,
        tmp_path,
        draw(
            clip + b"/Sh9 sh",
            Shading={"Sh9": shading(pikepdf.Name.DeviceCMYK, [0, 0, 0, 0], [1, 1, 1, 1])},
        ),
    )
    assert refused(
        check(heavy, dtc, project), "400 % total ink", "shading /Sh9", "at its heaviest point"
    )


def test_a_mesh_shading_is_read_vertex_by_vertex(original, tmp_path, dtc, project):
    def mesh(colours):
        def make(pdf):
            data = b"".join(
                bytes([0, x, y]) + bytes(c)
                for (x, y), c in zip([(0, 0), (255, 0), (0, 255)], colours)
            )
            stream = pdf.make_stream(data)
            stream.ShadingType, stream.ColorSpace = 4, pikepdf.Name.DeviceCMYK
            stream.BitsPerCoordinate, stream.BitsPerComponent, stream.BitsPerFlag = 8, 8, 8
            stream.Decode = [0, 20, 0, 20] + [0, 1] * 4
            return stream

        return make

    fine = variant(
        original,
        tmp_path,
        draw(b"/Sh9 sh", Shading={"Sh9": mesh([(0, 0, 0, 255), (0, 255, 0, 0), (0, 0, 0, 0)])}),
    )
    assert check(fine, dtc, project) == []
    heavy = variant(
        original,
        tmp_path,
        draw(b"/Sh9 sh", Shading={"Sh9": mesh([(0, 0, 0, 0), (255,) * 4, (0, 0, 0, 0)])}),
    )
    assert refused(check(heavy, dtc, project), "400 % total ink", "shading /Sh9")


def test_patterns_are_read_through(original, tmp_path, dtc, project):
    def tiling(content):
        def make(pdf):
            stream = pdf.make_stream(content)
            stream.PatternType, stream.PaintType, stream.TilingType = 1, 1, 1
            stream.BBox, stream.XStep, stream.YStep, stream.Resources = (
                [0, 0, 10, 10],
                10,
                10,
                pikepdf.Dictionary(),
            )
            return stream

        return make

    rgb = variant(
        original,
        tmp_path,
        draw(
            b"/Pattern cs /P9 scn 0 0 20 20 re f", Pattern={"P9": tiling(b"1 0 0 rg 0 0 5 5 re f")}
        ),
    )
    assert refused(
        check(rgb, dtc, project), "RGB colour in a CMYK file: set with 'rg' in DeviceRGB"
    )
    fine = variant(
        original,
        tmp_path,
        draw(
            b"/Pattern cs /P9 scn 0 0 20 20 re f", Pattern={"P9": tiling(b"0 1 0 0 k 0 0 5 5 re f")}
        ),
    )
    assert check(fine, dtc, project) == []
    shaded = variant(
        original,
        tmp_path,
        draw(
            b"/Pattern cs /P9 scn 0 0 20 20 re f",
            Pattern={
                "P9": lambda pdf: pikepdf.Dictionary(
                    PatternType=2, Shading=shading(pikepdf.Name.DeviceCMYK, [0] * 4, [1] * 4)(pdf)
                )
            },
        ),
    )
    assert refused(check(shaded, dtc, project), "400 % total ink", "shading pattern /P9")


# --- images and inline images
# ------------------------------------------------------------------------
def test_an_iccbased_rgb_image_is_refused(original, tmp_path, dtc, project):
    path = variant(
        original,
        tmp_path,
        draw(PLACE + b"/Im9 Do", XObject={"Im9": image(icc(3), bytes(4 * 4 * 3), 4, 4)}),
    )
    assert refused(
        check(path, dtc, project),
        "RGB image /Im9 in a CMYK file",
        "ICCBased space (3 components), 8 bits",
    )


def test_cmyk_images_are_measured_at_their_worst_pixel(original, tmp_path, dtc, project):
    light = bytes([60, 40, 40, 100]) * 16  # 0-255 values: about 94 %
    path = variant(
        original,
        tmp_path,
        draw(PLACE + b"/Im9 Do", XObject={"Im9": image(pikepdf.Name.DeviceCMYK, light, 4, 4)}),
    )
    assert check(path, dtc, project) == []
    one_dark_pixel = light[:-4] + bytes([255] * 4)
    path = variant(
        original,
        tmp_path,
        draw(
            PLACE + b"/Im9 Do",
            XObject={"Im9": image(pikepdf.Name.DeviceCMYK, one_dark_pixel, 4, 4)},
        ),
    )
    assert refused(
        check(path, dtc, project),
        "400 % total ink",
        "image /Im9 (DeviceCMYK, 8 bits) at its worst pixel",
    )


def test_an_image_with_a_soft_mask_is_transparency(original, tmp_path, dtc, project):
    mask = image(pikepdf.Name.DeviceGray, bytes([128] * 16), 4, 4)
    path = variant(
        original,
        tmp_path,
        draw(
            PLACE + b"/Im9 Do",
            XObject={"Im9": image(pikepdf.Name.DeviceCMYK, bytes(64), 4, 4, SMask=mask)},
        ),
    )
    assert refused(check(path, dtc, project), "image /Im9 has an alpha channel or mask")


def test_inline_images_are_read(original, tmp_path, dtc, project):
    def inline(space: bytes, samples: bytes):
        return (
            PLACE
            + b"BI /W 2 /H 2 /CS "
            + space
            + b" /BPC 8 /F /AHx ID "
            + samples.hex().encode()
            + b"> EI"
        )

    rgb = variant(original, tmp_path, draw(inline(b"/RGB", bytes([255, 0, 0] * 4))))
    assert refused(
        check(rgb, dtc, project), "RGB image (inline) in a CMYK file", "DeviceRGB, 8 bits"
    )
    fine = variant(original, tmp_path, draw(inline(b"/CMYK", bytes([0, 128, 128, 0] * 4))))
    assert check(fine, dtc, project) == []
    heavy = variant(original, tmp_path, draw(inline(b"/CMYK", bytes([255] * 16))))
    assert refused(check(heavy, dtc, project), "400 % total ink", "image (inline)")


# --- graphics states: blend modes, soft masks, opacity, overprint ---------------------------------
def test_blend_modes_soft_masks_and_opacity_are_transparency(
    original, tmp_path, dtc, cmyk_shop, project
):
    multiply = variant(
        original,
        tmp_path,
        draw(
            b"/GS9 gs 0 0 20 20 re f",
            ExtGState={"GS9": pikepdf.Dictionary(BM=pikepdf.Name.Multiply)},
        ),
    )
    assert refused(check(multiply, dtc, project), "blend mode /Multiply in graphics state /GS9")
    assert check(multiply, cmyk_shop.model_copy(update={"transparency": True}), project) == []
    normal = variant(
        original,
        tmp_path,
        draw(
            b"/GS9 gs 0 0 20 20 re f",
            ExtGState={"GS9": pikepdf.Dictionary(BM=pikepdf.Name.Normal, ca=1, CA=1)},
        ),
    )
    assert check(normal, dtc, project) == []
    faded = variant(
        original,
        tmp_path,
        draw(b"/GS9 gs 0 0 20 20 re f", ExtGState={"GS9": pikepdf.Dictionary(ca=0.5)}),
    )
    assert refused(check(faded, dtc, project), "fill opacity 0.5 in graphics state /GS9")

    def masked(pdf):
        group = pdf.make_stream(b"0 g 0 0 20 20 re f")
        group.Type, group.Subtype, group.BBox = (
            pikepdf.Name.XObject,
            pikepdf.Name.Form,
            [0, 0, 20, 20],
        )
        group.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency)
        return pikepdf.Dictionary(SMask=pikepdf.Dictionary(S=pikepdf.Name.Luminosity, G=group))

    soft = variant(original, tmp_path, draw(b"/GS9 gs 0 0 20 20 re f", ExtGState={"GS9": masked}))
    assert refused(check(soft, dtc, project), "a soft mask in graphics state /GS9")


def test_overprint_counts_the_ink_left_beneath(original, tmp_path, dtc, project):
    red = b"0 1 0.65 0 k 0 0 60 60 re f "  # 165 %
    overprint = {"GS9": pikepdf.Dictionary(OP=True, op=True, OPM=1)}
    path = variant(
        original, tmp_path, draw(red + b"/GS9 gs 0 0 0 1 k 10 10 20 20 re f", ExtGState=overprint)
    )
    assert refused(
        check(path, dtc, project),
        "265 % total ink where overprint leaves ink beneath",
        "(the limit is 240 %)",
        "overprints",
    )
    knockout = {
        "GS9": pikepdf.Dictionary(OP=True, op=True, OPM=0)
    }  # mode 0: zero components knock out
    path = variant(
        original, tmp_path, draw(red + b"/GS9 gs 0 0 0 1 k 10 10 20 20 re f", ExtGState=knockout)
    )
    assert check(path, dtc, project) == []
    # K70 on the red area gives 235 % in effect
    path = variant(
        original, tmp_path, draw(red + b"/GS9 gs 0 0 0 0.7 k 10 10 20 20 re f", ExtGState=overprint)
    )
    assert check(path, dtc, project) == []
    no_zero = (
        b"/GS9 gs 0.01 0.01 0.01 1 k 10 10 20 20 re f"  # every plate painted: nothing left beneath
    )
    assert (
        check(variant(original, tmp_path, draw(red + no_zero, ExtGState=overprint)), dtc, project)
        == []
    )


def test_text_render_modes(original, tmp_path, dtc, project):
    with pikepdf.open(original) as pdf:
        font = str(next(iter(pdf.pages[PAGE - 1].Resources.Font.keys()))).encode()

    def text(mode: bytes):
        return b"1 1 1 1 K 1 1 1 1 k BT " + font + b" 10 Tf " + mode + b" Tr 20 20 Td (Hi) Tj ET"

    outlined = variant(original, tmp_path, draw(text(b"1")))
    assert refused(
        check(outlined, dtc, project), "400 % total ink", "stroke DeviceCMYK", "text render mode 1"
    )
    assert not refused(check(outlined, dtc, project), "fill DeviceCMYK")
    invisible = variant(original, tmp_path, draw(text(b"3")))
    assert check(invisible, dtc, project) == []
    filled = variant(original, tmp_path, draw(text(b"0")))
    assert refused(
        check(filled, dtc, project),
        "400 % total ink",
        "fill DeviceCMYK",
        "'Tj' in text render mode 0",
    )


# --- the file's structure
# ---------------------------------------------------------------------------
def file_problems(path, profile, project):
    return [
        p.message
        for p in preflight(path, profile, shop_trims(project.media, profile))
        if p.page == 0
    ]


def test_an_output_intent_without_its_condition_is_refused(original, tmp_path, dtc, project):
    def alter(pdf, page):
        del pdf.Root.OutputIntents[0]["/OutputConditionIdentifier"]

    path = variant(original, tmp_path, alter)
    assert (
        "the PDF/X output intent has no OutputConditionIdentifier (PDF/X requires one)"
        in file_problems(path, dtc, project)
    )


def test_an_encrypted_file_is_refused(original, tmp_path, dtc, cmyk_shop, project):
    path = variant(
        original,
        tmp_path,
        lambda pdf, page: None,
        encryption=pikepdf.Encryption(owner="shop", user="", R=3, aes=False, metadata=False),
    )
    assert any("the file is encrypted" in m for m in file_problems(path, cmyk_shop, project))
    locked = variant(
        original,
        tmp_path,
        lambda pdf, page: None,
        name="locked.pdf",
        encryption=pikepdf.Encryption(owner="shop", user="secret", R=3, aes=False, metadata=False),
    )
    assert [p.message for p in preflight(locked, dtc)] == [
        "encrypted with a password: the shop cannot open it (PDF/X forbids encryption)"
    ]


def test_a_trailer_without_an_id_is_refused(original, tmp_path, dtc, cmyk_shop, project):
    data = original.read_bytes()
    trailer = data.rindex(b"trailer")
    stripped = data[:trailer] + re.sub(
        rb"/ID\s*\[[^\]]*\]", lambda m: b" " * len(m.group(0)), data[trailer:]
    )
    assert stripped != data
    path = tmp_path / "no-id.pdf"
    path.write_bytes(stripped)
    assert "the trailer has no /ID (PDF/X requires the file identifier)" in file_problems(
        path, dtc, project
    )
    assert check(path, cmyk_shop, project) == []  # only PDF/X asks for it


def test_pdf_version_and_information_keys_for_pdfx(original, tmp_path, dtc, cmyk_shop, project):
    newer = variant(original, tmp_path, lambda pdf, page: None, force_version="1.6")
    assert "PDF 1.6: PDF/X-1a:2003 allows at most PDF 1.4" in file_problems(newer, dtc, project)
    assert check(newer, cmyk_shop, project) == []

    def undated(pdf, page):
        del pdf.docinfo["/ModDate"]

    assert "no ModDate in the document information (PDF/X requires one)" in file_problems(
        variant(original, tmp_path, undated), dtc, project
    )


def test_the_command_prints_a_line_per_file_and_for_the_run(original, tmp_path, capsys):
    broken = variant(
        original,
        tmp_path,
        draw(b"1 0 0 rg 0 0 20 20 re f 1 1 1 1 k 0 0 5 5 re f"),
        name="broken.pdf",
    )
    assert main(["preflight", str(original), str(broken), "--profile", "drivethrucards"]) == 1
    captured = capsys.readouterr()
    assert "comrade-en-cards.pdf: ok" in captured.out
    assert (
        "broken.pdf: page 3: RGB colour in a CMYK file: set with 'rg' in DeviceRGB" in captured.out
    )
    assert "broken.pdf: 2 problems on 1 page" in captured.out
    assert "printshop preflight: 1 of 2 file(s) passed, 2 problems" in captured.err


# --- card faces as images ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def face(built):
    return built / "thegamecrafter" / "comrade-en-cards-001-front.png"


def saved(face, tmp_path, change=lambda picture: picture, name="face.png", **options):
    with Image.open(face) as picture:
        changed = change(picture.copy())
    path = tmp_path / name
    changed.save(path, **options)
    return path


def messages(path, profile, project):
    return [p.message for p in preflight(path, profile, shop_trims(project.media, profile))]


def test_face_images_are_written_at_300_dpi_and_pass(face, project):
    with Image.open(face) as picture:
        assert [round(v) for v in picture.info["dpi"]] == [300, 300]
    assert messages(face, project.profiles["thegamecrafter"], project) == []


def test_face_images_without_resolution_or_with_alpha_are_refused(face, tmp_path, project):
    tgc = project.profiles["thegamecrafter"]
    bare = saved(face, tmp_path)
    assert messages(bare, tgc, project) == [
        "no resolution in the file (no pHYs chunk): shops and image tools read it as 72 dpi"
    ]
    low = saved(face, tmp_path, dpi=(72, 72))
    assert "the file says 72 dpi; The Game Crafter needs 300" in messages(low, tgc, project)
    alpha = saved(face, tmp_path, lambda picture: picture.convert("RGBA"), dpi=(300, 300))
    assert any("an alpha channel (mode RGBA)" in m for m in messages(alpha, tgc, project))
    assert messages(alpha, tgc.model_copy(update={"image_alpha": True}), project) == []


def test_face_images_of_the_wrong_size_or_mode_are_refused(face, tmp_path, project):
    tgc, mpc = project.profiles["thegamecrafter"], project.profiles["makeplayingcards"]
    small = saved(face, tmp_path, lambda picture: picture.resize((800, 1100)), dpi=(300, 300))
    found = messages(small, tgc, project)
    assert "800 × 1100 px; The Game Crafter wants 825 × 1125 px" in found
    assert any("at the 300 dpi it states the image is 67.7 × 93.1 mm" in m for m in found)
    assert "825 × 1125 px; MakePlayingCards wants 822 × 1122 px" in messages(face, mpc, project)
    cmyk_shop = tgc.model_copy(update={"colour": ProfileColour(space="cmyk", ink_limit=240)})
    assert any(
        "colour mode RGB: The Game Crafter wants CMYK (a PNG cannot hold CMYK" in m
        for m in messages(face, cmyk_shop, project)
    )
    dark = saved(
        face,
        tmp_path,
        lambda picture: Image.new("CMYK", picture.size, (255, 255, 255, 255)),
        name="face.jpg",
        dpi=(300, 300),
    )
    assert "400 % total ink at the worst pixel (the limit is 240 %)" in messages(
        dark, cmyk_shop, project
    )
    fine = saved(
        face,
        tmp_path,
        lambda picture: Image.new("CMYK", picture.size, (150, 100, 100, 150)),
        name="fine.jpg",
        dpi=(300, 300),
    )
    # one flat colour: a blank face, warned
    assert messages(fine, cmyk_shop, project) == [
        "a blank face: everything inside the trim is one flat colour (its art missing?)"
    ]


def test_the_command_reads_images(face, tmp_path, capsys):
    bare = saved(face, tmp_path)
    assert main(["preflight", str(face), str(bare), "--profile", "thegamecrafter"]) == 1
    out = capsys.readouterr().out
    assert "comrade-en-cards-001-front.png: ok" in out and "face.png: 1 problem" in out


def test_a_pdfx_file_from_another_tool_passes(tmp_path, dtc, project):
    """Written with pikepdf alone, not printshop: a card page in rich black with the PDF/X keys."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(198, 270))  # 2.5 × 3.5 in and 1/8 in bleed
    page = pdf.pages[0]
    page.obj.TrimBox = [9, 9, 189, 261]
    page.contents_add(
        pdf.make_stream(b"0.6 0.4 0.4 1 k 0 0 198 270 re f 0 0 0 0 k 90 126 18 18 re f")
    )
    for key, value in (
        ("Title", "a card"),
        ("CreationDate", "D:20240101000000Z"),
        ("ModDate", "D:20240101000000Z"),
        ("GTS_PDFXVersion", "PDF/X-1a:2003"),
    ):
        pdf.docinfo[f"/{key}"] = pikepdf.String(value)
    pdf.docinfo["/Trapped"] = pikepdf.Name("/False")
    pdf.Root.OutputIntents = [
        pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("CGATS TR 001"),
            RegistryName=pikepdf.String("http://www.color.org"),
        )
    ]
    path = tmp_path / "other-tool.pdf"
    pdf.save(path, force_version="1.4")
    assert preflight(path, dtc, shop_trims(project.media, dtc)) == []


def test_pdfx_rules_on_graphics_states_and_images(original, tmp_path, dtc, cmyk_shop, project):
    transfer = variant(
        original,
        tmp_path,
        draw(
            b"/GS9 gs 0 0 20 20 re f",
            ExtGState={"GS9": pikepdf.Dictionary(TR=pikepdf.Name.Identity)},
        ),
    )
    assert refused(check(transfer, dtc, project), "a transfer function in graphics state /GS9")
    assert check(transfer, cmyk_shop, project) == []

    def deep(pdf):
        stream = image(pikepdf.Name.DeviceCMYK, bytes(4 * 4 * 4 * 2), 4, 4)(pdf)
        stream.BitsPerComponent = 16
        return stream

    sixteen = variant(original, tmp_path, draw(PLACE + b"/Im9 Do", XObject={"Im9": deep}))
    assert refused(check(sixteen, dtc, project), "image /Im9 has 16 bits per component")
    assert check(sixteen, cmyk_shop, project) == []


def test_a_stencil_mask_paints_the_fill_colour(original, tmp_path, dtc, project):
    def stencil(pdf):
        stream = pdf.make_stream(bytes([0b10100000] * 4))
        stream.Type, stream.Subtype, stream.Width, stream.Height = (
            pikepdf.Name.XObject,
            pikepdf.Name.Image,
            4,
            4,
        )
        stream.ImageMask, stream.BitsPerComponent = True, 1
        return stream

    heavy = variant(
        original, tmp_path, draw(b"1 1 1 1 k " + PLACE + b"/Im9 Do", XObject={"Im9": stencil})
    )
    assert refused(check(heavy, dtc, project), "400 % total ink", "painted with an image mask")
    fine = variant(
        original, tmp_path, draw(b"0 0 0 1 k " + PLACE + b"/Im9 Do", XObject={"Im9": stencil})
    )
    assert check(fine, dtc, project) == []


def test_process_colorants_are_their_own_plates(original, tmp_path, dtc, project):
    def cyan_magenta(
        pdf,
    ):  # alternate RGB, but the colorants are process plates: no alternate is used
        return pikepdf.Array(
            [
                pikepdf.Name.DeviceN,
                [pikepdf.Name.Cyan, pikepdf.Name.Magenta],
                pikepdf.Name.DeviceRGB,
                pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0], C1=[1, 1, 1], N=1),
            ]
        )

    path = variant(
        original,
        tmp_path,
        draw(b"/CS9 cs 1 1 scn 0 0 20 20 re f", ColorSpace={"CS9": cyan_magenta}),
    )
    assert check(path, dtc, project) == []  # 200 %


def test_output_intents_one_and_with_its_registry(original, tmp_path, dtc, project):
    def twice(pdf, page):
        pdf.Root.OutputIntents.append(pdf.Root.OutputIntents[0])

    assert "2 PDF/X output intents: PDF/X allows one" in file_problems(
        variant(original, tmp_path, twice), dtc, project
    )

    def unregistered(pdf, page):
        del pdf.Root.OutputIntents[0]["/RegistryName"]

    assert any(
        "neither embeds an ICC profile" in m
        for m in file_problems(variant(original, tmp_path, unregistered), dtc, project)
    )


def test_pdfx4_allows_what_pdfx1a_forbids(original, tmp_path, dtc, project):
    """PDF/X-4 takes ICC-based colour and files up to PDF 1.6; PDF 1.7 and a transfer function it
    refuses."""
    x4 = dtc.model_copy(update={"pdfx": dtc.pdfx.model_copy(update={"version": "PDF/X-4"})})
    cmyk = variant(
        original,
        tmp_path,
        draw(b"/CS9 cs 0.2 0.5 0.5 0.2 sc 0 0 20 20 re f", ColorSpace={"CS9": icc(4)}),
    )
    assert not [line for line in check(cmyk, x4, project) if "device-independent" in line]
    assert refused(check(cmyk, dtc, project), "device-independent colour")
    newer = variant(original, tmp_path, lambda pdf, page: None, force_version="1.6")
    assert not [m for m in file_problems(newer, x4, project) if m.startswith("PDF 1.6")]
    newest = variant(original, tmp_path, lambda pdf, page: None, force_version="1.7")
    assert "PDF 1.7: PDF/X-4 allows at most PDF 1.6" in file_problems(newest, x4, project)
