"""Preflight: read a press file back and check what a print shop will check, before it costs money.
It reads any PDF (not only the ones printshop writes) and PNG or JPEG card faces.

PDF, per page: the boxes as PDF/X states them (a TrimBox, or an ArtBox with a warning; the BleedBox
defaults to the CropBox, which defaults to the MediaBox; trim inside bleed inside media), the
profile's bleed on every side, the trim one of the shop's products (card files), and every way the
page sets colour and ink, followed through the graphics state into forms and patterns: colour
operators and spaces (Device*, ICCBased by its component count, Indexed,
Separation and DeviceN with their alternates, Lab and the Cal spaces), shadings, images and inline
images (colour space, bits, total ink at the worst pixel, resolution where placed), text render
modes, overprint (the ink in effect), blend modes, soft masks, opacity and transparency groups.
Per file: encryption, no font left unembedded, and for PDF/X profiles the trailer's /ID, the
output intent's keys, the document information keys and the PDF version; card files in the
profile's page order (read from the page labels the build writes: "back 1", "front 1", ...), every
card complete; booklets a multiple of four pages.
Not read: annotations' appearance streams, Type 3 glyph procedures, and what a soft mask draws
(soft masks are refused as such where the shop forbids transparency).

Images (PNG, JPEG): pixel size (an image profile's exact size), resolution metadata, the physical
size it gives against the shop's cards with bleed, colour mode, alpha, and total ink of CMYK JPEGs.

Rules follow the profile: `colour.space` (RGB refused in CMYK files), `colour.ink_limit`,
`transparency`, `pdfx` (device-independent colour, 16-bit and JPEG 2000 images, transfer functions
and structure keys), `min_dpi`, `pixels` and `image_alpha`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pikepdf

from printshop.project.models.media import Media
from printshop.project.models.profile import Profile
from printshop.project.units import to_mm


@dataclass(frozen=True)
class Problem:
    page: int  # 1-based; 0 for the file as a whole
    message: str
    warning: bool = False  # reported, but the file still passes

    def format(self, path: str) -> str:
        text = f"warning: {self.message}" if self.warning else self.message
        return f"{path}: page {self.page}: {text}" if self.page else f"{path}: {text}"


def preflight(
    path: Path, profile: Profile | None = None, trims: list[tuple[float, float]] | None = None
) -> list[Problem]:
    """`trims`: the sizes (points) of the shop's products, which every page of a card file (and every
    face image, with the bleed) must have. Without a profile only what any printer needs is checked."""
    path = Path(path)
    with open(path, "rb") as handle:
        magic = handle.read(8)
    if magic.startswith(b"\x89PNG") or magic.startswith(b"\xff\xd8\xff"):
        return _image_file_problems(path, profile, trims)
    try:
        pdf = pikepdf.open(path)
    except pikepdf.PasswordError:
        return [
            Problem(
                0, "encrypted with a password: the shop cannot open it (PDF/X forbids encryption)"
            )
        ]
    except (pikepdf.PdfError, OSError, ValueError) as error:
        return [Problem(0, f"not a readable PDF: {error}")]
    with pdf:
        return _pdf_problems(pdf, profile, trims)


def shop_trims(media: Media, profile: Profile) -> list[tuple[float, float]]:
    """The trims a shop makes: its products' sizes, or every card size when it lists none."""
    names = [product.trim for product in profile.products.values()] or list(media.card_sizes)
    return sorted(
        {
            (media.card_sizes[n].width, media.card_sizes[n].height)
            for n in names
            if n in media.card_sizes
        }
    )


