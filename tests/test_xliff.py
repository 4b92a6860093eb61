"""Issue 56, item 4: XLIFF 1.2 and 2.0 beside PO, for the CAT tools professional translators use:
export with each unit's id, context, notes, the room its frame leaves and its state; import
through translate-toolkit's reader with the checks a PO import has; round trips exact."""

from __future__ import annotations

import pytest
from lxml import etree
from translate.storage import xliff as toolkit_xliff
from translate.storage import xliff2 as toolkit_xliff2

from printshop.cli import main
from printshop.language.i18n import status
from printshop.language.po import import_po
from printshop.language.xliff import XLIFF_1, XLIFF_2, export_xliff
from printshop.project.loader import load_project
from tests.conftest import edit

VERSIONS = ["1.2", "2.0"]


def _comrade(data):
    return load_project(data).games["comrade"]


def _export(data, tmp_path, version: str, name: str = "comrade-fr.xlf"):
    path = tmp_path / name
    path.write_bytes(export_xliff(_comrade(data), "fr", None, version))
    return path


def _units(path, version):
    reader = toolkit_xliff.xlifffile if version == "1.2" else toolkit_xliff2.Xliff2File
    return list(reader.parsefile(str(path)).getunits())


def _stale_count(data) -> int:
    [row] = [r for r in status(load_project(data)) if (r.game, r.lang) == ("comrade", "fr")]
    return row.counts["stale"]


@pytest.mark.parametrize("version", VERSIONS)
def test_the_toolkit_reads_every_text_with_its_translation(data_copy, tmp_path, version):
    game = _comrade(data_copy)
    path = _export(data_copy, tmp_path, version)
    units = _units(path, version)
    french = game.catalogues["fr"].entries
    assert len(units) == len(game.reference("fr").entries)
    targets = {str(u.source): str(u.target) for u in units}
    assert targets["Informer"] == french["card.informer.name"].text
    root = etree.parse(str(path)).getroot()
    assert root.get("version") == version
    assert root.tag == f"{{{XLIFF_1 if version == '1.2' else XLIFF_2}}}xliff"


def test_xliff_1_2_units_follow_the_standards_order_and_carry_room_and_places(data_copy, tmp_path):
    from printshop.language.po import where_printed
    from printshop.pipeline.build import check

    _, checked = check(data_copy, games=["comrade"], langs=["en"], variant=None)
    printed = where_printed(checked, "comrade")
    path = tmp_path / "comrade-fr.xlf"
    path.write_bytes(export_xliff(_comrade(data_copy), "fr", printed, "1.2"))
    root = etree.parse(str(path)).getroot()
    file = root.find(f"{{{XLIFF_1}}}file")
    assert (file.get("source-language"), file.get("target-language")) == ("en", "fr")
    order = ["source", "target", "context-group", "note"]
    for unit in root.iter(f"{{{XLIFF_1}}}trans-unit"):
        names = [child.tag.split("}")[1] for child in unit]
        assert names == sorted(names, key=order.index), names
    title = root.find(f".//{{{XLIFF_1}}}trans-unit[@id='game.title']")
    assert title.get("maxwidth") and title.get("size-unit") == "char"
    places = [c.text for c in title.iter(f"{{{XLIFF_1}}}context")]
    assert "data/comrade/text/fr.yaml" in places and "data/comrade/text/en.yaml" in places
    assert any("characters fit" in n.text for n in title.iter(f"{{{XLIFF_1}}}note"))


def test_xliff_2_0_puts_notes_before_the_segment(data_copy, tmp_path):
    root = etree.parse(str(_export(data_copy, tmp_path, "2.0"))).getroot()
    assert (root.get("srcLang"), root.get("trgLang")) == ("en", "fr")
    for unit in root.iter(f"{{{XLIFF_2}}}unit"):
        names = [child.tag.split("}")[1] for child in unit]
        assert names in (["segment"], ["notes", "segment"]), names
        assert unit.find(f"{{{XLIFF_2}}}segment").get("state") == "translated"


@pytest.mark.parametrize("version", VERSIONS)
def test_a_round_trip_changes_nothing(data_copy, tmp_path, version):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    before = french.read_bytes()
    result = import_po(_comrade(data_copy), "fr", _export(data_copy, tmp_path, version))
    assert not result.report.has_errors and result.changed == []
    assert french.read_bytes() == before


