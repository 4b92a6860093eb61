"""The file as a whole: encryption and the PDF/X keys (trailer /ID, document information, output
intent and its ICC profile, XMP metadata, version); what PDF/X forbids in a printed file
(annotations on the page, form fields, JavaScript and actions, optional content in PDF/X-1a); and a
card file's pages in the profile's order, read from the page labels."""

from __future__ import annotations

import re

import pikepdf

from printshop.checks.preflight.problem import Problem
from printshop.project.models.profile import Profile


# --- the file: encryption, PDF/X keys, output intent, version
# ---------------------------------------
def structure_problems(pdf: pikepdf.Pdf, profile: Profile) -> list[str]:
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
        x4 = wanted.startswith("PDF/X-4")
        if x4 and "/DestOutputProfile" not in intent and "/DestOutputProfileRef" not in intent:
            problems.append(
                f"the PDF/X output intent embeds no ICC profile (DestOutputProfile): {wanted} "
                "requires the characterization's profile in the file"
            )
        elif "/DestOutputProfile" not in intent and not str(intent.get("/RegistryName", "")):
            problems.append(
                "the PDF/X output intent neither embeds an ICC profile (DestOutputProfile) nor names "
                "the registry of its condition (RegistryName)"
            )
    if wanted.startswith("PDF/X-4"):
        problems.extend(_xmp_problems(pdf, wanted))
    version = max(
        str(pdf.pdf_version), str(pdf.Root.get("/Version", "/1.0")).lstrip("/"), key=_version_key
    )
    highest = (1, 6) if wanted.startswith("PDF/X-4") else (1, 4)
    if _version_key(version) > highest:
        problems.append(f"PDF {version}: {wanted} allows at most PDF {highest[0]}.{highest[1]}")
    return problems


def _xmp_problems(pdf: pikepdf.Pdf, wanted: str) -> list[str]:
    """PDF/X-4 states its version in the catalog's XMP metadata (pdfxid:GTS_PDFXVersion)."""
    metadata = pdf.Root.get("/Metadata")
    if not isinstance(metadata, pikepdf.Stream):
        return [f"no XMP metadata in the catalog: {wanted} states its version there"]
    try:
        text = metadata.read_bytes().decode("utf-8", "replace")
    except pikepdf.PdfError:
        return ["the catalog's XMP metadata cannot be read"]
    # the element (<pdfxid:GTS_PDFXVersion ...>PDF/X-4</...>) or the attribute form
    found = re.search(r"GTS_PDFXVersion(?:\s[^>]*)?>\s*([^<]+)<", text) or re.search(
        r"GTS_PDFXVersion\s*=\s*[\"']([^\"']+)", text
    )
    if found is None:
        return [f"the XMP metadata has no pdfxid:GTS_PDFXVersion: {wanted} requires it"]
    if not found.group(1).strip().startswith("PDF/X-4"):
        return [f"the XMP metadata says {found.group(1).strip()}, not {wanted}"]
    return []


# --- what a printed file may not hold: annotations on the page, forms, actions, hidden layers
# ---------
_HIDDEN, _PRINT = 2, 4  # annotation flags (PDF 1.7, 12.5.3)


def interactive_problems(pdf: pikepdf.Pdf, profile: Profile) -> list[Problem]:
    """What PDF/X forbids in a file to print: annotations inside the BleedBox (a PrinterMark, a
    TrapNet or one hidden or not printed aside), form fields, JavaScript and actions, and optional
    content in PDF/X-1a (in PDF/X-4 with a named configuration and no automatic states). Errors under
    a PDF/X profile; warnings for other shops, whose RIP may print or drop them."""
    warning = profile.pdfx is None
    wanted = profile.pdfx.version if profile.pdfx is not None else ""
    why = f"{wanted} forbids it" if wanted else "a shop's RIP may print it, drop it or refuse it"
    problems: list[Problem] = []
    root = pdf.Root
    for key, what in (("/OpenAction", "an OpenAction"), ("/AA", "document actions (AA)")):
        if key in root:
            problems.append(Problem(0, f"{what} in the catalog ({why})", warning))
    names = root.get("/Names")
    if names is not None and "/JavaScript" in names:
        problems.append(Problem(0, f"JavaScript in the document's names ({why})", warning))
    form = root.get("/AcroForm")
    if form is not None and len(form.get("/Fields", [])):
        problems.append(Problem(0, f"{len(form.Fields)} form field(s) (AcroForm) ({why})", warning))
    if "/OCProperties" in root:
        problems.extend(_optional_content(root.OCProperties, wanted))
    for number, page in enumerate(pdf.pages, start=1):
        if "/AA" in page.obj:
            problems.append(Problem(number, f"page actions (AA) ({why})", warning))
        problems.extend(Problem(number, message, warning) for message in _annotations(page, why))
    return problems


