"""The quick YAML reader (libyaml) gives what ruamel.yaml's round-trip loader gives: values, types
and every line and column, so diagnostics point at the same places whichever reads the file."""
from __future__ import annotations


import pytest
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from printshop.diagnostics import Report
from printshop.loader import DEFAULT_DATA_DIR
from printshop.source import _fast_load, _yaml, read_yaml

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
        assert quick == slow and isinstance(quick, bool) == isinstance(slow, bool), (where, quick, slow)


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(DEFAULT_DATA_DIR)))
def test_the_quick_reader_matches_ruamel(path):
    text = path.read_text(encoding="utf-8")
    quick = _fast_load(path, text, Report())
    assert quick is not None and quick.root is not None
    yaml = _yaml()
    yaml.constructor.duplicates = []
    _same(quick.root, yaml.load(text), (path.name,))


@pytest.mark.parametrize("text, value", [("a: yes", "yes"), ("a: on", "on"), ("a: 1:20", "1:20"), ("a: 010", 10),
                                         ("a: 0x1f", 31), ("a: .inf", float("inf")), ("a: ~", None),
                                         ("a: '3'", "3"), ("a: 2.5", 2.5), ("a: 4mm", "4mm"), ("a: True", True)])
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
    assert [(d.code, d.location.line, d.location.col) for d in report.items] == [("duplicate-key", 3, 1)]
    path.write_text("a: &x {b: 1}\nc: *x\n", encoding="utf-8")
    report = Report()
    assert read_yaml(path, report) is None
    assert [(d.code, d.location.line) for d in report.items] == [("yaml-syntax", 2)]
