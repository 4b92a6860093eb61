"""The quick YAML reader (libyaml) gives what ruamel.yaml's round-trip loader gives: values, types
and every line and column, so diagnostics point at the same places whichever reads the file."""

from __future__ import annotations

import pytest
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from printshop import memo, memos
from printshop.diagnostics import Report
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.project.source import _fast_load, _yaml, read_yaml

FILES = sorted(DEFAULT_DATA_DIR.rglob("*.yaml"))


def _same(quick, slow, where):
    if isinstance(slow, CommentedMap):
        assert isinstance(quick, CommentedMap) and list(quick) == list(slow), where
        assert (quick.lc.line, quick.lc.col) == (slow.lc.line, slow.lc.col), where
        for key in slow:
            assert quick.lc.data[key] == slow.lc.data[key], (where, key)
            _same(quick[key], slow[key], (*where, key))
    elif isinstance(slow, CommentedSeq):
        assert isinstance(quick, CommentedSeq) and len(quick) == len(slow), where
        for index, item in enumerate(slow):
            assert quick.lc.data[index][:2] == slow.lc.data[index][:2], (where, index)
            _same(quick[index], item, (*where, index))
    else:
        assert quick == slow and isinstance(quick, bool) == isinstance(slow, bool), (
            where,
            quick,
            slow,
        )


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(DEFAULT_DATA_DIR)))
def test_the_quick_reader_matches_ruamel(path):
    text = path.read_text(encoding="utf-8")
    quick = _fast_load(path, text, Report())
    assert quick is not None and quick.root is not None
    yaml = _yaml()
    yaml.constructor.duplicates = []
    _same(quick.root, yaml.load(text), (path.name,))


@pytest.mark.parametrize(
    "text, value",
    [
        ("a: yes", "yes"),
        ("a: on", "on"),
        ("a: 1:20", "1:20"),
        ("a: 010", 10),
        ("a: 0x1f", 31),
        ("a: .inf", float("inf")),
        ("a: ~", None),
        ("a: '3'", "3"),
        ("a: 2.5", 2.5),
        ("a: 4mm", "4mm"),
        ("a: True", True),
    ],
)
def test_plain_scalars_follow_yaml_1_2_as_ruamel_does(tmp_path, text, value):
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    assert read_yaml(path, Report()).root["a"] == value


