"""printshop: turns game data into print-and-play kits, press files and rule booklets.

The pipeline is load -> resolve the language -> validate -> lay out -> render -> write;
see ARCHITECTURE.md. `printshop.pipeline.build` is the library entry point the command line wraps.
"""

from printshop.typeset import lazy_patterns

__version__ = "0.1.0"

lazy_patterns.install()  # a few large patterns of ReportLab and PyYAML compiled when used, not on import
