"""The file as a whole: encryption and the PDF/X keys (trailer /ID, document information, output
intent, version); and a card file's pages in the profile's order, read from the page labels."""

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


_LABEL = re.compile(r"^(front|back) (\d+)$")


def order_problems(labels: list[str], profile: Profile) -> list[Problem]:
    """Each card's pages together, in the profile's order, cards numbered 1, 2, 3 ..."""
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
