"""printshop: turns game data into print-and-play kits, press files and rule booklets.

The pipeline is load -> resolve the language -> validate -> lay out -> render -> write;
see ARCHITECTURE.md. `printshop.pipeline.build` is the library entry point the command line wraps.
"""

from printshop import reportlab_patches

__version__ = "0.1.0"

# ReportLab's (and PyYAML's) patches, each made as its module is imported
reportlab_patches.install()