def multiply(m, n):
    """m × n for PDF matrices [a b c d e f] (m applied first)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return [
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    ]


def _pdf_problems(pdf: pikepdf.Pdf, profile: Profile | None, trims) -> list[Problem]:
    kind = str(pdf.docinfo.get("/Keywords", "")) if pdf.docinfo is not None else ""
    problems: list[Problem] = []
    if profile is not None:
        problems.extend(Problem(0, message) for message in _structure_problems(pdf, profile))
    inks = _FileInks()
    for number, page in enumerate(pdf.pages, start=1):
        if profile is None:
            continue
        problems.extend(
            Problem(number, message, warning) for message, warning in _box_problems(page, profile)
        )
        if kind == "printshop:cards" and trims:
            problems.extend(Problem(number, message) for message in _trim_problems(page, trims))
        problems.extend(
            Problem(number, message) for message in _PageInk(pdf, page, profile, inks).read()
        )
    problems.extend(Problem(0, f"font {name} is not embedded") for name in _unembedded_fonts(pdf))
    if profile is not None:
        if kind == "printshop:cards":
            problems.extend(_order_problems([page.label for page in pdf.pages], profile))
        elif kind == "printshop:booklet" and len(pdf.pages) % 4:
            problems.append(
                Problem(
                    0,
                    f"a booklet of {len(pdf.pages)} pages: saddle stitching needs a multiple of 4",
                )
            )
    return problems


# --- the file: encryption, PDF/X keys, output intent, version ---------------------------------------
def _structure_problems(pdf: pikepdf.Pdf, profile: Profile) -> list[str]:
    problems = []
    if pdf.is_encrypted:
        problems.append(
            "the file is encrypted: PDF/X forbids it, and a shop's tools may be refused the right to "
            "impose or change it"
        )
    if profile.pdfx is None:
        return problems
    wanted = profile.pdfx.version
    if "/ID" not in pdf.trailer or len(pdf.trailer.ID) != 2:
        problems.append("the trailer has no /ID (PDF/X requires the file identifier)")
    info = pdf.docinfo if pdf.docinfo is not None else {}
    if str(info.get("/GTS_PDFXVersion", "")) != wanted:
        problems.append(f"no GTS_PDFXVersion '{wanted}' in the document information")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        problems.append("Trapped is neither True nor False (PDF/X requires one)")
    for key in ("Title", "CreationDate", "ModDate"):
        if not str(info.get(f"/{key}", "")):
            problems.append(f"no {key} in the document information (PDF/X requires one)")
    intents = [
        intent for intent in pdf.Root.get("/OutputIntents", []) if intent.get("/S") == "/GTS_PDFX"
    ]
    if not intents:
        problems.append(
            f"no PDF/X output intent: {profile.label} wants {wanted} for {profile.pdfx.condition}"
        )
    elif len(intents) > 1:
        problems.append(f"{len(intents)} PDF/X output intents: PDF/X allows one")
    else:
        intent = intents[0]
        if not str(intent.get("/OutputConditionIdentifier", "")):
            problems.append(
                "the PDF/X output intent has no OutputConditionIdentifier (PDF/X requires one)"
            )
        if "/DestOutputProfile" not in intent and not str(intent.get("/RegistryName", "")):
            problems.append(
                "the PDF/X output intent neither embeds an ICC profile (DestOutputProfile) nor names "
                "the registry of its condition (RegistryName)"
            )
    version = max(
        str(pdf.pdf_version), str(pdf.Root.get("/Version", "/1.0")).lstrip("/"), key=_version_key
    )
    highest = (1, 6) if wanted.startswith("PDF/X-4") else (1, 4)
    if _version_key(version) > highest:
        problems.append(f"PDF {version}: {wanted} allows at most PDF {highest[0]}.{highest[1]}")
    return problems


def _version_key(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2]) or (0,)


# --- boxes -----------------------------------------------------------------------------------------
def _rect(box) -> list[float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]


def _inside(inner, outer, slack=0.05) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _box_problems(page: pikepdf.Page, profile: Profile) -> list[tuple[str, bool]]:
    """(message, warning) pairs. PDF/X: a TrimBox (or an ArtBox) on every page; the BleedBox defaults
    to the CropBox, which defaults to the MediaBox; trim within bleed within media."""
    obj = page.obj
    media = _rect(page.mediabox)
    crop = _rect(page.cropbox)  # pikepdf: the MediaBox when absent
    trim, art, bleed = obj.get("/TrimBox"), obj.get("/ArtBox"), obj.get("/BleedBox")
    problems = []
    if trim is None and art is None:
        return [
            (
                "no TrimBox and BleedBox: nothing tells the shop where to cut (PDF/X needs a TrimBox or an ArtBox)",
                False,
            )
        ]
    if trim is None:
        problems.append(
            (
                "no TrimBox: the ArtBox stands for the trim (PDF/X allows it, but shops cut on the TrimBox)",
                True,
            )
        )
    trim = _rect(trim if trim is not None else art)
    bleed = _rect(bleed) if bleed is not None else crop
    if not _inside(bleed, media):
        problems.append(("the BleedBox reaches outside the MediaBox", False))
    if not _inside(trim, bleed):
        problems.append(
            (
                "the TrimBox reaches outside the BleedBox (or the CropBox or MediaBox it defaults to)",
                False,
            )
        )
        return problems
    sides = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
    if any(abs(side - profile.bleed) > 0.05 for side in sides):
        problems.append(
            (
                f"bleed is {', '.join(f'{to_mm(s):.2f}' for s in sides)} mm; "
                f"{profile.label} needs {to_mm(profile.bleed):.2f} mm on every side",
                False,
            )
        )
    if any(abs(m - b) > 0.05 for m, b in zip(media, bleed)):
        problems.append(
            ("the page is larger than its BleedBox: nothing may lie outside the bleed", False)
        )
    return problems


def _trim_problems(page: pikepdf.Page, trims: list[tuple[float, float]]) -> list[str]:
    box = page.obj.get("/TrimBox", page.obj.get("/ArtBox"))
    if box is None:
        return []
    t = _rect(box)
    width, height = t[2] - t[0], t[3] - t[1]
    if any(abs(width - w) < 0.5 and abs(height - h) < 0.5 for w, h in trims):
        return []
    sizes = ", ".join(f"{to_mm(w):.1f} × {to_mm(h):.1f}" for w, h in trims)
    return [f"trim is {to_mm(width):.1f} × {to_mm(height):.1f} mm; the shop makes {sizes} mm"]


_LABEL = re.compile(r"^(front|back) (\d+)$")


def _order_problems(labels: list[str], profile: Profile) -> list[Problem]:
    """Each card's pages together, in the profile's order, cards numbered 1, 2, 3 ..."""
    first = "back" if profile.page_order == "back-front" else "front"
    problems, cards = [], []  # cards: (number, [sides]) in file order
    for page, label in enumerate(labels, start=1):
        match = _LABEL.match(label)
        if match is None:
            problems.append(
                Problem(page, f"page label '{label}' does not say which side of which card it is")
            )
            continue
        side, number = match.group(1), int(match.group(2))
        if cards and cards[-1][0] == number:
            cards[-1][1].append((page, side))
        else:
            if number != (cards[-1][0] + 1 if cards else 1):
                problems.append(
                    Problem(
                        page,
                        f"card {number} follows card {cards[-1][0] if cards else 0}: "
                        "a card is missing or out of order",
                    )
                )
            cards.append((number, [(page, side)]))
    for number, sides in cards:
        names = [side for _, side in sides]
        if len(names) == 2 and names[0] != first:
            problems.append(
                Problem(
                    sides[0][0],
                    f"card {number}: {names[0]} before {names[1]}; "
                    f"{profile.label} wants {profile.page_order.replace('-', ' then ')}",
                )
            )
        elif len(names) > 2 or len(set(names)) != len(names):
            problems.append(Problem(sides[0][0], f"card {number} has pages {', '.join(names)}"))
    two_sided = {len(sides) for _, sides in cards}
    if len(two_sided) > 1:
        problems.append(
            Problem(
                0,
                "some cards have a back and some do not: the page count is odd for a two-sided deck",
            )
        )
    return problems


# --- colour spaces and their ink ---------------------------------------------------------------------
PROCESS_PLATES = {"/Cyan": 0, "/Magenta": 1, "/Yellow": 2, "/Black": 3}
_DEVICE_NAMES = {
    "/DeviceGray": "/DeviceGray",
    "/G": "/DeviceGray",
    "/DeviceRGB": "/DeviceRGB",
    "/RGB": "/DeviceRGB",
    "/DeviceCMYK": "/DeviceCMYK",
    "/CMYK": "/DeviceCMYK",
    "/Pattern": "/Pattern",
}


@dataclass(frozen=True)
class Space:
    """A colour space as far as a press cares: what its colours become on the plates."""

    family: str  # DeviceCMYK, DeviceGray, DeviceRGB, ICCBased, Indexed, Separation, DeviceN, Lab, CalRGB, CalGray, Pattern
    label: str  # for messages: "DeviceRGB", "ICCBased space /CS0 (3 components)"
    components: int
    process: str  # "cmyk", "gray", "rgb", "lab", "spot", "indexed", "pattern"
    base: Space | None = (
        None  # Indexed: its base; Separation and DeviceN: the alternate; Pattern: uncoloured base
    )
    lookup: bytes = b""  # Indexed
    transform: Function | None = None  # Separation and DeviceN: tint transform to the alternate
    colorants: tuple[str, ...] = ()  # Separation and DeviceN
    independent: bool = False  # ICCBased, Lab or Cal* anywhere in it (PDF/X-1a allows none)
    key: str = ""  # identity, to report a space once per page

    def rgb_or_lab(self) -> Space | None:
        """The space itself or its base or alternate when its colours are RGB or Lab on the press."""
        if self.process in ("rgb", "lab"):
            return self
        if self.process == "spot" and any(
            name not in PROCESS_PLATES and name != "/None" for name in self.colorants
        ):
            return self.base.rgb_or_lab() if self.base is not None else None
        if self.family in ("Indexed", "Pattern") and self.base is not None:
            return self.base.rgb_or_lab()
        return None

    def _indexed_ink(self, values) -> tuple[float, float, float, float] | None:
        index = max(0, int(round(values[0] if values else 0)))
        n = self.base.components
        entry = self.lookup[index * n : (index + 1) * n]
        if len(entry) < n:
            return None
        return self.base.ink([byte / 255 for byte in entry])

    def initial(self) -> tuple[float, ...]:
        if self.process == "cmyk":
            return (0.0, 0.0, 0.0, 1.0)  # DeviceCMYK starts black
        if self.process == "gray":
            return (0.0,)
        if self.process == "spot":
            return (1.0,) * self.components  # full tint
        return (0.0,) * self.components

    def ink(self, values) -> tuple[float, float, float, float] | None:
        """The plates' coverage in per cent (C, M, Y, K), or None where the press cannot say (RGB, Lab)."""
        values = [float(v) for v in values]
        if self.family == "Indexed":
            return self._indexed_ink(values)
        if self.process == "cmyk":
            return tuple(100 * _clip(v) for v in (values + [0, 0, 0, 0])[:4])
        if self.process == "gray":
            return (0.0, 0.0, 0.0, 100 * (1 - _clip(values[0] if values else 0)))
        if self.process == "spot":
            names = self.colorants
            if all(name in PROCESS_PLATES or name == "/None" for name in names):
                plates = [0.0, 0.0, 0.0, 0.0]
                for name, value in zip(names, values):
                    if name in PROCESS_PLATES:
                        plates[PROCESS_PLATES[name]] = max(
                            plates[PROCESS_PLATES[name]], 100 * _clip(value)
                        )
                return tuple(plates)
            if names == ("/All",):  # registration: every plate at this tint
                return (100 * _clip(values[0]),) * 4
            if self.base is None or self.transform is None:
                return None
            return self.base.ink(self.transform(values))
        return None


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


