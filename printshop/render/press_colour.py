"""Flat colours for CMYK press files, converted as raster art is: the palette's sRGB through the
shop's ICC profile (printshop/icc/) by LittleCMS (Pillow's ImageCms), with the same rendering intent
and black point compensation as render/press_art.py, then within the shop's total ink by the same
`limit_ink`. A flat area and art of the same sRGB colour beside it therefore get the same CMYK.

Each colour is converted once per (profile, intent, ink limit): a 1×1 image through the transform
press_art caches, its 8-bit result kept (memos.FLAT_CMYK). LittleCMS is deterministic, so builds
stay byte-identical.

What prints of a colour is measured by the round trip (CMYK back to sRGB, black points compensated
both ways, as press_art's clip check does) and compared with the colour in CIE ΔE2000 (`delta_e`,
written from Sharma, Wu and Dalal's statement of the formula, 2005): `validate` warns of palette
colours the press cannot print (`press-gamut`).

docs/colour.md describes the whole pipeline.
"""

from __future__ import annotations

import math

from PIL import Image, ImageCms

from printshop import memos
from printshop.render.press_art import INTENT, applied, back_to_rgb, limit_ink, to_cmyk, to_lab

GAMUT_DELTA_E = 5.0  # a palette colour whose print differs more than this (ΔE2000) is warned of


def _rgb(hex_value: str) -> tuple[int, int, int]:
    r, g, b = (int(hex_value[i : i + 2], 16) for i in (1, 3, 5))
    return r, g, b


@memos.FLAT_CMYK
def flat_cmyk(
    hex_value: str,
    icc: str | None,
    intent: ImageCms.Intent = INTENT,
    ink_limit: float | None = None,
) -> tuple[int, int, int, int]:
    """The sRGB colour `hex_value` in the CMYK of `icc` within `ink_limit` percent, as 8-bit C, M,
    Y, K (0 to 255): exactly what press_art gives a pixel of that colour."""
    pixel = Image.new("RGB", (1, 1), _rgb(hex_value))
    cmyk = limit_ink(applied(pixel, to_cmyk(icc, None, intent)), ink_limit)
    c, m, y, k = cmyk.getpixel((0, 0))  # type: ignore[misc]
    return c, m, y, k


def lab(image: Image.Image) -> tuple[float, float, float]:
    """CIE L*a*b* of an 8-bit LAB pixel (Pillow keeps a* and b* offset by 128)."""
    lightness, a, b = image.getpixel((0, 0))  # type: ignore[misc]
    return lightness * 100 / 255, a - 128.0, b - 128.0


def srgb_lab(hex_value: str) -> tuple[float, float, float]:
    """The sRGB colour's L*a*b* (D50, as ICC profiles connect)."""
    return lab(applied(Image.new("RGB", (1, 1), _rgb(hex_value)), to_lab()))


def printed_lab(
    cmyk: tuple[int, int, int, int], icc: str | None, intent: ImageCms.Intent = INTENT
) -> tuple[float, float, float]:
    """The L*a*b* an 8-bit CMYK colour of `icc` shows on screen, black points compensated."""
    rgb = applied(Image.new("CMYK", (1, 1), cmyk), back_to_rgb(icc, intent))
    return lab(applied(rgb, to_lab()))


def gamut_delta(
    hex_value: str, icc: str | None, ink_limit: float | None, intent: ImageCms.Intent = INTENT
) -> float:
    """How far (ΔE2000) the sRGB colour prints from itself in `icc` within `ink_limit`."""
    printed = printed_lab(flat_cmyk(hex_value, icc, intent, ink_limit), icc, intent)
    return delta_e(srgb_lab(hex_value), printed)


def delta_e(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIE ΔE2000 between two L*a*b* colours (kL = kC = kH = 1)."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    mean_chroma = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_chroma**7 / (mean_chroma**7 + 25.0**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    delta_l, delta_c = l2 - l1, c2 - c1
    delta_h = 0.0
    if c1 * c2:
        delta_h = h2 - h1
        if delta_h > 180:
            delta_h -= 360
        elif delta_h < -180:
            delta_h += 360
    delta_big_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(delta_h / 2))
    mean_l, mean_c = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        mean_h = h1 + h2
    elif abs(h1 - h2) <= 180:
        mean_h = (h1 + h2) / 2
    else:
        mean_h = (h1 + h2 + (360 if h1 + h2 < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(mean_h - 30))
        + 0.24 * math.cos(math.radians(2 * mean_h))
        + 0.32 * math.cos(math.radians(3 * mean_h + 6))
        - 0.20 * math.cos(math.radians(4 * mean_h - 63))
    )
    rotation = 30 * math.exp(-(((mean_h - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(mean_c**7 / (mean_c**7 + 25.0**7))
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c = 1 + 0.045 * mean_c
    s_h = 1 + 0.015 * mean_c * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    return math.sqrt(
        (delta_l / s_l) ** 2
        + (delta_c / s_c) ** 2
        + (delta_big_h / s_h) ** 2
        + r_t * (delta_c / s_c) * (delta_big_h / s_h)
    )
