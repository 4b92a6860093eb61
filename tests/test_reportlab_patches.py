"""The patches of printshop/reportlab_patches.py: each attribute one replaces or reads is still
there in the installed ReportLab (and PyYAML), as the library itself defines it; each patch is in
place once printshop is imported; and the internals other code leans on are there."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from printshop.reportlab_patches import PATCHES

# the libraries' own modules, asked in a process that never imported printshop (nothing patched
# there)
UNPATCHED = r"""
import importlib, json, sys
wanted = json.loads(sys.argv[1])
found = {}
for name, (module, attributes) in wanted.items():
    held = importlib.import_module(module)
    missing = []
    for dotted in attributes:
        value = held
        for part in dotted.split("."):
            if not hasattr(value, part):
                missing.append(dotted)
                break
            value = getattr(value, part)
    found[name] = missing
assert "printshop" not in sys.modules
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def missing() -> dict[str, list[str]]:
    wanted = {name: (patch.module, patch.replaces) for name, patch in PATCHES.items()}
    wanted["yaml_composer"] = (
        "yaml",
        (
            "CBaseLoader.yaml_implicit_resolvers",
            "CBaseLoader.yaml_path_resolvers",
            "CBaseLoader.DEFAULT_SCALAR_TAG",
            "CBaseLoader.DEFAULT_SEQUENCE_TAG",
            "CBaseLoader.DEFAULT_MAPPING_TAG",
            "CBaseLoader.resolve",
            "CBaseLoader.descend_resolver",
            "CBaseLoader.ascend_resolver",
        ),
    )  # project/source.py _composer subclasses it
    wanted["even_paragraph"] = (
        "reportlab.platypus.paragraph",
        ("Paragraph.breakLines", "Paragraph.split", "Paragraph.wrap"),
    )  # typeset/justify.py EvenParagraph overrides them
    done = subprocess.run(
        [sys.executable, "-c", UNPATCHED, json.dumps(wanted)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", [*sorted(PATCHES), "yaml_composer", "even_paragraph"])
def test_what_a_patch_replaces_is_still_in_the_library(missing, name):
    assert missing[name] == []


def test_every_patch_made_on_import_is_in_place_once_its_module_is_imported():
    import importlib

    import printshop  # noqa: F401 - installs them

    for name, patch in PATCHES.items():
        if patch.on_import:
            module = importlib.import_module(patch.module)
            assert name in getattr(module, "_printshop_patches", ()), name
    from reportlab import rl_config

    assert rl_config.useA85 == 0


def test_installed_twice_a_patch_is_made_once():
    from reportlab.pdfbase import ttfonts

    from printshop import reportlab_patches

    before = (ttfonts.SUBSETN, ttfonts.TTFont.addObjects)
    reportlab_patches.install()
    reportlab_patches.subset_tags_by_content(ttfonts)
    assert (ttfonts.SUBSETN, ttfonts.TTFont.addObjects) == before
