"""Where things are by default. Kept free of heavy imports: the no-op build check reads it."""
from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPOSITORY_DIR = PACKAGE_DIR.parent
DEFAULT_DATA_DIR = REPOSITORY_DIR / "data"
DEFAULT_TEMPLATES_DIR = REPOSITORY_DIR / "templates"
BUNDLED_FONTS_DIR = PACKAGE_DIR / "fonts"
CACHE_DIR_NAME = ".printshop-cache"  # inside the output folder


def discover_games(data_dir: Path) -> list[str]:
    """A game is a folder of the data directory holding a game.yaml."""
    return sorted(path.parent.name for path in Path(data_dir).glob("*/game.yaml"))
