"""The command line's layout: one module per command in printshop/commands/, and none of them loads
the heavy libraries when imported (a build with nothing to do answers before they would have
loaded)."""

import re
import subprocess
import sys

import pytest

from printshop.cli import COMMANDS, make_parser


def test_every_command_the_help_lists_has_its_module():
    help_text = make_parser().format_help()
    block = help_text.split("COMMAND\n", 1)[1].split("\n\n", 1)[0]
    listed = re.findall(
        r"^    (\S+)", block, re.MULTILINE
    )  # a command's name, not its help's next line
    assert listed == list(COMMANDS)
    for name, module in COMMANDS.items():
        assert callable(module.add_parser) and callable(module.run), name
        assert module.__doc__ and f"printshop {name}" in module.__doc__.splitlines()[0], name


@pytest.mark.parametrize("heavy", ["reportlab", "pydantic", "ruamel.yaml", "jinja2"])
def test_the_command_line_imports_no_heavy_library(heavy):
    code = f"import sys, printshop.cli; print({heavy!r} in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
