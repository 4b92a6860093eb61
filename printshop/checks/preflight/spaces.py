"""Colour spaces as a press sees them: what each space's colours become on the plates (C, M, Y, K
coverage), read from a PDF colour space object with its resource names resolved."""

from __future__ import annotations

from dataclasses import dataclass

import pikepdf

from printshop.checks.preflight.functions import Function

# --- colour spaces and their ink
# ---------------------------------------------------------------------
PROCESS_PLATES = {"/Cyan": 0, "/Magenta": 1, "/Yellow": 2, "/Black": 3}


DEVICE_NAMES = {
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

    # DeviceCMYK, DeviceGray, DeviceRGB, ICCBased, Indexed, Separation, DeviceN, Lab, CalRGB,
    # CalGray, Pattern
    family: str
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

    def _indexed_ink(self, values) -> tuple[float, ...] | None:
        assert self.base is not None  # an Indexed space is always read with its base
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

    def ink(self, values) -> tuple[float, ...] | None:
        """The plates' coverage in per cent (C, M, Y, K), or None where the press cannot say (RGB,
        Lab)."""
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


def read_space(obj, resources, label: str = "", depth: int = 0) -> Space:
    """The Space a colour space object (a name or an array) stands for, resource names resolved."""
    if depth > 8:
        raise ValueError("colour spaces nested too deeply")
    if isinstance(obj, pikepdf.Name):
        name = str(obj)
        if name in DEVICE_NAMES:
            return DEVICE[DEVICE_NAMES[name]]
        spaces = resources.get("/ColorSpace", {}) if resources is not None else {}
        if name not in spaces:
            raise ValueError(f"colour space {name} is not in the resources")
        return read_space(spaces[name], resources, name, depth + 1)
    if not isinstance(obj, pikepdf.Array) or not len(obj):
        raise ValueError(f"not a colour space: {obj!r}")
    family = str(obj[0]).lstrip("/")
    named = f" {label}" if label else ""
    key = label or obj.unparse().decode("latin-1")[:200]
    if len(obj) == 1:
        return read_space(obj[0], resources, label, depth + 1)
    if family == "ICCBased":
        stream = obj[1]
        n = int(stream.get("/N", 3))
        icc_alternate = stream.get("/Alternate")
        process = {1: "gray", 3: "rgb", 4: "cmyk"}.get(n, "rgb")
        if icc_alternate is not None and str(icc_alternate) == "/Lab":
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
        base = read_space(obj[1], resources, "", depth + 1)
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
        alternate = read_space(obj[2], resources, "", depth + 1)
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
        base = read_space(obj[1], resources, "", depth + 1)
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