def _optional_content(properties, wanted: str) -> list[Problem]:
    if wanted.startswith("PDF/X-1a"):
        return [
            Problem(
                0,
                f"optional content (layers, OCProperties): {wanted} forbids it, and a hidden layer "
                "may print or not as the RIP decides",
            )
        ]
    if not wanted:
        return [
            Problem(
                0,
                "optional content (layers, OCProperties): a layer hidden on screen may print or "
                "not as the shop's RIP decides",
                True,
            )
        ]
    problems = []
    configs = [properties.get("/D")] + list(properties.get("/Configs", []))
    for config in configs:
        if config is None:
            problems.append(Problem(0, "optional content without its default configuration (D)"))
        elif not str(config.get("/Name", "")):
            problems.append(Problem(0, f"an optional-content configuration has no Name ({wanted})"))
        elif "/AS" in config:
            problems.append(
                Problem(0, f"optional-content configuration '{config.Name}' has AS ({wanted})")
            )
    return problems


def _annotations(page: pikepdf.Page, why: str) -> list[str]:
    box = page.obj.get("/BleedBox", page.obj.get("/CropBox", page.mediabox))
    x0, y0, x1, y1 = (float(v) for v in box)
    left, bottom, right, top = min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)
    problems = []
    for annotation in page.obj.get("/Annots", []):
        subtype = str(annotation.get("/Subtype", "/?"))
        if "/A" in annotation or "/AA" in annotation:
            problems.append(f"a {subtype[1:]} annotation with an action ({why})")
        if subtype in ("/PrinterMark", "/TrapNet"):
            continue
        flags = int(annotation.get("/F", 0))
        if flags & _HIDDEN or not flags & _PRINT:
            continue  # neither shown nor printed
        a0, b0, a1, b1 = (float(v) for v in annotation.get("/Rect", [0, 0, 0, 0]))
        if (
            min(a1, a0) < right
            and max(a0, a1) > left
            and min(b0, b1) < top
            and max(b0, b1) > bottom
        ):
            problems.append(
                f"a printed {subtype[1:]} annotation inside the BleedBox ({why}: its appearance "
                "would print over the art)"
            )
    return problems


def _version_key(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2]) or (0,)


_LABEL = re.compile(r"^(front|back) (\d+)$")


def order_problems(pdf: pikepdf.Pdf, profile: Profile) -> list[Problem]:
    """Each card's pages together, in the profile's order, cards numbered 1, 2, 3 ..., read from
    the page labels ("back 1", "front 1", ...). A file without page labels, or whose labels name no
    side (another tool's "1", "2" ...), cannot tell its order: a warning, never a refusal."""
    labels = [page.label for page in pdf.pages]
    if len(labels) < 2:
        return []
    if "/PageLabels" not in pdf.Root or not any(_LABEL.match(label) for label in labels):
        return [
            Problem(
                0,
                "the page order cannot be read (no page labels saying 'front 1', 'back 1' ...): "
                f"check that the pages are in {profile.label}'s order "
                f"({profile.page_order.replace('-', ' then ')})",
                True,
            )
        ]
    first = "back" if profile.page_order == "back-front" else "front"
    problems: list[Problem] = []
    cards: list[tuple[int, list[tuple[int, str]]]] = []  # (number, [(page, side)]) in file order
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
