"""Print shops: every profile can take what a game sends it — faces scaled to the shop's trim
keep its bleed and safe zone, press sheets carry its bleed, raster art is fine enough and converts
cleanly to its CMYK; what a shop leaves out is said.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from printshop.checks.images import image_path
from printshop.checks.zones import (
    Intrusions,
    content_boxes,
    deck_faces,
    intrusion,
)
from printshop.diagnostics import Report
from printshop.layout.imposition import cover, placed_box
from printshop.project.loader import GameData, Project
from printshop.project.models.game import Deck, SheetSpec
from printshop.project.models.profile import Profile
from printshop.project.units import to_mm


def check_press(project: Project, game: GameData, report: Report, intrusions: Intrusions) -> None:
    """Every print-shop profile can take what this game sends it: each deck's faces scaled to the
    shop's trim still cover its bleed and keep text and icons inside its safe zone; press sheets
    carry the shop's bleed and keep its safe zone. What a shop leaves out is reported
    (press-left-out), and raster art that will not convert cleanly for a shop (press-art)."""
    from printshop.render.press_art import icc_file

    pnp = project.media.print_and_play
    home_dpi = pnp.min_dpi
    if any(sheet.press for sheet in game.game.sheets.values()):
        _check_kit_profile(project, report)
    seen_art: set = set()
    for profile_id, profile in sorted(project.profiles.items()):
        if profile.colour.space == "cmyk" and not icc_file(profile.colour.icc).is_file():
            report.add(
                "file-missing",
                profile.where("colour"),
                f"profile '{profile_id}': no ICC profile '{profile.colour.icc}' in {icc_file(None).parent}",
            )
        shop = _Shop(project, game, profile_id, profile, report, intrusions, seen_art, home_dpi)
        shop.check_left_out()
        for deck_id, deck in game.game.printed_decks().items():
            shop.check_deck(deck_id, deck)
        for sheet_id, sheet in game.game.sheets.items():
            if not sheet.press or sheet.face not in game.faces:
                continue
            shop.check_sheet(sheet_id, sheet)


def check_palette_gamut(project: Project, report: Report) -> None:
    """Each palette colour that a CMYK shop's profile cannot print (press-gamut): further than
    GAMUT_DELTA_E (ΔE2000) from itself once through the shop's ICC profile and ink limit, as flat
    colours are converted (render/press_colour.py); one warning per colour, naming every shop."""
    from printshop.project.schema import node_of
    from printshop.project.source import locate
    from printshop.render.press_art import icc_file
    from printshop.render.press_colour import GAMUT_DELTA_E, gamut_delta

    shops = [
        profile
        for _, profile in sorted(project.profiles.items())
        if profile.colour.space == "cmyk" and icc_file(profile.colour.icc).is_file()
    ]
    colours = project.colours
    for name, value in colours.palette.items():
        found = []
        for profile in shops:
            icc, limit = profile.colour.icc, profile.colour.ink_limit
            delta = gamut_delta(value, icc, limit)
            if delta > GAMUT_DELTA_E:
                ink = f", {limit:.0f} % ink" if limit else ""
                found.append((delta, profile.label, f"({icc_file(icc).name}{ink})"))
        if not found:
            continue
        said = "; ".join(f"{delta:.1f} at {label} {how}" for delta, label, how in found)
        node = node_of(colours)
        where = (
            locate(Path(colours.where().path), node, ("palette", name))
            if node is not None
            else colours.where("palette")
        )
        report.add(
            "press-gamut",
            where,
            f"colour '{name}' ({value}) is outside the press gamut: it prints ΔE2000 from itself {said}",
        )


def _check_kit_profile(project: Project, report: Report) -> None:
    """The profile the kit's press pages are made for exists and takes PDF files."""
    from printshop.layout.press_plan import takes_sheets

    pnp = project.media.print_and_play
    chosen = project.profiles.get(pnp.press_profile)
    if chosen is None:
        off = (
            " (switched off in this project: use: false)"
            if pnp.press_profile in project.profiles_off
            else ""
        )
        report.add(
            "unknown-reference",
            pnp.where("press_profile"),
            f"no print-shop profile '{pnp.press_profile}'{off} for the kit's press pages "
            f"(profiles: {', '.join(sorted(project.profiles))})",
        )
    elif not takes_sheets(chosen):
        report.add(
            "wrong-type",
            pnp.where("press_profile"),
            f"profile '{pnp.press_profile}' makes one image per card face; the kit's press pages need "
            "a profile that takes PDF files",
        )


