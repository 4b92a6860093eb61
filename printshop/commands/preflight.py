"""`printshop preflight`: press files and card images read back and checked as a print shop would."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from printshop.commands.arguments import add_data
from printshop.commands.common import UsageError, load_or_report
from printshop.diagnostics import display_path


def add_parser(commands: argparse._SubParsersAction) -> None:
    flight = commands.add_parser(
        "preflight",
        help="check PDFs and card images as a print shop would",
        description="Read press files back, including ones printshop did not write, and check them against "
        "a profile. PDFs: boxes and bleed, trim, every colour operator, space, shading, image and "
        "inline image (RGB in CMYK files, total ink at the worst point, overprint), transparency, "
        "image resolution, fonts, encryption and the PDF/X keys, and the shop's own rules (spot "
        "colours, thin lines, small text in several inks, blank faces, art short of the bleed: "
        "docs/shops.md). PNG and JPEG faces: pixel size, resolution metadata, colour mode, alpha, "
        "blank faces and art short of the bleed. Prints each problem with its page, then one "
        "line per file; exit 0 when clean, 1 when any problem is found (warnings do not fail).",
        epilog="Example: printshop preflight output/comrade/en/press/drivethrucards/*.pdf --profile drivethrucards",
    )
    flight.add_argument("files", nargs="+", type=Path, metavar="FILE")
    flight.add_argument(
        "--profile",
        metavar="NAME",
        help="a print-shop profile: printshop's own or the project's (data/print/profiles/)",
    )
    flight.add_argument(
        "--soft-proof",
        type=Path,
        metavar="DIR",
        help="also write each page of each PDF into DIR as an sRGB PNG of how the profile's CMYK "
        "prints it (a soft proof: DIR/<file>-p001.png, ...); without --profile, FOGRA39's",
    )
    flight.add_argument(
        "--dpi",
        type=float,
        default=150.0,
        metavar="N",
        help="the soft proof's resolution (default: 150)",
    )
    add_data(flight)


def run(args: argparse.Namespace) -> int:
    from printshop.checks.preflight import preflight, shop_trims

    profile, trims = None, None
    if args.profile:
        project = load_or_report(args.data, [])
        if project is None:
            return 1
        if args.profile not in project.profiles:
            off = (
                " (switched off in this project: use: false)"
                if args.profile in project.profiles_off
                else ""
            )
            raise UsageError(
                f"no profile '{args.profile}'{off} (profiles: {', '.join(project.profiles)})"
            )
        profile = project.profiles[args.profile]
        trims = shop_trims(project.media, profile)
    for path in args.files:
        if not path.is_file():
            raise UsageError(f"{path} does not exist")
    if args.soft_proof is not None:
        if profile is not None and profile.colour.space != "cmyk":
            raise UsageError(
                f"profile '{args.profile}' takes RGB files: they print as they show, with no soft "
                "proof to make (name a CMYK shop's profile)"
            )
        if not 10 <= args.dpi <= 1200:
            raise UsageError(f"--dpi {args.dpi:g}: give a resolution from 10 to 1200")
    failed, total = 0, 0
    for path in args.files:
        found = preflight(path, profile, trims)
        for problem in found:
            print(problem.format(display_path(path)))
        problems = [problem for problem in found if not problem.warning]
        warnings = len(found) - len(problems)
        failed += bool(problems)
        total += len(problems)
        print(f"{display_path(path)}: {_summary(problems, warnings)}")
    sys.stdout.flush()
    if args.soft_proof is not None and not _soft_proofs(
        args.files, args.soft_proof, profile.colour.icc if profile else None, args.dpi
    ):
        return 1
    print(
        f"printshop preflight: {len(args.files) - failed} of {len(args.files)} file(s) passed, "
        f"{total} problem{'s' if total != 1 else ''}",
        file=sys.stderr,
    )
    return 1 if failed else 0


def _soft_proofs(files: list[Path], folder: Path, icc: str | None, dpi: float) -> bool:
    """Write each PDF's pages as soft proofs into `folder` (nothing if any cannot be made)."""
    from printshop.render.raster import png
    from printshop.render.soft_proof import soft_proof
    from printshop.write.commit import write_atomically

    made: list[tuple[Path, bytes]] = []
    for path in files:
        if path.suffix.lower() != ".pdf":
            continue  # card images (PNG, JPEG) are RGB: they show as they print
        try:
            pages = soft_proof(path.read_bytes(), icc, dpi)
        except Exception as error:  # noqa: BLE001 - a file no renderer reads: said, not raised
            print(f"{display_path(path)}: no soft proof: the file cannot be rendered ({error})")
            return False
        made.extend(
            (folder / f"{path.stem}-p{number:03d}.png", png(page, dpi, level=6))
            for number, page in enumerate(pages, 1)
        )
    for target, data in made:
        write_atomically(target, data)
    print(f"soft proof: {len(made)} page(s) written to {display_path(folder)}", file=sys.stderr)
    return True


def _summary(problems, warnings: int) -> str:
    """'ok', or '3 problems on 2 pages' (and those of the file as a whole), and the warnings."""
    if not problems:
        text = "ok"
    else:
        pages = len({problem.page for problem in problems if problem.page})
        whole = sum(1 for problem in problems if not problem.page)
        text = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        if pages:
            text += f" on {pages} page{'s' if pages != 1 else ''}"
        if whole and pages:
            text += f" ({whole} for the whole file)"
    if warnings:
        text += f", {warnings} warning{'s' if warnings != 1 else ''}"
    return text