@pytest.mark.parametrize("version", VERSIONS)
def test_an_edited_target_is_imported_and_checked_at_its_line(data_copy, tmp_path, version):
    path = _export(data_copy, tmp_path, version)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(">Informateur<", ">Mouchard<", 1), encoding="utf-8")
    result = import_po(_comrade(data_copy), "fr", path)
    assert not result.report.has_errors and result.changed == ["card.informer.name"]
    assert '"Mouchard"' in (data_copy / "comrade" / "text" / "fr.yaml").read_text("utf-8")
    # a placeholder lost: an error at the target's line, nothing written
    players = next(line for line in text.splitlines() if "{min}" in line and "joueurs" in line)
    path.write_text(text.replace(players, players.replace("{max}", "")), encoding="utf-8")
    before = (data_copy / "comrade" / "text" / "fr.yaml").read_bytes()
    result = import_po(_comrade(data_copy), "fr", path)
    [error] = [d for d in result.report.items if d.code == "placeholder"]
    assert error.location.line == text.splitlines().index(players) + 1
    assert (data_copy / "comrade" / "text" / "fr.yaml").read_bytes() == before


@pytest.mark.parametrize(
    "version, state", [("1.2", "needs-review-translation"), ("2.0", "initial")]
)
def test_a_stale_text_is_exported_for_review_and_stays_stale_until_reviewed(
    data_copy, tmp_path, version, state
):
    edit(data_copy / "comrade" / "text" / "en.yaml", '"Informer"', '"Informant"')
    assert _stale_count(data_copy) == 1
    path = _export(data_copy, tmp_path, version)
    text = path.read_text(encoding="utf-8")
    assert f'state="{state}"' in text and "it was: Informer" in text
    assert not import_po(_comrade(data_copy), "fr", path).report.has_errors
    assert _stale_count(data_copy) == 1  # still to review: still stale
    reviewed = (
        text.replace('state="needs-review-translation"', 'state="translated"')
        if version == "1.2"
        else text.replace('state="initial"', 'state="translated"')
    )
    path.write_text(reviewed, encoding="utf-8")
    result = import_po(_comrade(data_copy), "fr", path)
    assert not result.report.has_errors and result.confirmed == ["card.informer.name"]
    assert _stale_count(data_copy) == 0


@pytest.mark.parametrize(
    "damage, said",
    [
        (lambda t: t.replace("</xliff>", ""), "not a readable XLIFF file"),
        (lambda t: t.replace('target-language="fr"', 'target-language="de"'), "'de', not 'fr'"),
        (
            lambda t: t.replace('trans-unit id="game.title" resname="game.title"', "trans-unit"),
            "without its id",
        ),
        (
            lambda t: t.replace('<trans-unit id="game.tagline"', '<trans-unit id="game.tagLine"'),
            "did you mean",
        ),
    ],
)
def test_a_broken_file_is_reported_and_nothing_written(data_copy, tmp_path, damage, said):
    path = _export(data_copy, tmp_path, "1.2")
    text = path.read_text(encoding="utf-8")
    path.write_text(damage(text.replace(">Camarade<", ">Camarade rouge<", 1)), encoding="utf-8")
    french = data_copy / "comrade" / "text" / "fr.yaml"
    before = french.read_bytes()
    result = import_po(_comrade(data_copy), "fr", path)
    assert result.report.has_errors
    assert {d.code for d in result.report.errors} <= {"xliff-syntax", "po-unknown-text"}
    found = " ".join(d.message + " " + d.hint for d in result.report.errors)
    assert said in found, found
    assert french.read_bytes() == before


def test_the_commands_export_and_import_xliff(data_copy, tmp_path, capsys):
    for fmt in ("xliff", "xliff2"):
        out = tmp_path / fmt
        out.mkdir()
        assert (
            main(
                [
                    "i18n",
                    "export",
                    "fr",
                    "comrade",
                    "--format",
                    fmt,
                    "--out",
                    str(out),
                    "--data",
                    str(data_copy),
                ]
            )
            == 0
        )
        path = out / "comrade-fr.xlf"
        assert path.is_file()
        argv = [
            "i18n",
            "import",
            "--game",
            "comrade",
            "--lang",
            "fr",
            str(path),
            "--data",
            str(data_copy),
        ]
        assert main(argv) == 0
        assert "0 text(s) changed" in capsys.readouterr().out


def test_a_file_declaring_entities_is_refused_and_nothing_written(data_copy, tmp_path):
    """An entity can read a file of the machine into a text (or grow past any memory): a file
    that declares any is refused at its first line; the same file without it imports."""
    path = _export(data_copy, tmp_path, "1.2")
    text = path.read_text(encoding="utf-8").replace(">Camarade<", ">&secret;<", 1)
    declared = '<!DOCTYPE xliff [<!ENTITY secret SYSTEM "file:///etc/hostname">]>\n'
    first, rest = text.split("\n", 1)
    path.write_text(first + "\n" + declared + rest, encoding="utf-8")
    french = data_copy / "comrade" / "text" / "fr.yaml"
    before = french.read_bytes()
    result = import_po(_comrade(data_copy), "fr", path)
    [error] = result.report.errors
    assert error.code == "xliff-syntax" and "entities" in error.message
    assert error.location.line == 1 and french.read_bytes() == before
    path.write_text(text.replace("&secret;", "Camarade rouge"), encoding="utf-8")
    assert not import_po(_comrade(data_copy), "fr", path).report.has_errors