def test_duplicates_and_aliases_are_reported_by_line(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\nb: 2\na: 3\n", encoding="utf-8")
    report = Report()
    document = read_yaml(path, report)
    assert document.root == {"a": 1, "b": 2}
    assert [(d.code, d.location.line, d.location.col) for d in report.items] == [
        ("duplicate-key", 3, 1)
    ]
    path.write_text("a: &x {b: 1}\nc: *x\n", encoding="utf-8")
    report = Report()
    assert read_yaml(path, report) is None
    assert [(d.code, d.location.line) for d in report.items] == [("yaml-syntax", 2)]


def _snapshot(node):
    """Everything a document holds, positions and attributes included, as plain values to compare."""
    if isinstance(node, (CommentedMap, CommentedSeq)):
        items = node.items() if isinstance(node, CommentedMap) else enumerate(node)
        return (
            type(node).__name__,
            node.lc.line,
            node.lc.col,
            repr(sorted(node.lc.data.items(), key=repr)),
            repr(getattr(node, "origins", None)),
            [(key, _snapshot(value)) for key, value in items],
        )
    return type(node).__name__, node


def test_a_text_read_again_is_not_parsed_again_and_says_where_it_is_now(tmp_path, monkeypatch):
    import printshop.project.source as source

    first, second = tmp_path / "a.yaml", tmp_path / "copy" / "a.yaml"
    second.parent.mkdir()
    for path in (first, second):
        path.write_text("deck:\n  size: poker\n  count: 3\n", encoding="utf-8")
    one = read_yaml(first, Report())
    monkeypatch.setattr(source, "_fast_load", lambda *args: pytest.fail("parsed again"))
    other = read_yaml(second, Report())
    assert other.root is one.root and other.path == second
    assert str(other.where(("deck", "count"))) == f"{second}:3:10"


def test_a_text_with_a_diagnostic_is_read_and_reported_every_time(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\na: 2\n", encoding="utf-8")
    for _ in range(2):
        report = Report()
        assert read_yaml(path, report).root == {"a": 1}
        assert [d.code for d in report.items] == ["duplicate-key"]


def test_checking_and_building_leave_the_documents_read_as_they_were(tmp_path):
    """Documents read once are shared by every later reading of the same text
    (memos.PARSED_DOCUMENTS): nothing may change them, or the next load of any copy of the data
    would see the change."""
    from printshop.pipeline.build import build, check

    check(DEFAULT_DATA_DIR)
    kept = {text: _snapshot(root) for text, root in memos.PARSED_DOCUMENTS.items()}
    assert len(kept) >= len(FILES)
    result = build(
        DEFAULT_DATA_DIR,
        tmp_path / "out",
        games=["kremlin", "assassin"],
        langs=["fr"],
        papers=["a4"],
        jobs=1,
        force=True,
    )  # boards, sheets, tables, booklets: every kind of file
    assert not result.report.has_errors
    check(DEFAULT_DATA_DIR, games=["kremlin"], langs=["en"])
    assert {text: _snapshot(memos.PARSED_DOCUMENTS[text]) for text in kept} == kept


def test_the_texts_kept_stay_within_their_budget_the_least_recently_read_going_first(
    tmp_path, monkeypatch
):
    import printshop.project.source as source

    memo.clear("parsed_documents")
    monkeypatch.setattr(source, "_parsed_chars", 0)
    monkeypatch.setattr(source, "_PARSED_BUDGET", 100)
    texts = [f"key: {'x' * 40}{n}\n" for n in range(3)]  # 47 characters each: two fit the budget
    for n, text in enumerate(texts):
        (tmp_path / f"{n}.yaml").write_text(text, encoding="utf-8")
    read_yaml(tmp_path / "0.yaml", Report())
    read_yaml(tmp_path / "1.yaml", Report())
    read_yaml(tmp_path / "0.yaml", Report())  # read again: now the most recent
    read_yaml(tmp_path / "2.yaml", Report())
    assert list(memos.PARSED_DOCUMENTS) == [texts[0], texts[2]] and source._parsed_chars == 94


def test_a_file_saved_again_lets_its_old_text_go(tmp_path, monkeypatch):
    """A session reads the file being edited after every save: each version was kept until the
    budget (32 million characters, hundreds of MB of documents) let the oldest go. The text a file
    no longer has is dropped when it gives another; a copy of a file, the same text elsewhere, is
    still shared."""
    import printshop.project.source as source

    memo.clear("parsed_documents")
    monkeypatch.setattr(source, "_parsed_chars", 0)
    memo.clear("last_text")
    texts = tmp_path / "en.yaml"
    for n in range(50):
        texts.write_text(f'card: {{name: "Dissident {n}"}}\n', encoding="utf-8")
        assert read_yaml(texts, Report()).root["card"]["name"] == f"Dissident {n}"
    assert list(memos.PARSED_DOCUMENTS) == [texts.read_text(encoding="utf-8")]
    assert source._parsed_chars == len(texts.read_text(encoding="utf-8"))
    copy = tmp_path / "copy.yaml"
    copy.write_text(texts.read_text(encoding="utf-8"), encoding="utf-8")
    assert (
        read_yaml(copy, Report()).root is read_yaml(texts, Report()).root
    )  # shared, not parsed again
    texts.write_text('card: {name: "Freethinker"}\n', encoding="utf-8")
    read_yaml(texts, Report())
    assert (
        len(memos.PARSED_DOCUMENTS) == 1
        and read_yaml(copy, Report()).root["card"]["name"] == "Dissident 49"
    )


def test_items_of_reads_a_map_as_ruamel_does_merge_keys_and_moved_keys_included():
    """`items_of` (and `schema.plain`, which pydantic is given) read maps in C: the same items in
    the same order as ruamel.yaml's own view, for a map with a `<<` merge key (read through ruamel)
    and for one whose order `insert` changed (a plain dict's order would differ)."""
    import io

    from printshop.project.schema import plain
    from printshop.project.source import items_of

    root = _yaml().load(
        io.StringIO("base: &b {x: 1, y: 2}\nover:\n  <<: *b\n  y: 3\n  z: [1, {w: 4}]\n")
    )
    over = root["over"]
    assert list(items_of(over)) == list(over.items()) and dict(items_of(over))["x"] == 1
    moved = CommentedMap([("a", 1), ("b", 2)])
    moved.insert(0, "first", 0)
    assert list(items_of(moved)) == list(moved.items()) == [("first", 0), ("a", 1), ("b", 2)]
    assert plain(root) == {"base": {"x": 1, "y": 2}, "over": {"x": 1, "y": 3, "z": [1, {"w": 4}]}}
    assert type(plain(root)["over"]) is dict and type(plain(root)["over"]["z"]) is list


@pytest.mark.parametrize(
    "text, line, said, hint",
    [
        ("a:\n\tb: 1\n", 2, "a tab: YAML indents with spaces only", "replace the tab with spaces"),
        (
            "a:\n  b: 1\n c: 2\n",
            3,
            "this line is indented unlike the lines of its block",
            "indent it as the keys beside",
        ),
        ("title: Phase 1: vote\n", 1, "a colon the parser cannot read here", "in quotes"),
    ],
)
def test_the_commonest_yaml_mistakes_are_said_plainly_with_what_to_do(
    tmp_path, text, line, said, hint
):
    """A translator's tab, a key indented one space off, a colon in an unquoted text: the parser's
    words ("found character '\\t' that cannot start any token", "expected <block end>, but found
    '<block mapping start>'") are kept in brackets after what they mean, and the hint says what to
    do, not "fix the syntax"."""
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    report = Report()
    assert read_yaml(path, report) is None
    [error] = report.items
    assert error.code == "yaml-syntax" and error.location.line == line and said in error.message, (
        error.format()
    )
    assert hint in error.hint and "(" in error.message  # the parser's own words kept


def test_a_data_file_in_latin1_is_reported_at_its_first_byte_that_is_not_utf8(tmp_path):
    """A translator's file saved in Latin-1: reported at 1:1 of its line with the hint "fix the
    syntax"; it is at the byte, with what to do in an editor."""
    path = tmp_path / "fr.yaml"
    path.write_bytes('a: "ok"\nb: "déjà"\n'.encode("latin-1"))
    report = Report()
    assert read_yaml(path, report) is None
    [error] = report.items
    assert (error.location.line, error.location.col) == (2, 6) and "byte 0xE9" in error.message, (
        error.format()
    )
    assert "save the file with the UTF-8 encoding" in error.hint


def test_a_font_file_that_is_nowhere_says_where_to_put_it(tmp_path):
    """The hint was the catalogue's "create the file, or pass the right folder with --data": a font
    is not written by hand, and the folder it goes in is the project's fonts folder."""
    from printshop.pipeline.build import check
    from tests.conftest import copy_data

    data = copy_data(tmp_path / "data", ["comrade"])
    fonts = data / "print" / "fonts.yaml"
    fonts.write_text(
        fonts.read_text(encoding="utf-8").replace(
            "bold: NotoSans-Bold.ttf", "bold: NotoSans-Blod.ttf", 1
        ),
        encoding="utf-8",
    )
    report, _ = check(data, games=["comrade"])
    [error] = [d for d in report.errors if d.code == "file-missing"]
    assert "font file 'NotoSans-Blod.ttf' is in none of" in error.message
    assert error.hint.startswith(
        f"put the font file in {data / 'fonts'} (its licence beside it)"
    ), error.hint
