"""A problem preflight finds: its page (0 for the file) and whether it is only a warning."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    page: int  # 1-based; 0 for the file as a whole
    message: str
    warning: bool = False  # reported, but the file still passes
    code: str = ""  # a shop rule's code in check_codes.py, shown as error[code] or warning[code]

    def format(self, path: str) -> str:
        severity = "warning" if self.warning else "error"
        if self.code:
            text = f"{severity}[{self.code}]: {self.message}"
        else:
            text = f"warning: {self.message}" if self.warning else self.message
        return f"{path}: page {self.page}: {text}" if self.page else f"{path}: {text}"
