"""A page's content read through its graphics state, into forms and patterns: every colour set and
painted, checked against the profile (RGB in a CMYK file, total ink, overprint, transparency,
image resolution and PDF/X's colour rules)."""

from __future__ import annotations

import math
from dataclasses import replace

import pikepdf

from printshop.checks.preflight.graphics import (
    ANYWHERE,
    PATH_OPERATORS,
    Colour,
    State,
    extent,
    inherited,
    kept_plates,
    meet,
    multiply,
    path_points,
    scale,
    state_problems,
    widen,
)
from printshop.checks.preflight.samples import (
    image_colours,
    image_samples,
    invert,
    shading_colours,
    worst_image_ink,
    worst_ink,
)
from printshop.checks.preflight.separations import rendered_worst
from printshop.checks.preflight.shop_rules import TEXT_STATE, RuleFindings, text_state
from printshop.checks.preflight.spaces import DEVICE, DEVICE_NAMES, Space, read_space
from printshop.project.models.profile import Profile

# --- the page: a content stream reader that follows the graphics state
# ------------------------------
_PAINT_FILL = {"f", "F", "f*"}


_PAINT_STROKE = {"S", "s"}


_PAINT_BOTH = {"B", "B*", "b", "b*"}


_TEXT_SHOW = {"Tj", "TJ", "'", '"'}
_SET_COLOUR = {"g", "G", "rg", "RG", "k", "K", "cs", "CS", "sc", "scn", "SC", "SCN"}
_PAINTS = _PAINT_FILL | _PAINT_STROKE | _PAINT_BOTH | _TEXT_SHOW


# every operator PageInk.run reads: the graphics state, colours, painting, text shown, shadings,
# XObjects and inline images (BI, ID and EI, which qpdf gives as one "INLINE IMAGE")
_READ_OPERATORS = " ".join(
    sorted(
        {*"q Q cm gs Tr sh Do BI ID EI w".split(), *_SET_COLOUR, *TEXT_STATE}
        | _PAINT_FILL | _PAINT_STROKE | _PAINT_BOTH | _TEXT_SHOW
    )
)  # fmt: skip


class FileInks:
    """What is read once per file: parsed content streams and each image's worst colour."""

    def __init__(self, path=None) -> None:
        self.path = path  # the file, for a rendering of a page's separations
        self.instructions: dict = {}
        self.images: dict = {}

    def parse(self, owner, geometry: bool = False):
        key = (owner.objgen if owner.objgen != (0, 0) else id(owner), geometry)
        if key not in self.instructions:
            # only the operators PageInk.run acts on, picked out by qpdf: paths and text
            # positioning, most of a page's operators, never become Python objects (a third of
            # preflight's time) except on a page read again for where its overprints land
            operators = _READ_OPERATORS + (" " + " ".join(PATH_OPERATORS) if geometry else "")
            self.instructions[key] = pikepdf.parse_content_stream(owner, operators)
        return self.instructions[key]