DEVICE = {
    "/DeviceGray": Space("DeviceGray", "DeviceGray", 1, "gray", key="/DeviceGray"),
    "/DeviceRGB": Space("DeviceRGB", "DeviceRGB", 3, "rgb", key="/DeviceRGB"),
    "/DeviceCMYK": Space("DeviceCMYK", "DeviceCMYK", 4, "cmyk", key="/DeviceCMYK"),
    "/Pattern": Space("Pattern", "Pattern", 1, "pattern", key="/Pattern"),
}


def _space(obj, resources, label: str = "", depth: int = 0) -> Space:
    """The Space a colour space object (a name or an array) stands for, resource names resolved."""
    if depth > 8:
        raise ValueError("colour spaces nested too deeply")
    if isinstance(obj, pikepdf.Name):
        name = str(obj)
        if name in _DEVICE_NAMES:
            return DEVICE[_DEVICE_NAMES[name]]
        spaces = resources.get("/ColorSpace", {}) if resources is not None else {}
        if name not in spaces:
            raise ValueError(f"colour space {name} is not in the resources")
        return _space(spaces[name], resources, name, depth + 1)
    if not isinstance(obj, pikepdf.Array) or not len(obj):
        raise ValueError(f"not a colour space: {obj!r}")
    family = str(obj[0]).lstrip("/")
    named = f" {label}" if label else ""
    key = label or obj.unparse().decode("latin-1")[:200]
    if len(obj) == 1:
        return _space(obj[0], resources, label, depth + 1)
    if family == "ICCBased":
        stream = obj[1]
        n = int(stream.get("/N", 3))
        alternate = stream.get("/Alternate")
        process = {1: "gray", 3: "rgb", 4: "cmyk"}.get(n, "rgb")
        if alternate is not None and str(alternate) == "/Lab":
            process = "lab"
        return Space(
            "ICCBased",
            f"ICCBased space{named} ({n} components)",
            n,
            process,
            independent=True,
            key=key,
        )
    if family in ("CalRGB", "Lab"):
        return Space(
            family,
            f"{family} space{named}",
            3,
            "rgb" if family == "CalRGB" else "lab",
            independent=True,
            key=key,
        )
    if family == "CalGray":
        return Space(family, f"CalGray space{named}", 1, "gray", independent=True, key=key)
    if family in ("Indexed", "I"):
        base = _space(obj[1], resources, "", depth + 1)
        lookup = obj[3]
        data = lookup.read_bytes() if isinstance(lookup, pikepdf.Stream) else bytes(lookup)
        return Space(
            "Indexed",
            f"Indexed space{named} on {base.label}",
            1,
            "indexed",
            base=base,
            lookup=data,
            independent=base.independent,
            key=key,
        )
    if family in ("Separation", "DeviceN"):
        names = (str(obj[1]),) if family == "Separation" else tuple(str(n) for n in obj[1])
        alternate = _space(obj[2], resources, "", depth + 1)
        shown = ", ".join(n.lstrip("/") for n in names)
        return Space(
            family,
            f"{family} space{named} ({shown}; alternate {alternate.label})",
            len(names),
            "spot",
            base=alternate,
            transform=Function(obj[3]),
            colorants=names,
            independent=alternate.independent,
            key=key,
        )
    if family == "Pattern":
        base = _space(obj[1], resources, "", depth + 1)
        return Space(
            "Pattern",
            f"Pattern space{named} on {base.label}",
            base.components + 1,
            "pattern",
            base=base,
            independent=base.independent,
            key=key,
        )
    raise ValueError(f"unknown colour space family /{family}")


