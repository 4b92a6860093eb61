"""A soft proof: a CMYK press file's pages as the press will print them, as sRGB images, so a
publisher sees on screen what the shop's CMYK makes of the colours (`printshop preflight
--soft-proof`).

pdfium (pypdfium2) renders CMYK by a fixed formula of its own, not through a profile, and gives RGB
only. So the file's ink is read out first, exactly, and the profile applied after: two copies of the
file are rendered in which every DeviceCMYK colour and image (and DeviceGray, which prints as black
ink) is a DeviceN colour space whose tint transform paints the inks themselves as RGB values: cyan,
magenta and yellow as red, green and blue in the first copy, black as red in the second, on a black
(no ink) page. pdfium's anti-aliasing and blending are linear in those values, as they are in ink. The
four planes make one CMYK image, which LittleCMS (Pillow's ImageCms) converts from the shop's ICC
profile to sRGB with the relative colorimetric intent and no black point compensation: paper white
shows as the screen's white, and the press's black as grey as it prints. Overprint is not simulated
(pdfium draws every object knocked out).
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageCms

from printshop import memos
from printshop.render.press_art import applied, cmyk_profile

# the tint transforms (PostScript calculator functions) of each copy: the inks C, M, Y, K (or the
# grey level) on the stack, the RGB that stands for them left on it
_CMY = {"cmyk": "{pop}", "grey": "{pop 0 0 0}"}
_K = {"cmyk": "{4 1 roll pop pop pop 0 0}", "grey": "{1 exch sub 0 0}"}
_NAMES = {"cmyk": "/PsInks", "grey": "/PsGrey"}  # the colour spaces' names in each resource dict
_COLOUR_OPERATORS = {"k": ("cmyk", "cs", "scn"), "K": ("cmyk", "CS", "SCN")}
_COLOUR_OPERATORS |= {"g": ("grey", "cs", "scn"), "G": ("grey", "CS", "SCN")}
_DEVICE = {"/DeviceCMYK": "cmyk", "/DeviceGray": "grey", "/G": "grey", "/CMYK": "cmyk"}


def soft_proof(pdf: bytes, icc: str | None, dpi: float) -> list[Image.Image]:
    """Each page of the CMYK PDF `pdf` as an sRGB image at `dpi`, as it prints in the CMYK of the
    ICC profile `icc` (printshop/icc/; None: FOGRA39)."""
    return [applied(page, _to_screen(icc)) for page in inks(pdf, dpi)]


def inks(pdf: bytes, dpi: float) -> list[Image.Image]:
    """Each page of `pdf` as the ink it puts down: a CMYK image at `dpi`."""
    cmy, k = _render(_inked(pdf, _CMY), dpi), _render(_inked(pdf, _K), dpi)
    return [
        Image.merge("CMYK", (*three.split(), black.getchannel("R")))
        for three, black in zip(cmy, k, strict=True)
    ]


@memos.SOFT_PROOF_TRANSFORMS
def _to_screen(icc: str | None):
    return ImageCms.buildTransform(
        cmyk_profile(icc),
        ImageCms.createProfile("sRGB"),
        "CMYK",
        "RGB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )


def _render(pdf: bytes, dpi: float) -> list[Image.Image]:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        return [
            page.render(scale=dpi / 72, fill_color=(0, 0, 0, 255)).to_pil().convert("RGB")
            for page in document
        ]
    finally:
        document.close()


def _inked(pdf: bytes, transforms: dict[str, str]) -> bytes:
    """`pdf` with its device CMYK and grey painted through `transforms` (see the docstring)."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        spaces = {}
        for kind, program in transforms.items():
            function = pikepdf.Stream(document, program.encode())
            function.FunctionType = 4
            inputs = 4 if kind == "cmyk" else 1
            function.Domain = [0, 1] * inputs
            function.Range = [0, 1] * 3
            colourants = ["/Cyan", "/Magenta", "/Yellow", "/Black"] if inputs == 4 else ["/Black"]
            spaces[kind] = document.make_indirect(
                pikepdf.Array(
                    [
                        pikepdf.Name.DeviceN,
                        pikepdf.Array([pikepdf.Name(name) for name in colourants]),
                        pikepdf.Name.DeviceRGB,
                        function,
                    ]
                )
            )
        masks = set()  # soft masks' images are alpha, not ink: left as they are
        for item in document.objects:
            if isinstance(item, pikepdf.Dictionary | pikepdf.Stream):
                mask = item.get("/SMask")
                if isinstance(mask, pikepdf.Stream):
                    masks.add(mask.objgen)
        for item in list(document.objects):
            if not isinstance(item, pikepdf.Stream | pikepdf.Dictionary):
                continue
            device = _DEVICE.get(str(item.get("/ColorSpace")))
            if item.get("/Subtype") == "/Image" or item.get("/ShadingType") is not None:
                if device is not None and item.objgen not in masks:
                    item.ColorSpace = spaces[device]
            elif isinstance(item, pikepdf.Stream) and item.get("/Subtype") == "/Form":
                _repaint(document, item, spaces)
        for page in document.pages:
            _repaint(document, page.obj, spaces)
        out = io.BytesIO()
        document.save(out)
    return out.getvalue()


def _repaint(document, holder, spaces: dict) -> None:
    """The content of a page or form (`holder`) with each device colour operator set through the
    named colour spaces `spaces`, which its resources gain."""
    import pikepdf

    resources, above = holder.get("/Resources"), holder
    while resources is None and "/Parent" in above:  # a page's, inherited from its page tree
        above = above.Parent
        resources = above.get("/Resources")
    resources = holder.Resources = resources if resources is not None else pikepdf.Dictionary()
    named = resources.get("/ColorSpace")
    if named is None:
        named = resources.ColorSpace = pikepdf.Dictionary()
    for kind, space in spaces.items():
        named[_NAMES[kind]] = space
    operations: list[tuple[Any, Any]] = []
    content = holder if isinstance(holder, pikepdf.Stream) else pikepdf.Page(holder)
    for instruction in pikepdf.parse_content_stream(content):
        operands, operator = instruction.operands, instruction.operator
        op = str(operator)
        if op in _COLOUR_OPERATORS:
            kind, set_space, set_colour = _COLOUR_OPERATORS[op]
            operations.append(([pikepdf.Name(_NAMES[kind])], pikepdf.Operator(set_space)))
            operations.append((operands, pikepdf.Operator(set_colour)))
        elif op in ("cs", "CS") and str(operands[0]) in _DEVICE:
            name = pikepdf.Name(_NAMES[_DEVICE[str(operands[0])]])
            operations.append(([name], operator))
        else:
            operations.append((operands, operator))
    data = pikepdf.unparse_content_stream(operations)
    if isinstance(holder, pikepdf.Stream):
        holder.write(data)
    else:
        holder.Contents = document.make_stream(data)