@dataclass
class _Shop:
    """One print-shop profile's checks of one game: what its deck and sheet checks share (the images
    already checked for art, `seen_art`, across profiles)."""

    project: Project
    game: GameData
    profile_id: str
    profile: Profile
    report: Report
    intrusions: Intrusions
    seen_art: set
    home_dpi: float

    def check_left_out(self) -> None:
        from printshop.layout.press_plan import left_out

        game, profile, profile_id = self.game, self.profile, self.profile_id
        for item in left_out(game.game, profile):
            if item.warn:
                self.report.add(
                    "press-left-out",
                    item.where,
                    f"{item.what} of {game.id} is left out of {profile.label}'s files ('{profile_id}'): {item.why}",
                    acknowledged=profile.leaves_out.get(item.key, "") or _game_accepts(game, item),
                )

    def check_deck(self, deck_id: str, deck: Deck) -> None:
        """A deck's faces fitted to the shop's trim: scaled little, their bleed enough, their art
        and their text and icons inside the shop's safe zone."""
        project, game, profile, profile_id = self.project, self.game, self.profile, self.profile_id
        report = self.report
        size = project.media.card_sizes.get(deck.card_size)
        product = profile.product(deck.card_size)
        if size is None or product is None:
            # an unknown size is reported elsewhere; a size the shop does not make is press-left-out
            return
        trim = project.media.card_sizes.get(product.trim)
        if trim is None:
            report.add(
                "unknown-reference",
                profile.where("products"),
                f"profile '{profile_id}': no card size '{product.trim}' in media.yaml",
            )
            return
        fitted = cover(size.width, size.height, deck.bleed, trim.width, trim.height)
        if (
            abs(fitted.scale - 1) > 0.05
            or abs(trim.width / size.width - trim.height / size.height) > 0.03
        ):
            report.add(
                "press-trim",
                deck.where("card_size"),
                f"deck '{deck_id}' ({deck.card_size}) would be scaled by {fitted.scale:.3f} to "
                f"{profile.label}'s trim '{product.trim}'; give the profile a product of this size",
            )
            return
        if min(fitted.bleed_x, fitted.bleed_y) + 0.01 < profile.bleed:
            report.add(
                "press-bleed",
                deck.where("bleed"),
                f"deck '{deck_id}' is drawn with {to_mm(deck.bleed):.2f} mm of bleed, "
                f"{to_mm(min(fitted.bleed_x, fitted.bleed_y)):.2f} mm once fitted to {profile.label}'s "
                f"trim; it needs {to_mm(profile.bleed):.2f} mm",
                hint=_bleed_hint("deck", profile_id),
            )
        safe = profile.safe_for(deck.card_size)
        for name in deck_faces(game, deck):
            _check_press_art(
                game, profile_id, profile, name, fitted.scale, report, self.seen_art, self.home_dpi
            )
            for what, node, box, code in content_boxes(game.faces[name]):
                placed = placed_box(fitted, size.width, size.height, trim.width, trim.height, *box)
                worst = intrusion(placed, trim.width, trim.height, safe)
                if worst > 0.01:
                    self.intrusions.add(
                        node,
                        what,
                        f"face '{name}'",
                        worst,
                        f"{profile.label}'s safe zone of {to_mm(safe):.1f} mm",
                        code,
                    )

    def check_sheet(self, sheet_id: str, sheet: SheetSpec) -> None:
        """A press sheet as it is: its art, the shop's bleed, text and icons inside the shop's safe
        zone."""
        from printshop.layout.press_plan import takes_sheets

        game, profile, profile_id, report = self.game, self.profile, self.profile_id, self.report
        if takes_sheets(profile):
            _check_press_art(
                game, profile_id, profile, sheet.face, 1.0, report, self.seen_art, self.home_dpi
            )
        if sheet.bleed + 0.01 < profile.bleed:
            report.add(
                "press-bleed",
                sheet.where("bleed"),
                f"sheet '{sheet_id}' is drawn with {to_mm(sheet.bleed):.2f} mm of bleed; "
                f"{profile.label} needs {to_mm(profile.bleed):.2f} mm",
                hint=_bleed_hint("sheet", profile_id),
            )
        for what, node, box, code in content_boxes(game.faces[sheet.face]):
            worst = intrusion(box, sheet.width, sheet.height, profile.safe)
            if worst > 0.01:
                self.intrusions.add(
                    node,
                    what,
                    f"sheet '{sheet_id}'",
                    worst,
                    f"{profile.label}'s safe zone of {to_mm(profile.safe):.1f} mm",
                    code,
                    profile.safe,
                )