# --- PDF functions (tint transforms and shadings) ----------------------------------------------------
class Function:
    """A PDF function of type 0 (sampled: linear between samples for one input, nearest sample for
    more), 2 (exponential), 3 (stitching) or 4 (PostScript calculator), or an array of them."""

    def __init__(self, obj):
        self.parts = [Function(f) for f in obj] if isinstance(obj, pikepdf.Array) else None
        if self.parts is not None:
            return
        self.type = int(obj.get("/FunctionType"))
        self.domain = [float(v) for v in obj.get("/Domain", [0, 1])]
        self.range = [float(v) for v in obj.get("/Range", [])] or None
        if self.type == 0:
            self.size = [int(v) for v in obj.Size]
            self.bits = int(obj.BitsPerSample)
            self.encode = [
                float(v) for v in obj.get("/Encode", [x for s in self.size for x in (0, s - 1)])
            ]
            self.decode = [float(v) for v in obj.get("/Decode", self.range)]
            self.outputs = len(self.range) // 2
            count = math.prod(self.size) * self.outputs
            self.samples = _unpack_samples(obj.read_bytes(), self.bits, count)
        elif self.type == 2:
            self.c0 = [float(v) for v in obj.get("/C0", [0])]
            self.c1 = [float(v) for v in obj.get("/C1", [1])]
            self.exponent = float(obj.N)
        elif self.type == 3:
            self.functions = [Function(f) for f in obj.Functions]
            self.bounds = [float(v) for v in obj.Bounds]
            self.encode = [float(v) for v in obj.Encode]
        elif self.type == 4:
            self.program = _parse_calculator(obj.read_bytes().decode("latin-1"))
        else:
            raise ValueError(f"function type {self.type}")

    def __call__(self, inputs) -> list[float]:
        inputs = [float(v) for v in inputs]
        if self.parts is not None:
            return [part(inputs)[0] for part in self.parts]
        inputs = [
            min(max(x, self.domain[2 * i]), self.domain[2 * i + 1])
            if 2 * i + 1 < len(self.domain)
            else x
            for i, x in enumerate(inputs)
        ]
        if self.type == 0:
            out = self._sampled(inputs)
        elif self.type == 2:
            x = inputs[0]
            out = [a + (x**self.exponent) * (b - a) for a, b in zip(self.c0, self.c1)]
        elif self.type == 3:
            x = inputs[0]
            lo, hi = self.domain[0], self.domain[1]
            edges = [lo] + self.bounds + [hi]
            k = next((i for i, bound in enumerate(self.bounds) if x < bound), len(self.bounds))
            a, b = edges[k], edges[k + 1]
            e0, e1 = self.encode[2 * k], self.encode[2 * k + 1]
            out = self.functions[k]([e0 + (x - a) * (e1 - e0) / (b - a) if b != a else e0])
        else:
            stack = list(inputs)
            _run_calculator(self.program, stack)
            out = stack
        if self.range:
            out = [
                min(max(v, self.range[2 * i]), self.range[2 * i + 1])
                for i, v in enumerate(out[: len(self.range) // 2])
            ]
        return out

    def _sampled(self, inputs) -> list[float]:
        top = (1 << self.bits) - 1
        positions = []
        for i, x in enumerate(inputs[: len(self.size)]):
            d0, d1 = self.domain[2 * i], self.domain[2 * i + 1]
            e0, e1 = self.encode[2 * i], self.encode[2 * i + 1]
            e = e0 + (x - d0) * (e1 - e0) / (d1 - d0) if d1 != d0 else e0
            positions.append(min(max(e, 0), self.size[i] - 1))

        def sample(index: list[int]) -> list[float]:
            offset, stride = 0, 1
            for i, k in enumerate(index):
                offset += k * stride
                stride *= self.size[i]
            raw = self.samples[offset * self.outputs : (offset + 1) * self.outputs]
            return [
                self.decode[2 * j] + v * (self.decode[2 * j + 1] - self.decode[2 * j]) / top
                for j, v in enumerate(raw)
            ]

        if len(positions) == 1:
            low = int(math.floor(positions[0]))
            high = min(low + 1, self.size[0] - 1)
            t = positions[0] - low
            a, b = sample([low]), sample([high])
            return [x + t * (y - x) for x, y in zip(a, b)]
        return sample([int(round(p)) for p in positions])


def _unpack_samples(data: bytes, bits: int, count: int) -> list[int]:
    if bits == 8:
        return list(data[:count])
    values, accumulator, held = [], 0, 0
    for byte in data:
        accumulator = (accumulator << 8) | byte
        held += 8
        while held >= bits and len(values) < count:
            held -= bits
            values.append((accumulator >> held) & ((1 << bits) - 1))
        accumulator &= (1 << held) - 1
        if len(values) >= count:
            break
    return values


def _parse_calculator(text: str):
    tokens = re.findall(r"[{}]|[^\s{}]+", text)
    position = 0

    def block():
        nonlocal position
        items = []
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token == "{":
                items.append(block())
            elif token == "}":
                return items
            else:
                try:
                    items.append(float(token))
                except ValueError:
                    items.append(token)
        return items

    program = block()
    return program[0] if len(program) == 1 and isinstance(program[0], list) else program


_CALCULATOR = {
    "add": (2, lambda a, b: [a + b]),
    "sub": (2, lambda a, b: [a - b]),
    "mul": (2, lambda a, b: [a * b]),
    "div": (2, lambda a, b: [a / b if b else 0.0]),
    "idiv": (2, lambda a, b: [float(int(a / b)) if b else 0.0]),
    "mod": (2, lambda a, b: [float(math.fmod(int(a), int(b))) if int(b) else 0.0]),
    "neg": (1, lambda a: [-a]),
    "abs": (1, lambda a: [abs(a)]),
    "ceiling": (1, lambda a: [float(math.ceil(a))]),
    "floor": (1, lambda a: [float(math.floor(a))]),
    "round": (1, lambda a: [float(math.floor(a + 0.5))]),
    "truncate": (1, lambda a: [float(int(a))]),
    "sqrt": (1, lambda a: [math.sqrt(max(a, 0))]),
    "sin": (1, lambda a: [math.sin(math.radians(a))]),
    "cos": (1, lambda a: [math.cos(math.radians(a))]),
    "atan": (2, lambda a, b: [math.degrees(math.atan2(a, b)) % 360]),
    "exp": (2, lambda a, b: [a**b]),
    "ln": (1, lambda a: [math.log(a) if a > 0 else 0.0]),
    "log": (1, lambda a: [math.log10(a) if a > 0 else 0.0]),
    "cvi": (1, lambda a: [float(int(a))]),
    "cvr": (1, lambda a: [a]),
    "eq": (2, lambda a, b: [a == b]),
    "ne": (2, lambda a, b: [a != b]),
    "gt": (2, lambda a, b: [a > b]),
    "ge": (2, lambda a, b: [a >= b]),
    "lt": (2, lambda a, b: [a < b]),
    "le": (2, lambda a, b: [a <= b]),
    "and": (2, lambda a, b: [a and b if isinstance(a, bool) else float(int(a) & int(b))]),
    "or": (2, lambda a, b: [a or b if isinstance(a, bool) else float(int(a) | int(b))]),
    "xor": (2, lambda a, b: [a != b if isinstance(a, bool) else float(int(a) ^ int(b))]),
    "not": (1, lambda a: [not a if isinstance(a, bool) else float(~int(a))]),
    "bitshift": (2, lambda a, b: [float(int(a) << int(b) if b >= 0 else int(a) >> -int(b))]),
    "pop": (1, lambda a: []),
    "exch": (2, lambda a, b: [b, a]),
    "dup": (1, lambda a: [a, a]),
}


def _run_calculator(program, stack: list) -> None:
    for item in program:
        if isinstance(item, list):
            stack.append(item)
        elif isinstance(item, float):
            stack.append(item)
        elif item in ("true", "false"):
            stack.append(item == "true")
        elif item == "if":
            body, condition = stack.pop(), stack.pop()
            if condition:
                _run_calculator(body, stack)
        elif item == "ifelse":
            other, body, condition = stack.pop(), stack.pop(), stack.pop()
            _run_calculator(body if condition else other, stack)
        elif item == "copy":
            n = int(stack.pop())
            stack.extend(stack[-n:] if n else [])
        elif item == "index":
            n = int(stack.pop())
            stack.append(stack[-1 - n])
        elif item == "roll":
            j, n = int(stack.pop()), int(stack.pop())
            if n:
                part = stack[-n:]
                j %= n
                stack[-n:] = part[-j:] + part[:-j] if j else part
        elif item in _CALCULATOR:
            arity, operation = _CALCULATOR[item]
            operands = stack[-arity:]
            del stack[-arity:]
            stack.extend(operation(*operands))
        else:
            raise ValueError(f"unknown calculator operator {item}")


# --- shadings and images: their colours at the worst point ----------------------------------------
def _worst(space: Space, colours) -> tuple[float, float, float, float] | None:
    """The colour with the most total ink among `colours` (component tuples)."""
    best = None
    for colour in colours:
        ink = space.ink(colour)
        if ink is not None and (best is None or sum(ink) > sum(best)):
            best = ink
    return best


def _shading_colours(shading, space: Space) -> list[tuple[float, ...]]:
    """Colours a shading can paint. With a function: its values sampled over the domain (a shading
    interpolates between them). Mesh shadings without one: every vertex's colour (the colours
    between vertices are interpolated, so the total ink is worst at a vertex)."""
    kind = int(shading.get("/ShadingType", 0))
    function = Function(shading.Function) if "/Function" in shading else None
    if function is not None:
        if kind == 1:
            domain = [float(v) for v in shading.get("/Domain", [0, 1, 0, 1])]
            steps = [i / 16 for i in range(17)]
            return [
                tuple(
                    function(
                        [
                            domain[0] + s * (domain[1] - domain[0]),
                            domain[2] + t * (domain[3] - domain[2]),
                        ]
                    )
                )
                for s in steps
                for t in steps
            ]
        if kind in (2, 3):
            domain = [float(v) for v in shading.get("/Domain", [0, 1])]
        else:
            domain = [float(v) for v in shading.Decode[4:6]]
        return [tuple(function([domain[0] + i / 64 * (domain[1] - domain[0])])) for i in range(65)]
    if kind in (4, 5, 6, 7):
        return _mesh_colours(shading, space.components, kind)
    return []


class _Bits:
    def __init__(self, data: bytes):
        self.data, self.position = data, 0

    def read(self, bits: int) -> int:
        value = 0
        for _ in range(bits):
            byte = self.data[self.position >> 3]
            value = (value << 1) | ((byte >> (7 - (self.position & 7))) & 1)
            self.position += 1
        return value

    def align(self) -> None:
        self.position = (self.position + 7) & ~7

    def left(self) -> int:
        return len(self.data) * 8 - self.position


def _mesh_colours(shading, components: int, kind: int) -> list[tuple[float, ...]]:
    """Vertex colours of a mesh shading (types 4 to 7), each vertex or patch starting on a byte."""
    coordinate, component = int(shading.BitsPerCoordinate), int(shading.BitsPerComponent)
    flag_bits = int(shading.get("/BitsPerFlag", 0)) if kind != 5 else 0
    decode = [float(v) for v in shading.Decode][4:]
    top = (1 << component) - 1
    reader, colours = _Bits(shading.read_bytes()), []

    def colour():
        raw = [reader.read(component) for _ in range(components)]
        return tuple(
            decode[2 * i] + v * (decode[2 * i + 1] - decode[2 * i]) / top for i, v in enumerate(raw)
        )

    while True:
        if kind in (4, 5):
            needed = flag_bits + 2 * coordinate + components * component
            if reader.left() < needed:
                break
            reader.read(flag_bits)
            reader.read(2 * coordinate)
            colours.append(colour())
        else:
            if reader.left() < flag_bits:
                break
            flag = reader.read(flag_bits)
            points = (12 if kind == 6 else 16) if flag == 0 else (8 if kind == 6 else 12)
            count = 4 if flag == 0 else 2
            if reader.left() < points * 2 * coordinate + count * components * component:
                break
            reader.read(points * 2 * coordinate)
            colours.extend(colour() for _ in range(count))
        reader.align()
    return colours


_MAX_DISTINCT = (
    4096  # distinct colours of an Indexed, Separation or DeviceN image evaluated one by one
)


def _image_colours(
    samples, space: Space, width: int, height: int, bits: int, decode: list[float] | None
):
    """The distinct colours an image's samples hold, as component tuples (numpy), or None."""
    import numpy

    n = space.components
    row = (width * n * bits + 7) // 8
    if len(samples) < row * height:
        return None
    data = numpy.frombuffer(samples, dtype=numpy.uint8)[: row * height].reshape(height, row)
    if bits == 8:
        values = data[:, : width * n].reshape(-1, n).astype(numpy.float64)
    elif bits == 16:
        values = data.view(">u2")[:, : width * n].reshape(-1, n).astype(numpy.float64)
    else:
        bitplanes = numpy.unpackbits(data, axis=1)[:, : width * n * bits].reshape(
            height, width * n, bits
        )
        weights = 1 << numpy.arange(bits - 1, -1, -1)
        values = (bitplanes * weights).sum(axis=2).reshape(-1, n).astype(numpy.float64)
    top = (1 << bits) - 1
    if decode is None:
        decode = [0, top] if space.family == "Indexed" else [0, 1] * n
    low = numpy.array(decode[0::2][:n])
    high = numpy.array(decode[1::2][:n])
    return low + values * (high - low) / top


def _image_worst(colours, space: Space):
    import numpy

    if space.process == "cmyk":
        totals = numpy.clip(colours, 0, 1).sum(axis=1)
        return space.ink(colours[int(numpy.argmax(totals))]) if len(colours) else None
    if space.process == "gray":
        return space.ink([float(numpy.clip(colours, 0, 1).min())]) if len(colours) else None
    distinct = numpy.unique(numpy.round(colours, 4), axis=0)
    if len(distinct) > _MAX_DISTINCT:  # assume more tint is more ink: keep the heaviest
        distinct = distinct[numpy.argsort(-distinct.sum(axis=1))[:_MAX_DISTINCT]]
    return _worst(space, [tuple(c) for c in distinct])


def _image_samples(obj, raw: bytes | None = None) -> tuple[bytes, bool] | None:
    """An image's decoded samples and whether a JPEG's CMYK came back inverted from Pillow's reading
    of an Adobe marker; None when the data cannot be decoded here (JPEG 2000, JBIG2 ...)."""
    filters = obj.get("/Filter")
    filters = (
        [str(f) for f in filters]
        if isinstance(filters, pikepdf.Array)
        else [str(filters)]
        if filters
        else []
    )
    if raw is not None:  # an inline image: its data, filters still applied
        scratch = pikepdf.new()
        stream = pikepdf.Stream(scratch, raw)
        for key in ("/Filter", "/DecodeParms"):
            if key in obj:
                stream[key] = obj[key]
        obj = stream
    if filters and filters[-1] in ("/DCTDecode", "/DCT"):
        import io

        from PIL import Image

        encoded = obj.read_bytes(decode_level=pikepdf.StreamDecodeLevel.generalized)
        with Image.open(io.BytesIO(encoded)) as picture:
            inverted = picture.mode == "CMYK" and "adobe" in picture.info
            return picture.tobytes(), inverted
    try:
        return obj.read_bytes(), False
    except pikepdf.PdfError:
        return None


# --- the page: a content stream reader that follows the graphics state ------------------------------
@dataclass
class Colour:
    space: Space
    values: tuple
    how: str  # the operator that set it, for messages
    pattern: str = ""  # the pattern's name when the space is Pattern


@dataclass
class State:
    ctm: list
    fill: Colour
    stroke: Colour
    overprint_fill: bool = False
    overprint_stroke: bool = False
    overprint_mode: int = 0
    render_mode: int = 0


_PAINT_FILL = {"f", "F", "f*"}
_PAINT_STROKE = {"S", "s"}
_PAINT_BOTH = {"B", "B*", "b", "b*"}
_TEXT_SHOW = {"Tj", "TJ", "'", '"'}
# every operator _PageInk.run reads: the graphics state, colours, painting, text shown, shadings, XObjects and
# inline images (BI, ID and EI, which qpdf gives as one "INLINE IMAGE")
_READ_OPERATORS = " ".join(
    sorted(
        {
            "q",
            "Q",
            "cm",
            "g",
            "G",
            "rg",
            "RG",
            "k",
            "K",
            "cs",
            "CS",
            "sc",
            "scn",
            "SC",
            "SCN",
            "gs",
            "Tr",
            "sh",
            "Do",
            "BI",
            "ID",
            "EI",
            *_PAINT_FILL,
            *_PAINT_STROKE,
            *_PAINT_BOTH,
            *_TEXT_SHOW,
        }
    )
)
_NORMAL_BLENDS = {"/Normal", "/Compatible"}


class _FileInks:
    """What is read once per file: parsed content streams and each image's worst colour."""

    def __init__(self):
        self.instructions: dict = {}
        self.images: dict = {}

    def parse(self, owner):
        key = owner.objgen if owner.objgen != (0, 0) else id(owner)
        if key not in self.instructions:
            # only the operators _PageInk.run acts on, picked out by qpdf: paths and text positioning, most of a
            # page's operators, never become Python objects (a third of preflight's time)
            self.instructions[key] = pikepdf.parse_content_stream(owner, _READ_OPERATORS)
        return self.instructions[key]


class _PageInk:
    """Reads one page's content, forms, patterns and images, and reports what the profile forbids.

    Ink in effect under overprint (a simple model, since geometry is not followed): every colour
    painted on the page is remembered; an overprinted paint in DeviceCMYK with overprint mode 1
    keeps, on the plates where its components are zero, whatever lies beneath; an overprinted spot
    colour (Separation or DeviceN on non-process colorants) keeps every process plate beneath. The
    paint may land on any earlier colour of the page, so its ink in effect is its own plus the
    heaviest earlier colour's ink on the plates it keeps."""

    def __init__(self, pdf: pikepdf.Pdf, page: pikepdf.Page, profile: Profile, inks: _FileInks):
        self.pdf, self.page, self.profile, self.inks = pdf, page, profile, inks
        self.cmyk = profile.colour.space == "cmyk"
        self.limit = profile.colour.ink_limit
        # PDF/X-1a's colour rules (no ICC-based or Lab colour, 8-bit images, no JPEG 2000); PDF/X-4 allows those,
        # and forbids transfer functions like X-1a
        self.pdfx = profile.pdfx is not None and profile.pdfx.version.startswith("PDF/X-1a")
        self.any_pdfx = profile.pdfx is not None
        self.messages: dict[str, None] = {}
        self.spaces_reported: set[str] = set()
        self.painted: set[tuple[float, ...]] = set()
        self.patterns_read: set = set()

    def read(self) -> list[str]:
        group = self.page.obj.get("/Group")
        if (
            group is not None
            and group.get("/S") == "/Transparency"
            and not self.profile.transparency
        ):
            self.report("a transparency group on the page (the shop allows no transparency)")
        black = Colour(DEVICE["/DeviceGray"], (0.0,), "the initial colour")
        state = State([1.0, 0.0, 0.0, 1.0, 0.0, 0.0], black, black)
        try:
            self.run(self.page.obj, _inherited(self.page.obj, "/Resources"), state, (), "")
        except (
            pikepdf.PdfError,
            ValueError,
            KeyError,
            IndexError,
            TypeError,
            ZeroDivisionError,
        ) as error:
            self.report(f"the page cannot be read through: {error}")
        return list(self.messages)

    def report(self, message: str) -> None:
        self.messages.setdefault(message, None)

    # -- colour checks --
    def check_space(self, space: Space, how: str) -> None:
        """RGB or Lab in a CMYK file; device-independent colour in PDF/X-1a. Once per space and page."""
        if space.key in self.spaces_reported:
            return
        wrong = space.rgb_or_lab() if self.cmyk else None
        if wrong is not None:
            self.spaces_reported.add(space.key)
            what = "RGB" if wrong.process == "rgb" else "Lab"
            self.report(f"{what} colour in a CMYK file: {how} in {space.label}")
        elif self.pdfx and space.independent:
            self.spaces_reported.add(space.key)
            self.report(
                f"device-independent colour ({how} in {space.label}): "
                f"{self.profile.pdfx.version} allows only CMYK, grey and spot colours"
            )

    def paint(self, ink, overprint: bool, space: Space, what: str, state: State) -> None:
        """Record painted ink; report it over the limit, with what lies beneath when overprinted."""
        if ink is None:
            return
        kept = []  # plates this paint leaves as they were
        if overprint and space.family == "DeviceCMYK" and state.overprint_mode == 1:
            kept = [plate for plate in range(4) if ink[plate] == 0]
        elif (
            overprint
            and space.process == "spot"
            and not all(n in PROCESS_PLATES for n in space.colorants)
        ):
            kept = [0, 1, 2, 3]
        own = sum(ink)
        beneath = (
            max(self.painted, key=lambda under: sum(under[p] for p in kept), default=None)
            if kept
            else None
        )
        if beneath is not None and sum(beneath[p] for p in kept) > 0:
            under = sum(beneath[p] for p in kept)
            effect = own + under
            if kept == [0, 1, 2, 3]:
                self.painted.add(tuple(min(100.0, a + b) for a, b in zip(ink, beneath)))
            else:
                self.painted.add(tuple(beneath[p] if p in kept else ink[p] for p in range(4)))
            if self.limit is not None and effect > self.limit + 0.5:
                self.report(
                    f"{effect:.0f} % total ink in effect (the limit is {self.limit:.0f} %): {what} "
                    f"({own:.0f} %) overprints, so up to {under:.0f} % of an earlier colour stays beneath"
                )
            return
        self.painted.add(tuple(round(v, 2) for v in ink))
        if self.limit is not None and own > self.limit + 0.5:
            self.report(f"{own:.0f} % total ink (the limit is {self.limit:.0f} %): {what}")

    def paint_colour(
        self, colour: Colour, stroke: bool, operator: str, state: State, resources, depth: int
    ) -> None:
        overprint = state.overprint_stroke if stroke else state.overprint_fill
        if colour.space.family == "Pattern":
            if colour.pattern:
                self.paint_pattern(colour, stroke, state, resources, depth)
            return
        ink = colour.space.ink(colour.values)
        shown = " ".join(f"{float(v):g}" for v in colour.values)
        what = f"{'stroke' if stroke else 'fill'} {colour.space.label} {shown} (set with {colour.how}, painted with {operator})"
        self.paint(ink, overprint, colour.space, what, state)

    def paint_pattern(
        self, colour: Colour, stroke: bool, state: State, resources, depth: int
    ) -> None:
        patterns = resources.get("/Pattern", {}) if resources is not None else {}
        pattern = patterns.get(colour.pattern)
        if pattern is None:
            self.report(f"pattern {colour.pattern} is not in the resources")
            return
        key = (pattern.objgen if pattern.is_indirect else colour.pattern, stroke)
        if key in self.patterns_read:
            return
        self.patterns_read.add(key)
        kind = int(pattern.get("/PatternType", 1))
        inner = replace(
            state,
            ctm=multiply([float(v) for v in pattern.get("/Matrix", [1, 0, 0, 1, 0, 0])], state.ctm),
        )
        if kind == 2:
            if "/ExtGState" in pattern:
                self.graphics_state(pattern.ExtGState, f"of pattern {colour.pattern}", inner)
            self.paint_shading(
                pattern.Shading, f"shading pattern {colour.pattern}", inner, resources
            )
            return
        if (
            int(pattern.get("/PaintType", 1)) == 2 and colour.space.base is not None
        ):  # uncoloured: painted in the base
            fixed = Colour(colour.space.base, colour.values, colour.how)
            inner = replace(inner, fill=fixed, stroke=fixed)
            self.check_space(colour.space.base, colour.how)
            self.run(
                pattern,
                pattern.get("/Resources"),
                inner,
                (),
                f"pattern {colour.pattern}",
                depth + 1,
                locked=True,
            )
        else:
            self.run(
                pattern,
                pattern.get("/Resources"),
                inner,
                (),
                f"pattern {colour.pattern}",
                depth + 1,
            )

    def paint_shading(self, shading, name: str, state: State, resources) -> None:
        space = _space(shading.ColorSpace, resources, "")
        self.check_space(space, f"{name}")
        colours = _shading_colours(shading, space)
        worst = _worst(space, colours)
        self.paint(
            worst,
            state.overprint_fill,
            space,
            f"{name} in {space.label} at its heaviest point",
            state,
        )

    def graphics_state(self, gs, name: str, state: State) -> None:
        if "/OP" in gs:
            state.overprint_stroke = bool(gs.OP)
            state.overprint_fill = bool(gs.OP)
        if "/op" in gs:
            state.overprint_fill = bool(gs.op)
        if "/OPM" in gs:
            state.overprint_mode = int(gs.OPM)
        if self.any_pdfx and ("/TR" in gs or str(gs.get("/TR2", "/Default")) != "/Default"):
            self.report(
                f"a transfer function in graphics state {name} ({self.profile.pdfx.version} forbids it)"
            )
        if self.profile.transparency:
            return
        blend = gs.get("/BM")
        blends = (
            [str(b) for b in blend]
            if isinstance(blend, pikepdf.Array)
            else [str(blend)]
            if blend is not None
            else []
        )
        if blends and blends[0] not in _NORMAL_BLENDS:
            self.report(
                f"blend mode {blends[0]} in graphics state {name} (the shop allows no transparency)"
            )
        mask = gs.get("/SMask")
        if mask is not None and str(mask) != "/None":
            self.report(f"a soft mask in graphics state {name} (the shop allows no transparency)")
        for key, what in (("/CA", "stroke"), ("/ca", "fill")):
            if key in gs and float(gs[key]) < 1:
                self.report(
                    f"{what} opacity {float(gs[key]):g} in graphics state {name} "
                    "(the shop allows no transparency)"
                )

    def image(self, obj, name: str, state: State, resources, raw: bytes | None = None) -> None:
        width, height = int(obj.get("/Width", 0)), int(obj.get("/Height", 0))
        scale_x, scale_y = (
            math.hypot(state.ctm[0], state.ctm[1]) / 72,
            math.hypot(state.ctm[2], state.ctm[3]) / 72,
        )
        if width and height and scale_x and scale_y:
            dpi = min(width / scale_x, height / scale_y)
            if dpi + 0.5 < self.profile.min_dpi:
                self.report(
                    f"image {name} is {dpi:.0f} dpi where it is placed; the shop needs {self.profile.min_dpi:.0f}"
                )
        if not self.profile.transparency and ("/SMask" in obj or int(obj.get("/SMaskInData", 0))):
            self.report(
                f"image {name} has an alpha channel or mask (a soft mask): the shop allows no transparency"
            )
        filters = obj.get("/Filter")
        filters = (
            [str(f) for f in filters]
            if isinstance(filters, pikepdf.Array)
            else [str(filters)]
            if filters
            else []
        )
        bits = int(obj.get("/BitsPerComponent", 1))
        if self.pdfx and "/JPXDecode" in filters:
            self.report(
                f"image {name} is JPEG 2000 ({self.profile.pdfx.version} allows PDF 1.4 filters only)"
            )
        if self.pdfx and bits > 8:
            self.report(
                f"image {name} has {bits} bits per component ({self.profile.pdfx.version} allows at most 8)"
            )
        if obj.get("/ImageMask", False):
            self.paint_colour(state.fill, False, "an image mask", state, resources, 0)
            return
        if "/ColorSpace" not in obj:
            return  # JPEG 2000 carries its own; nothing more to say without decoding it
        space = _space(obj.ColorSpace, resources, "")
        wrong = space.rgb_or_lab() if self.cmyk else None
        if wrong is not None:
            self.report(
                f"{'RGB' if wrong.process == 'rgb' else 'Lab'} image {name} in a CMYK file "
                f"({space.label}, {bits} bits)"
            )
            return
        if self.pdfx and space.independent:
            self.report(
                f"image {name} in {space.label}: {self.profile.pdfx.version} allows only CMYK, grey and "
                "spot colours"
            )
        if self.limit is None:
            return
        key = obj.objgen if raw is None and obj.objgen != (0, 0) else None
        worst = self.inks.images.get(key) if key is not None else None
        if worst is None:
            worst = self.image_worst(obj, space, width, height, bits, raw)
            if key is not None:
                self.inks.images[key] = worst
        if worst == ():
            self.report(f"image {name}: its samples cannot be read to measure the ink")
            return
        self.paint(
            worst,
            state.overprint_fill,
            space,
            f"image {name} ({space.label}, {bits} bits) at its worst pixel",
            state,
        )

    def image_worst(self, obj, space: Space, width: int, height: int, bits: int, raw):
        decoded = _image_samples(obj, raw)
        if decoded is None:
            return ()
        samples, inverted = decoded
        decode = [float(v) for v in obj.get("/Decode", [])] or None
        if inverted:  # Pillow undid the Adobe inversion that a PDF's Decode array is there to undo
            samples = _invert(samples)
        colours = _image_colours(samples, space, width, height, bits, decode)
        if colours is None:
            return ()
        return _image_worst(colours, space)

    # -- the content stream --
    def run(
        self,
        owner,
        resources,
        state: State,
        forms: tuple,
        where: str,
        depth: int = 0,
        locked: bool = False,
    ) -> None:
        """Interpret `owner`'s content. `forms`: the forms being read (a cycle guard). `locked`:
        an uncoloured pattern's cell, whose colour operators are ignored."""
        if depth > 16:
            self.report(f"forms nested more than 16 deep{where and ' in ' + where}")
            return
        stack = []
        for instruction in self.inks.parse(owner):
            op = str(instruction.operator)
            operands = instruction.operands
            if op == "q":
                stack.append(replace(state, ctm=list(state.ctm)))
            elif op == "Q":
                if stack:
                    state = stack.pop()
            elif op == "cm" and len(operands) == 6:
                state.ctm = multiply([float(v) for v in operands], state.ctm)
            elif op in ("g", "G", "rg", "RG", "k", "K") and not locked:
                space = DEVICE[
                    {"g": "/DeviceGray", "rg": "/DeviceRGB", "k": "/DeviceCMYK"}[op.lower()]
                ]
                colour = Colour(space, tuple(float(v) for v in operands), f"'{op}'")
                self.check_space(space, f"set with '{op}'")
                if op.islower():
                    state.fill = colour
                else:
                    state.stroke = colour
            elif op in ("cs", "CS") and operands and not locked:
                space = _space(
                    operands[0],
                    resources,
                    str(operands[0]) if str(operands[0]) not in _DEVICE_NAMES else "",
                )
                colour = Colour(space, space.initial(), f"'{op}'")
                self.check_space(space, f"set with '{op}'")
                if op == "cs":
                    state.fill = colour
                else:
                    state.stroke = colour
            elif op in ("sc", "scn", "SC", "SCN") and not locked:
                current = state.fill if op.islower() else state.stroke
                pattern = (
                    str(operands[-1]) if operands and isinstance(operands[-1], pikepdf.Name) else ""
                )
                values = tuple(float(v) for v in operands if not isinstance(v, pikepdf.Name))
                colour = Colour(current.space, values, f"'{op}'", pattern)
                self.check_space(current.space, f"set with '{op}'")
                if op.islower():
                    state.fill = colour
                else:
                    state.stroke = colour
            elif op == "gs" and operands:
                states = resources.get("/ExtGState", {}) if resources is not None else {}
                gs = states.get(str(operands[0]))
                if gs is None:
                    self.report(f"graphics state {operands[0]} is not in the resources")
                else:
                    self.graphics_state(gs, str(operands[0]), state)
            elif op == "Tr" and operands:
                state.render_mode = int(operands[0])
            elif op in _PAINT_FILL or op in _PAINT_BOTH:
                self.paint_colour(state.fill, False, f"'{op}'", state, resources, depth)
                if op in _PAINT_BOTH:
                    self.paint_colour(state.stroke, True, f"'{op}'", state, resources, depth)
            elif op in _PAINT_STROKE:
                self.paint_colour(state.stroke, True, f"'{op}'", state, resources, depth)
            elif (
                op in _TEXT_SHOW
            ):  # render modes 3 and 7 paint nothing; 4 to 6 paint as 0 to 2, then clip
                mode = state.render_mode % 4
                how = f"'{op}' in text render mode {state.render_mode}"
                if mode in (0, 2):
                    self.paint_colour(state.fill, False, how, state, resources, depth)
                if mode in (1, 2):
                    self.paint_colour(state.stroke, True, how, state, resources, depth)
            elif op == "sh" and operands:
                shadings = resources.get("/Shading", {}) if resources is not None else {}
                shading = shadings.get(str(operands[0]))
                if shading is None:
                    self.report(f"shading {operands[0]} is not in the resources")
                else:
                    self.paint_shading(
                        shading, f"shading {operands[0]} (painted with 'sh')", state, resources
                    )
            elif op == "INLINE IMAGE":
                inline = operands[0]
                self.image(inline.obj, "(inline)", state, resources, raw=inline.read_raw_bytes())
            elif op == "Do" and operands:
                self.draw(str(operands[0]), resources, state, forms, depth)

    def draw(self, name: str, resources, state: State, forms: tuple, depth: int) -> None:
        xobjects = resources.get("/XObject", {}) if resources is not None else {}
        xobject = xobjects.get(name)
        if xobject is None:
            self.report(f"XObject {name} is not in the resources")
            return
        subtype = xobject.get("/Subtype")
        if subtype == "/Image":
            self.image(xobject, name, state, resources)
        elif subtype == "/Form" and xobject.objgen not in forms:
            group = xobject.get("/Group")
            if (
                group is not None
                and group.get("/S") == "/Transparency"
                and not self.profile.transparency
            ):
                self.report(
                    f"a transparency group on form {name} (the shop allows no transparency)"
                )
            matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
            inner = replace(state, ctm=multiply(matrix, state.ctm))
            self.run(
                xobject,
                xobject.get("/Resources", resources),
                inner,
                forms + (xobject.objgen,),
                f"form {name}",
                depth + 1,
            )


def _inherited(page, key: str):
    """A page attribute that may be set on the page or on a Pages node above it."""
    node, depth = page, 0
    while node is not None and depth < 64:
        if key in node:
            return node[key]
        node, depth = node.get("/Parent"), depth + 1
    return None


def _invert(samples: bytes) -> bytes:
    import numpy

    return (255 - numpy.frombuffer(samples, dtype=numpy.uint8)).tobytes()


# --- fonts -----------------------------------------------------------------------------------------
def _unembedded_fonts(pdf: pikepdf.Pdf) -> list[str]:
    names, seen = set(), set()
    stack = [_inherited(page.obj, "/Resources") for page in pdf.pages]
    while stack:
        resources = stack.pop()
        if resources is None:
            continue
        for font in resources.get("/Font", {}).values():
            if font.objgen in seen and font.objgen != (0, 0):
                continue
            seen.add(font.objgen)
            if font.get("/Subtype") == "/Type3":  # its glyphs are content streams in the file
                stack.append(font.get("/Resources"))
                continue
            descriptor = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                descriptor = font.DescendantFonts[0].get("/FontDescriptor")
            if descriptor is None or not any(
                key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")
            ):
                names.add(str(font.get("/BaseFont", "(unnamed)")).lstrip("/"))
        for xobject in resources.get("/XObject", {}).values():
            if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                stack.append(xobject.get("/Resources"))
        for pattern in resources.get("/Pattern", {}).values():
            if isinstance(pattern, pikepdf.Stream) and pattern.objgen not in seen:
                seen.add(pattern.objgen)
                stack.append(pattern.get("/Resources"))
    return sorted(names)


# --- face images: PNG and JPEG -----------------------------------------------------------------------
def _image_file_problems(path: Path, profile: Profile | None, trims) -> list[Problem]:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as picture:
            picture.load()
            mode, (width, height), info = picture.mode, picture.size, dict(picture.info)
            kind = picture.format
            worst = None
            if mode == "CMYK" and profile is not None and profile.colour.ink_limit is not None:
                import numpy

                worst = (
                    float(numpy.asarray(picture, dtype=numpy.float64).sum(axis=2).max()) / 255 * 100
                )
    except (OSError, UnidentifiedImageError, ValueError) as error:
        return [Problem(0, f"not a readable image: {error}")]
    problems = []
    dpi = info.get("dpi")
    stated = min(float(v) for v in dpi) if dpi else 0.0
    if stated <= 1:
        where = "pHYs chunk" if kind == "PNG" else "JFIF density"
        problems.append(
            Problem(
                0,
                f"no resolution in the file (no {where}): shops and image tools read it as 72 dpi",
            )
        )
    if profile is None:
        return problems
    if stated > 1 and stated + 0.5 < profile.min_dpi:
        problems.append(
            Problem(
                0, f"the file says {stated:.0f} dpi; {profile.label} needs {profile.min_dpi:.0f}"
            )
        )
    if profile.pixels is not None and (width, height) != (
        profile.pixels.width,
        profile.pixels.height,
    ):
        problems.append(
            Problem(
                0,
                f"{width} × {height} px; {profile.label} wants {profile.pixels.width} × "
                f"{profile.pixels.height} px",
            )
        )
    if stated > 1 and trims:
        size = (width / stated * 72, height / stated * 72)
        wanted = [(w + 2 * profile.bleed, h + 2 * profile.bleed) for w, h in trims]
        if not any(abs(size[0] - w) < 1.5 and abs(size[1] - h) < 1.5 for w, h in wanted):
            shown = ", ".join(f"{to_mm(w):.1f} × {to_mm(h):.1f}" for w, h in wanted)
            problems.append(
                Problem(
                    0,
                    f"at the {stated:.0f} dpi it states the image is {to_mm(size[0]):.1f} × "
                    f"{to_mm(size[1]):.1f} mm; the shop's cards with bleed are {shown} mm",
                )
            )
    base = mode[:-1] if mode in ("RGBA", "LA", "PA") else mode
    if profile.colour.space == "cmyk" and base != "CMYK":
        problems.append(
            Problem(
                0,
                f"colour mode {mode}: {profile.label} wants CMYK"
                + (" (a PNG cannot hold CMYK: send a CMYK JPEG or a PDF)" if kind == "PNG" else ""),
            )
        )
    elif profile.colour.space == "rgb" and base not in ("RGB", "L", "P", "1"):
        problems.append(Problem(0, f"colour mode {mode}: {profile.label} wants RGB"))
    if (mode in ("RGBA", "LA", "PA") or "transparency" in info) and not profile.image_alpha:
        problems.append(
            Problem(
                0,
                f"an alpha channel (mode {mode}): transparent pixels print unpredictably; "
                f"{profile.label} wants opaque faces",
            )
        )
    if worst is not None and worst > profile.colour.ink_limit + 0.5:
        problems.append(
            Problem(
                0,
                f"{worst:.0f} % total ink at the worst pixel (the limit is "
                f"{profile.colour.ink_limit:.0f} %)",
            )
        )
    return problems
