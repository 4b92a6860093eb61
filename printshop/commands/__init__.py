"""The commands of the command line, one module per command as `printshop --help` lists them.

Each module has `add_parser(commands)`, which adds the command's subparser and its arguments, and
`run(args) -> int`, which carries it out and gives the exit code. printshop.cli builds the top-level
parser from them and dispatches to them; arguments.py holds the arguments several commands share and
common.py what they share when they run (UsageError, the checks of the games and folders named).
Modules import the library where it is used, so that `printshop --help` and a build with nothing to
do answer before ReportLab, pydantic or ruamel.yaml would have loaded.
"""