def _bleed_hint(what: str, profile_id: str) -> str:
    return (
        f"raise the {what}'s bleed in game.yaml; or, if the project never prints at this shop, switch its "
        f"profile off: data/print/profiles/{profile_id}.yaml holding 'use: false'"
    )


def _check_press_art(
    game: GameData,
    profile_id: str,
    profile,
    face_name: str,
    scale: float,
    report: Report,
    seen: set,
    home_dpi: float,
) -> None:
    """The raster images of a face, as a profile will print them (faces scaled by `scale` to its
    trim): enough pixels for its resolution (unless below `home_dpi`: refused for every print as
    image-resolution, one error rather than a warning per shop beside it); on a CMYK PDF profile,
    colours its CMYK can print and transparency over one plain colour (see render/press_art.py).
    Each image once per profile."""
    import math

    from PIL import Image, UnidentifiedImageError

    from printshop.render.press_art import (
        CLIP_DELTA_E,
        CLIP_SHARE,
        beneath,
        clipped_share,
        icc_file,
    )

    if face_name not in game.faces:
        return
    raster = (
        profile.files == "png-per-face"
    )  # whole faces rasterized: only the art's pixels are its own
    face = game.faces[face_name]
    for shape_name, shape in face.shapes.items():
        if shape.kind != "image" or not shape.src or shape.width <= 0 or shape.height <= 0:
            continue
        key = (profile_id, face_name, shape_name)
        if key in seen:
            continue
        seen.add(key)
        path = image_path(game, shape.src)
        if path is None:
            continue  # refused by check_image: outside the project, too large or damaged
        try:
            with Image.open(path) as image:
                pixels, mode, transparent = image.size, image.mode, "transparency" in image.info
            stat = path.stat()
        except (UnidentifiedImageError, OSError):
            continue  # reported by check_image
        where, named = shape.where("src"), f"image '{shape.src}' of face '{face_name}'"
        width_in, height_in = shape.width * scale / 72, shape.height * scale / 72
        dpi = min(pixels[0] / width_in, pixels[1] / height_in)
        refused = (
            min(pixels[0] / (shape.width / 72), pixels[1] / (shape.height / 72)) < home_dpi - 0.5
        )
        if dpi + 0.5 < profile.min_dpi and not refused:
            wanted = (math.ceil(profile.min_dpi * width_in), math.ceil(profile.min_dpi * height_in))
            report.add(
                "press-art",
                where,
                f"{named} ({pixels[0]} × {pixels[1]} px) prints at {dpi:.0f} dpi in {profile.label}'s files "
                f"(faces scaled by {scale:.3f} to its trim); the shop needs {profile.min_dpi:.0f}",
                hint=f"supply the image with at least {wanted[0]} × {wanted[1]} px",
            )
        if raster or profile.colour.space != "cmyk":
            continue
        icc, limit = profile.colour.icc, profile.colour.ink_limit
        share, worst = clipped_share(str(path), (stat.st_mtime_ns, stat.st_size), icc, limit)
        if share > CLIP_SHARE:
            ink = f", {limit:.0f} % ink" if limit else ""
            report.add(
                "press-art",
                where,
                f"{named}: {share:.0%} of its pixels change by more than ΔE {CLIP_DELTA_E:.0f} (up to "
                f"{worst:.0f}) in {profile.label}'s CMYK ({icc_file(icc).name}{ink}): they will print duller "
                "than on screen",
                hint="bring the art's brightest colours (pure greens, blues, oranges) within print's gamut, "
                "or accept the change",
            )
        under = beneath(face, shape_name)
        if (mode in ("RGBA", "LA", "PA") or transparent) and not under.plain:
            report.add(
                "press-art",
                where,
                f"{named} has transparent parts over shapes that are not one plain colour; in "
                f"{profile.label}'s files they are flattened over {under.fill or 'paper white'}",
                hint="put the image over the background or a plain filled rectangle, or make it opaque",
            )


def _game_accepts(game: GameData, item) -> str:
    """The game's own reason for a deck that shops which do not make its size leave out, if it gives
    one."""
    deck = game.game.decks.get(item.id) if item.kind == "deck" else None
    return deck.shops_without_size or "" if deck is not None else ""
