"""A bounded memo for work remembered per process by what it depends on (fits, broken paragraphs, booklet
measures): a long-running session (`serve`, `watch`) fits, breaks and measures again after every edit, so
what it remembers must not grow without end."""
from __future__ import annotations


class Memo(dict):
    """A dict that forgets its oldest quarter when a new key would take it past `limit` entries."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def __setitem__(self, key, value) -> None:
        if key not in self and len(self) >= self.limit:
            for stale in list(self)[:max(1, self.limit // 4)]:
                del self[stale]
        super().__setitem__(key, value)
