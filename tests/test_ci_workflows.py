"""Issue 56, item 6: `printshop init --ci github|gitlab` writes a workflow for a publisher's
repository: validation with annotations on pull requests (GitHub's workflow commands, GitLab's
code quality report), the kits built in a matrix of shards and kept as artefacts, press files on
tags, pip and the build cache kept. The tests check each file against the platform's published
JSON Schema (as check-jsonschema ships it, with its licence) and run its printshop commands, shard
by shard, in a new project."""

from __future__ import annotations

import importlib.resources
import json
import re
import shlex

import pytest
import yaml
from jsonschema.validators import validator_for

from printshop.cli import main
from printshop.diagnostics import Location, Report, format_report
from printshop.pipeline.build import build

SCHEMAS = {"github": "github-workflows.json", "gitlab": "gitlab-ci.json"}
FILES = {"github": ".github/workflows/printshop.yml", "gitlab": ".gitlab-ci.yml"}


def _schema_errors(kind: str, document) -> list[str]:
    vendor = importlib.resources.files("check_jsonschema.builtin_schemas.vendor")
    schema = json.loads((vendor / SCHEMAS[kind]).read_text(encoding="utf-8"))
    validator = validator_for(schema)(schema)
    return [error.message for error in validator.iter_errors(document)]


@pytest.fixture
def project(scaffolded):
    return scaffolded


@pytest.mark.parametrize("kind", ["github", "gitlab"])
def test_init_writes_a_workflow_its_platform_accepts(tmp_path, monkeypatch, kind, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["init", "games", "--ci", kind]) == 0
    path = tmp_path / "games" / FILES[kind]
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert _schema_errors(kind, document) == []
    assert (tmp_path / "games" / "printshop.toml").is_file()
    text = path.read_text(encoding="utf-8")
    assert "printshop validate --strict" in text and "--shard" in text and "--target shop" in text
    assert "printshop==" in text and "__" not in text  # every placeholder filled
    assert "commit it" in capsys.readouterr().out


def test_the_schema_check_catches_a_broken_workflow():
    """The check above can fail: a job without `runs-on` and steps is refused by the schema."""
    assert _schema_errors("github", {"on": "push", "jobs": {"build": {"steps": "no"}}})
    assert _schema_errors("gitlab", {"build": {"script": 5}})


def test_in_a_project_only_the_workflow_is_written_and_never_over_one(project, capsys):
    toml = (project / "printshop.toml").read_bytes()
    assert main(["init", "--ci", "github"]) == 0
    workflow = project / FILES["github"]
    assert workflow.is_file() and (project / "printshop.toml").read_bytes() == toml
    workflow.write_text("# mine\n", encoding="utf-8")
    with pytest.raises(SystemExit) as usage:
        main(["init", "--ci", "github"])
    assert usage.value.code == 2 and "--force" in capsys.readouterr().err
    assert workflow.read_text(encoding="utf-8") == "# mine\n"
    assert main(["init", "--ci", "github", "--force"]) == 0
    assert "printshop validate" in workflow.read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["init", "--force"])  # --force without --ci: init never writes over a project


def _printshop_commands(kind: str, text: str) -> list[str]:
    document = yaml.safe_load(text)
    if kind == "github":
        lines = [
            step["run"]
            for job in document["jobs"].values()
            for step in job["steps"]
            if "run" in step
        ]
    else:
        lines = [
            line
            for name, job in document.items()
            if isinstance(job, dict) and "script" in job
            for line in job["script"]
        ]
    return [line for line in lines if line.startswith("printshop ")]


@pytest.mark.parametrize("kind", ["github", "gitlab"])
def test_the_workflows_commands_run_and_their_shards_build_the_whole_kit(
    project, kind, tmp_path, capsys
):
    assert main(["init", "--ci", kind]) == 0
    capsys.readouterr()
    commands = _printshop_commands(kind, (project / FILES[kind]).read_text(encoding="utf-8"))
    assert any(" validate " in c for c in commands) and any("--shard" in c for c in commands)
    built = set()
    for command in commands:
        shards = ["1"]
        if "--shard" in command:
            shards = ["1", "2", "3", "4"]
        for shard in shards:
            line = (
                command.replace("${{ matrix.shard }}", shard)
                .replace("$CI_NODE_INDEX", shard)
                .replace("$CI_NODE_TOTAL", "4")
            )
            argv = shlex.split(line.split(" > ")[0].split(" || ")[0])[1:]
            assert not re.search(r"\$\{\{|\$CI_", " ".join(argv)), argv
            code = main(argv)
            out = capsys.readouterr().out
            assert code == 0, (line, out)
            if "--format github" in line:
                assert all(row.startswith("::") for row in out.splitlines() if row)
            if "--format gitlab" in line:
                assert isinstance(json.loads(out), list)
        built |= {
            p.relative_to(project / "output")
            for p in (project / "output").rglob("*.pdf")
            if "press" not in p.parts
        }
    whole = build(project / "data", tmp_path / "whole")
    assert not whole.report.has_errors
    assert built >= {p.relative_to(tmp_path / "whole") for p in (tmp_path / "whole").rglob("*.pdf")}


def test_the_gitlab_report_says_each_finding_at_its_file_and_line():
    report = Report()
    report.add("missing-text", Location("data/g/text/fr.yaml", 12, 3), "'a.b' has no text")
    report.add(
        "untranslated", Location("data/g/text/fr.yaml", 14, 3), "same", acknowledged="a name"
    )
    found = json.loads(format_report(report, style="gitlab"))
    assert [f["severity"] for f in found] == ["critical", "info"]
    assert found[0]["location"] == {"path": "data/g/text/fr.yaml", "lines": {"begin": 12}}
    assert found[0]["check_name"] == "missing-text" and len(found[0]["fingerprint"]) == 64
    assert found[0]["fingerprint"] != found[1]["fingerprint"]
    assert json.loads(format_report(Report(), style="gitlab")) == []
