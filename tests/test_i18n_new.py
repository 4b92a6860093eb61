"""Issue 56, item 3: `printshop i18n new LANG [--from REF]` writes a starter language file (its
name, `translated_from`, the language's typography defaults, every label marked to translate), so
a translator never copies a file from inside the installed package."""

from __future__ import annotations

import pytest
import yaml

from printshop.cli import main
from printshop.language.i18n import status
from printshop.language.starter import KNOWN, starter_file
from printshop.pipeline.build import check
from printshop.project.loader import load_project


@pytest.fixture
def project(scaffolded):
    return scaffolded


def _language(project, lang):
    return yaml.safe_load((project / "data" / "languages" / f"{lang}.yaml").read_text("utf-8"))


def test_a_new_language_starts_with_its_typography_and_every_label_marked(project, capsys):
    assert main(["i18n", "new", "de"]) == 0
    assert "translate its" in capsys.readouterr().out
    written = (project / "data" / "languages" / "de.yaml").read_text(encoding="utf-8")
    german = _language(project, "de")
    english = load_project(project / "data", games=[]).languages["en"]
    assert german["name"] == "German" and german["native_name"] == "Deutsch"
    assert german["translated_from"] == "en"
    assert german["typography"]["quotes"] == [["„", "“"], ["‚", "‘"]]
    assert german["typography"]["hyphenation"].startswith("de")
    assert "space_before" not in german["typography"]
    assert german["labels"] == dict(english.labels)
    label_lines = [line for line in written.splitlines() if line.startswith("  ") and ": " in line]
    marked = [line for line in label_lines if line.endswith("# TODO: translate")]
    assert len(marked) == len(english.labels)
    # the project reads it: no error, and each label still in English is said at its line
    report, _ = check(project / "data", games=["tiny"])
    assert not report.has_errors, report.errors
    said = [d for d in report.items if d.code == "untranslated" and "de.yaml" in d.location.path]
    assert len(said) >= len(english.labels) - 3  # (a label that reads the same, "rules", may pass)
    # and the games' texts start from it
    assert main(["i18n", "sync", "de"]) == 0
    [row] = [r for r in status(load_project(project / "data")) if r.lang == "de"]
    assert row.percent == 0


def test_french_gets_its_spaces_and_guillemets(project):
    assert main(["i18n", "new", "fr-ca", "--from", "en"]) == 0
    french = _language(project, "fr-ca")["typography"]
    assert french["quotes"][0] == ["«", "»"]
    assert french["space_before"] == ";:!?»" and french["space"] == "\u202f"


def test_every_known_language_writes_a_file_the_loader_accepts(project):
    labels = dict(load_project(project / "data", games=[]).languages["en"].labels)
    (project / "data" / "languages").mkdir(exist_ok=True)
    for lang in KNOWN:
        if lang == "en":
            continue
        (project / "data" / "languages" / f"{lang}.yaml").write_text(
            starter_file(lang, "en", labels), encoding="utf-8"
        )
    report, _ = check(project / "data", games=["tiny"])
    assert not report.has_errors, report.errors[:3]


def test_a_language_printshop_does_not_know_says_to_check_its_quotes(project):
    assert main(["i18n", "new", "eo"]) == 0
    written = (project / "data" / "languages" / "eo.yaml").read_text(encoding="utf-8")
    assert "check these quotation marks" in written
    assert _language(project, "eo")["name"] == "eo"


@pytest.mark.parametrize(
    "argv, said",
    [
        (["../evil"], "not a language code"),
        (["de de"], "not a language code"),
        (["en"], "cannot be made from itself"),
        (["de", "--from", "xx"], "no such language"),
        (["tiny"], "is a game, not a language"),
    ],
)
def test_bad_requests_are_usage_errors_and_write_nothing(project, capsys, argv, said):
    with pytest.raises(SystemExit) as usage:
        main(["i18n", "new", *argv])
    assert usage.value.code == 2 and said in capsys.readouterr().err
    assert not (project / "data" / "languages").exists() or not any(
        path.stem not in ("en", "fr") for path in (project / "data" / "languages").iterdir()
    )


def test_an_existing_language_file_is_kept_unless_forced(project, capsys):
    assert main(["i18n", "new", "de"]) == 0
    path = project / "data" / "languages" / "de.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('"German"', '"Deutsch!"'), "utf-8")
    with pytest.raises(SystemExit):
        main(["i18n", "new", "de"])
    assert "exists" in capsys.readouterr().err and "Deutsch!" in path.read_text("utf-8")
    assert main(["i18n", "new", "de", "--force"]) == 0
    assert "Deutsch!" not in path.read_text(encoding="utf-8")