class PageInk:
    """Reads one page's content, forms, patterns and images, and reports what the profile forbids.

    Ink in effect under overprint: every colour painted on the page is remembered with where it
    lands (the device-space box of its path or image; text and 'sh' anywhere); an overprinted paint
    in DeviceCMYK with overprint mode 1 keeps, on the plates where its components are zero, whatever
    lies beneath; an overprinted spot colour (Separation or DeviceN on non-process colorants) keeps
    every process plate beneath. Its ink in effect is its own plus, on the plates it keeps, the
    heaviest earlier colour whose box meets its own. Where the paint lands is read only on a page
    that overprints (read a second time with its path operators). An overprinted paint of no ink
    (white) that keeps every plate beneath vanishes on press: an error.

    `worst`: the page's worst-point ink as the model has it (percent), compared with a rendering of
    the separations in tests/test_preflight_standard.py."""

    def __init__(self, pdf: pikepdf.Pdf, page: pikepdf.Page, profile: Profile, inks: FileInks):
        self.pdf, self.page, self.profile, self.inks = pdf, page, profile, inks
        self.cmyk = profile.colour.space == "cmyk"
        self.limit = profile.colour.ink_limit
        # PDF/X-1a's colour rules (no ICC-based or Lab colour, 8-bit images, no JPEG 2000); PDF/X-4
        # allows those, and forbids transfer functions like X-1a
        self.pdfx = profile.pdfx is not None and profile.pdfx.version.startswith("PDF/X-1a")
        self.pdfx_version = profile.pdfx.version if profile.pdfx is not None else ""
        self.messages: dict[str, None] = {}
        self.spaces_reported: set[str] = set()
        self.painted: set[tuple[tuple[float, ...], object]] = set()  # (ink, where it lands)
        self.patterns_read: set = set()
        self.geometry = False  # following where paint lands (the page's second reading)
        self.overprints = False  # an overprinted paint keeps plates beneath
        self.where: object = ANYWHERE  # the current paint's extent
        self.path: list[tuple[float, float]] = []
        self.worst = 0.0
        self.overprinted: list[str] = []  # the model's overprint-over-limit messages
        # an overprinted paint met ink beneath: the page's worst point is then what its rendered
        # separations say (the model cannot see what a later opaque paint hid)
        self.overprinting = False
        line = profile.dieline  # the die line's spot colours print no ink: never counted
        self.dielines = frozenset((line.cut, line.crease))
        self.rules = RuleFindings(profile)  # the shop rules the content breaks

    def read(self) -> list[str]:
        group = self.page.obj.get("/Group")
        if (
            group is not None
            and group.get("/S") == "/Transparency"
            and not self.profile.transparency
        ):
            self.report("a transparency group on the page (the shop allows no transparency)")
        try:
            self.read_once()
            if self.overprints:  # read again, following where each paint lands
                self.geometry, self.overprints = True, False
                self.painted, self.patterns_read, self.worst = set(), set(), 0.0
                self.overprinting = False
                kept = dict(self.messages)
                self.messages.clear()
                self.overprinted.clear()
                self.read_once()
                # the overprint messages of the second reading replace the first's
                self.messages = {
                    **{m: None for m in kept if "in effect" not in m},
                    **self.messages,
                }
                self.measure_overprint()
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

    def measure_overprint(self) -> None:
        """Where an overprinted paint meets ink beneath, the page's separations rendered decide
        (the model cannot see that a later opaque paint hid the colour beneath, so it can only
        err high): the page's worst point is what prints, reported when over the limit. Without
        Ghostscript the model's figure stands."""
        if not self.overprinting or self.inks.path is None:
            return
        measured = rendered_worst(self.inks.path, self.page.index + 1, skip=self.dielines)
        if measured is None:
            return
        for message in self.overprinted:
            self.messages.pop(message, None)
        self.worst = measured
        if self.limit is not None and measured > self.limit + 1:  # 8 bits a plate: 0.4 % each
            first = (
                self.overprinted[0].split(": ", 1)[1]
                if self.overprinted
                else "an overprinted paint and what lies beneath"
            )
            self.report(
                f"{measured:.0f} % total ink where overprint leaves ink beneath, measured on the "
                f"page's separations rendered (the limit is {self.limit:.0f} %): {first}"
            )

    def read_once(self) -> None:
        black = Colour(DEVICE["/DeviceGray"], (0.0,), "the initial colour")
        state = State([1.0, 0.0, 0.0, 1.0, 0.0, 0.0], black, black)
        self.spaces_reported = set()
        self.run(self.page.obj, inherited(self.page.obj, "/Resources"), state, (), "")

    def report(self, message: str) -> None:
        self.messages.setdefault(message, None)

    # -- colour checks --
    def check_space(self, space: Space, how: str) -> None:
        """RGB or Lab in a CMYK file; device-independent colour in PDF/X-1a. Once per space and
        page."""
        self.rules.space(space)
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
                f"{self.pdfx_version} allows only CMYK, grey and spot colours"
            )

    def paint(self, ink, overprint: bool, space: Space, what: str, state: State) -> None:
        """Record painted ink; report it over the limit, with what lies beneath when overprinted. The
        profile's die line prints nothing; it must overprint, or it cuts a gap in the art."""
        if ink is None:
            return
        if space.colorants and {n[1:] for n in space.colorants} <= self.dielines:
            if not overprint:
                self.report(
                    f"die line {space.label} knocks out the art beneath ({what}): set it to "
                    "overprint (a shop's die line never prints, but its knock-out leaves white)"
                )
            return
        kept = kept_plates(ink, overprint, space, state)  # plates this paint leaves as they were
        own = sum(ink)
        if kept:
            self.overprints = True
        if len(kept) == 4 and own == 0:
            self.report(
                f"white (no ink) set to overprint: {what} vanishes on press, leaving what lies "
                "beneath (set it to knock out: no overprint, or overprint mode 0 in DeviceCMYK)"
            )
        where = self.where if self.geometry else ANYWHERE
        beneath = (
            max(
                (under for under, there in self.painted if meet(there, where)),
                key=lambda under: sum(under[p] for p in kept),
                default=None,
            )
            if kept
            else None
        )
        if beneath is not None and sum(beneath[p] for p in kept) > 0:
            self.paint_over(ink, beneath, kept, what, where)
            return
        self.painted.add((tuple(round(v, 2) for v in ink), where))
        self.worst = max(self.worst, own)
        if self.limit is not None and own > self.limit + 0.5:
            self.report(f"{own:.0f} % total ink (the limit is {self.limit:.0f} %): {what}")

    def paint_over(self, ink, beneath, kept: list[int], what: str, where) -> None:
        """An overprinted paint on the heaviest earlier colour: its ink in effect on the plates it
        keeps."""
        own = sum(ink)
        under = sum(beneath[p] for p in kept)
        effect = own + under
        if kept == [0, 1, 2, 3]:
            effect_ink = tuple(min(100.0, a + b) for a, b in zip(ink, beneath))
        else:
            effect_ink = tuple(beneath[p] if p in kept else ink[p] for p in range(4))
        self.painted.add((effect_ink, where))
        self.worst = max(self.worst, effect)
        self.overprinting = True
        if self.limit is not None and effect > self.limit + 0.5:
            message = (
                f"{effect:.0f} % total ink in effect (the limit is {self.limit:.0f} %): {what} "
                f"({own:.0f} %) overprints, so up to {under:.0f} % of an earlier colour stays beneath"
            )
            self.overprinted.append(message)
            self.report(message)

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
        space = read_space(shading.ColorSpace, resources, "")
        self.check_space(space, f"{name}")
        colours = shading_colours(shading, space)
        worst = worst_ink(space, colours)
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
        if "/LW" in gs:
            state.line_width = float(gs.LW)
        for message in state_problems(gs, name, self.profile):
            self.report(message)

    def image(self, obj, name: str, state: State, resources, raw: bytes | None = None) -> None:
        self.where = extent(path_points("re", [0, 0, 1, 1], state.ctm))
        width, height = int(obj.get("/Width", 0)), int(obj.get("/Height", 0))
        bits = self.check_image_form(obj, name, state, width, height)
        if obj.get("/ImageMask", False):
            self.paint_colour(state.fill, False, "an image mask", state, resources, 0)
            return
        if "/ColorSpace" not in obj:
            return  # JPEG 2000 carries its own; nothing more to say without decoding it
        space = read_space(obj.ColorSpace, resources, "")
        if not self.check_image_space(space, name, bits) or self.limit is None:
            return
        self.paint_image(obj, name, space, width, height, bits, state, raw)

    def check_image_form(self, obj, name: str, state: State, width: int, height: int) -> int:
        """An image's resolution where it is placed, its soft mask, and PDF/X-1a's filters and bits
        (returned: its bits per component)."""
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
        banned = [f for f in filters if f in ("/LZWDecode", "/JBIG2Decode")]
        if self.pdfx and banned:
            self.report(
                f"image {name} is compressed with {banned[0][1:]} ({self.pdfx_version} forbids it)"
            )
        if self.pdfx and "/JPXDecode" in filters:
            self.report(
                f"image {name} is JPEG 2000 ({self.pdfx_version} allows PDF 1.4 filters only)"
            )
        if self.pdfx and bits > 8:
            self.report(
                f"image {name} has {bits} bits per component ({self.pdfx_version} allows at most 8)"
            )
        return bits

    def check_image_space(self, space: Space, name: str, bits: int) -> bool:
        """An image's colour space: False for RGB or Lab in a CMYK file (its ink is not measured
        then)."""
        self.rules.space(space)
        wrong = space.rgb_or_lab() if self.cmyk else None
        if wrong is not None:
            self.report(
                f"{'RGB' if wrong.process == 'rgb' else 'Lab'} image {name} in a CMYK file "
                f"({space.label}, {bits} bits)"
            )
            return False
        if self.pdfx and space.independent:
            self.report(
                f"image {name} in {space.label}: {self.pdfx_version} allows only CMYK, grey and "
                "spot colours"
            )
        return True

    def paint_image(
        self, obj, name: str, space: Space, width: int, height: int, bits: int, state: State, raw
    ) -> None:
        """An image's ink at its worst pixel, painted (each image object measured once per file)."""
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
        decoded = image_samples(obj, raw)
        if decoded is None:
            return ()
        samples, inverted = decoded
        decode = [float(v) for v in obj.get("/Decode", [])] or None
        if inverted:  # Pillow undid the Adobe inversion that a PDF's Decode array is there to undo
            samples = invert(samples)
        colours = image_colours(samples, space, width, height, bits, decode)
        if colours is None:
            return ()
        return worst_image_ink(colours, space)

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
        for instruction in self.inks.parse(owner, self.geometry):
            op = str(instruction.operator)
            operands = instruction.operands
            if op == "q":
                stack.append(replace(state, ctm=list(state.ctm)))
            elif op == "Q":
                if stack:
                    state = stack.pop()
            elif op in _SET_COLOUR:
                if not locked:
                    self.set_colour(op, operands, state, resources)
            elif op in _PAINTS:
                self.paint_operator(op, state, resources, depth)
            elif op in TEXT_STATE:
                text_state(op, operands, state)
            elif op in PATH_OPERATORS:
                if op == "w" and operands:
                    state.line_width = float(operands[0])
                elif op == "n":
                    self.path = []
                elif op not in ("h", "W", "W*"):
                    self.path.extend(path_points(op, operands, state.ctm))
            elif op == "cm" and len(operands) == 6:
                state.ctm = multiply([float(v) for v in operands], state.ctm)
            elif op == "gs" and operands:
                self.use_graphics_state(str(operands[0]), state, resources)
            elif op == "Tr" and operands:
                state.render_mode = int(operands[0])
            elif op == "sh" and operands:
                self.shade(str(operands[0]), state, resources)
            elif op == "INLINE IMAGE":
                inline = operands[0]
                self.image(inline.obj, "(inline)", state, resources, raw=inline.read_raw_bytes())
            elif op == "Do" and operands:
                self.draw(str(operands[0]), resources, state, forms, depth)

    def set_colour(self, op: str, operands, state: State, resources) -> None:
        """A colour operator: the colour it sets, for filling (lower case) or stroking, its space
        checked."""
        if op in ("g", "G", "rg", "RG", "k", "K"):
            space = DEVICE[{"g": "/DeviceGray", "rg": "/DeviceRGB", "k": "/DeviceCMYK"}[op.lower()]]
            colour = Colour(space, tuple(float(v) for v in operands), f"'{op}'")
            self.check_space(space, f"set with '{op}'")
        elif op in ("cs", "CS"):
            if not operands:
                return
            space = read_space(
                operands[0],
                resources,
                str(operands[0]) if str(operands[0]) not in DEVICE_NAMES else "",
            )
            colour = Colour(space, space.initial(), f"'{op}'")
            self.check_space(space, f"set with '{op}'")
        else:  # sc, scn, SC, SCN
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

    def paint_operator(self, op: str, state: State, resources, depth: int) -> None:
        """A painting operator: the fill, the stroke or both, as the operator (or text render mode)
        paints."""
        self.where = ANYWHERE if op in _TEXT_SHOW else extent(self.path) or ANYWHERE
        if self.where is not ANYWHERE and op not in _PAINT_FILL:  # a stroke: half its width out
            self.where = widen(self.where, state.line_width * scale(state.ctm) / 2 + 0.5)
        if op not in _TEXT_SHOW:
            self.path = []
        if op in _PAINT_STROKE or op in _PAINT_BOTH:
            self.rules.stroke(state, op)
        if op in _PAINT_FILL or op in _PAINT_BOTH:
            self.paint_colour(state.fill, False, f"'{op}'", state, resources, depth)
            if op in _PAINT_BOTH:
                self.paint_colour(state.stroke, True, f"'{op}'", state, resources, depth)
        elif op in _PAINT_STROKE:
            self.paint_colour(state.stroke, True, f"'{op}'", state, resources, depth)
        else:  # text shown: render modes 3 and 7 paint nothing; 4 to 6 paint as 0 to 2, then clip
            mode = state.render_mode % 4
            how = f"'{op}' in text render mode {state.render_mode}"
            if mode in (0, 2):
                self.rules.text(state, state.fill)
                self.paint_colour(state.fill, False, how, state, resources, depth)
            if mode in (1, 2):
                self.rules.text(state, state.stroke)
                self.paint_colour(state.stroke, True, how, state, resources, depth)

    def use_graphics_state(self, name: str, state: State, resources) -> None:
        states = resources.get("/ExtGState", {}) if resources is not None else {}
        gs = states.get(name)
        if gs is None:
            self.report(f"graphics state {name} is not in the resources")
        else:
            self.graphics_state(gs, name, state)

    def shade(self, name: str, state: State, resources) -> None:
        """The 'sh' operator: a shading painted where the clip allows."""
        shadings = resources.get("/Shading", {}) if resources is not None else {}
        shading = shadings.get(name)
        if shading is None:
            self.report(f"shading {name} is not in the resources")
        else:
            self.where = ANYWHERE
            self.paint_shading(shading, f"shading {name} (painted with 'sh')", state, resources)

    def draw(self, name: str, resources, state: State, forms: tuple, depth: int) -> None:
        xobjects = resources.get("/XObject", {}) if resources is not None else {}
        xobject = xobjects.get(name)
        if xobject is None:
            self.report(f"XObject {name} is not in the resources")
            return
        subtype = xobject.get("/Subtype")
        if subtype == "/PS" or xobject.get("/Subtype2") == "/PS":
            self.report(f"PostScript XObject {name}: its code prints or not as the RIP decides")
        elif subtype == "/Image":
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
