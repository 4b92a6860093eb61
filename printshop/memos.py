"""Every process-wide memo printshop keeps, declared in one place: its name, where it is used, what
it is keyed by.

A module takes its memo from here (`_LAID_OUT = memos.LAID_OUT`, `@memos.HYPHENATOR`) and uses it as
before; printshop/memo.py holds the machinery and the registry: `memo.listing()` lists them,
`memo.clear(name)` and `memo.clear_all()` forget what they keep, and `PRINTSHOP_MEMO=off` keeps
nothing in any of them (nor in the user's cache folder). tests/test_memos.py checks that every
module-level memo in printshop/ is declared here.

Not memos, and so not here:
- state a process holds on purpose: check_codes.CATALOGUE (the checks' catalogue), pipeline/workers.py `_STATE`
  (what forked workers read), typeset/fonts.py `_registered`, `_fallback_characters` and `_active` (the faces
  registered with ReportLab), write/fitstore.py `ACTIVE` (the fit store of the `kept_fits` block),
  checks/translation_checks.py `_PASS` (each file's lines within one validation pass), typeset/templating.py
  `_pruned` (the user's template folders trimmed this process), reportlab_patches.py `_finding` (a guard);
- memos kept by an object, which go with it: render/replay.py FaceRecordings' `page_streams` and `booklets` (a
  session's), write/cache.py Digests' `_known` (a build's), `functools.cached_property`s;
- the build cache in the output folder (write/cache.py, `.printshop-cache/`): what `build` skips and which stale
  outputs it removes depend on it, so it is not a memo; `--force` ignores it.

The ContextVars, which carry state down a call without passing it:
- render/replay.py `recordings`: the FaceRecordings a session's render records each face's drawing into, and
  replays unchanged faces from (None outside a session);
- render/helper.py `helpers_allowed`: whether a template may call the helpers that read files (False while
  checking untrusted templates);
- render/colour.py `_noted` (`noting_colours`): the list the colour names a piece of work looks up are noted in,
  so a session redraws a face only when one of its colours changed;
- pipeline/jobs.py `_noted_motifs` (`noting_motifs`): the same for the motifs a face draws.
"""

from __future__ import annotations

from printshop.memo import memo, memoized, ordered_table, sized_memo, table, weak_table

# -- project: reading data
# ---------------------------------------------------------------------------------------
PARSED_DOCUMENTS = ordered_table(
    "parsed_documents",
    keyed_by="a YAML file's text (read without a diagnostic); the least recently read past 32 M characters go",
    used_in="project/source.py _PARSED",
)
LAST_TEXT = table(
    "last_text",
    keyed_by="a file's path: the text it last gave, so that the document of its old text goes when it changes",
    used_in="project/source.py _LAST_TEXT",
)
COMPOSER = memoized(
    "yaml_composer",
    keyed_by="the PyYAML module",
    used_in="project/source.py _composer",
    maxsize=None,
)
MERGED_FACES = memo(
    "merged_faces",
    64,
    keyed_by="the faces.yaml document's root object (its id, checked against the object kept)",
    used_in="project/faces_file.py _MERGED",
)
LENGTHS_READ = table(
    "lengths_read",
    keyed_by="a length's text ('63mm'); at most units._READ_MAX",
    used_in="project/units.py _READ",
)
SVG_PATHS = memoized(
    "svg_paths",
    keyed_by="a motif's path data",
    used_in="project/models/art.py _svg_path",
    maxsize=4096,
)
FIELD_DOCS = memoized(
    "field_docs",
    keyed_by="nothing (the model modules' source, read once)",
    used_in="project/reference.py field_docs",
    maxsize=None,
)
MODEL_NAMESPACE = memoized(
    "model_namespace",
    keyed_by="nothing (the model modules' names, gathered once)",
    used_in="project/reference.py model_namespace",
    maxsize=None,
)
FIELD_NAMES = memoized(
    "field_names", keyed_by="a model class", used_in="project/schema.py _field_names", maxsize=None
)
ALIASES = memoized(
    "aliases", keyed_by="a model class", used_in="project/schema.py _aliases", maxsize=None
)
DISPLAY_PATHS = memoized(
    "display_paths",
    keyed_by="a path and the working folder",
    used_in="diagnostics.py _display_path",
    maxsize=4096,
)

# -- language: texts and translations
# ----------------------------------------------------------------------------
MARKUPS = sized_memo(
    "markups",
    8_000_000,
    keyed_by="a text and the typography fields apply_typography reads (space, space_before/after, replace)",
    used_in="language/texts.py _MARKUPS",
)
SPACING_BEFORE = memoized(
    "spacing_before",
    keyed_by="a language's marks spaced before",
    used_in="language/texts.py _spacing_before",
    maxsize=32,
)
SPACING_AFTER = memoized(
    "spacing_after",
    keyed_by="a language's marks spaced after",
    used_in="language/texts.py _spacing_after",
    maxsize=32,
)
KEPT_WITH_NEXT = memo(
    "kept_with_next",
    20000,
    keyed_by="a markup, the language's keep_with_next words and numbers_with_next",
    used_in="language/texts.py _KEPT",
)
TIE_PATTERNS = memoized(
    "tie_patterns",
    keyed_by="the words kept with the next and whether numbers are",
    used_in="language/texts.py _tie_pattern",
    maxsize=None,
)
CHILD_INDEXES = memo(
    "child_indexes",
    64,
    keyed_by="a catalogue's text ids in order",
    used_in="language/text_tree.py _CHILD_INDEXES",
)
INLINE_TAGS = memoized(
    "inline_tags", keyed_by="a text", used_in="language/translation.py _inline_tags", maxsize=65536
)
LINE_BREAKS = memoized(
    "line_breaks", keyed_by="a text", used_in="language/translation.py line_breaks", maxsize=65536
)

# -- checks
# ------------------------------------------------------------------------------------------------------
LANGUAGE_RULES = memo(
    "language_rules",
    1_000,
    keyed_by="a language object (its id, checked against the object kept)",
    used_in="checks/translation_checks.py _RULES",
)
PAIRS_CHECKED = memo(
    "pairs_checked",
    100_000,
    keyed_by="text id, reference and translated text, the language's rules, reference language and name",
    used_in="checks/translation_checks.py _PAIRS_CHECKED (check_pair: Problems)",
)
TEXTS_CHECKED = memo(
    "texts_checked",
    100_000,
    keyed_by="text id, text and the language's rules",
    used_in="checks/translation_checks.py _TEXTS_CHECKED",
)
FILE_LINES = memoized(
    "file_lines",
    keyed_by="a file's path, modified time and size",
    used_in="checks/translation_checks.py _read_lines",
    maxsize=256,
)
TRANSLATION_FINDINGS = memo(
    "translation_findings",
    100_000,
    keyed_by="text id, source text and language, translated text and language, the language's rules, reference "
    "name, the untranslatable words and the text's own acknowledgement",
    used_in="checks/translations.py _PAIRS_CHECKED (findings as code, message, acknowledgement; it calls "
    "check_pair, whose own memo is pairs_checked)",
)
IMAGES_INSPECTED = memoized(
    "images_inspected",
    keyed_by="an image's path, the data folder and the file's stamp",
    used_in="checks/images.py _inspect_image",
    maxsize=256,
)
SVG_DRAWINGS = memoized(
    "svg_drawings",
    keyed_by="an SVG file's path, its stamp and the colour mode it is drawn in (never changed once made)",
    used_in="render/images.py _drawing",
    maxsize=64,
)
LANGUAGE_DETECTORS = memoized(
    "language_detectors",
    keyed_by="the project's language codes (lingua's detector for them)",
    used_in="checks/language_identity.py detector",
    maxsize=8,
)
LANGUAGE_IDENTITY = memoized(
    "language_identity",
    keyed_by="text id, text, its language, the project's languages, the identity settings and the "
    "untranslatable words",
    used_in="checks/language_identity.py identity_findings",
    maxsize=65536,
)
GLOSSARY_FINDINGS = memoized(
    "glossary_findings",
    keyed_by="a reference text, its translation and the glossary's terms for the two languages",
    used_in="checks/glossary.py term_findings",
    maxsize=65536,
)
MARKUP_PROBLEMS = memoized(
    "markup_problems",
    keyed_by="a text",
    used_in="checks/texts.py markup_problems_once",
    maxsize=65536,
)

# -- typeset
# -----------------------------------------------------------------------------------------------------
HYPHENATOR = memoized(
    "hyphenators",
    keyed_by="a pyphen dictionary name",
    used_in="typeset/fitting.py hyphenator",
    maxsize=None,
)
BALANCED = memo(
    "balanced",
    20000,
    keyed_by="a paragraph's text, bullet, width, indents, style fields (not colours) and the fonts registered",
    used_in="typeset/fitting.py _BALANCED",
)
FRAME_STYLES = table(
    "frame_styles",
    keyed_by="a text style, size, colours and hyphenation (cleared past 4096)",
    used_in="typeset/fitting.py _FRAME_STYLES",
)
FITTED = memo(
    "fitted",
    5000,  # enough for a thousand cards of three frames; each Fit keeps its flowables
    keyed_by="the blocks, the style's fields, width, height, hyphenation, colours, the fonts registered",
    used_in="typeset/fitting.py _FITTED",
)
BROKEN = memo(
    "broken_lines",
    20000,
    keyed_by="EvenParagraph._key: a paragraph's text, style and width",
    used_in="typeset/justify.py _BROKEN",
)
PARSED_BLOCKS = memo(
    "parsed_blocks",
    8192,
    keyed_by="a markup fragment (of up to richtext._SMALL characters) and the default style",
    used_in="typeset/richtext.py _PARSED",
)
PARSED_LARGE_BLOCKS = memo(
    "parsed_large_blocks",
    16,
    keyed_by="a longer markup fragment and the default style",
    used_in="typeset/richtext.py _PARSED_LARGE",
)
COMPILED_TEMPLATES = memo(
    "compiled_templates",
    400,
    keyed_by="Jinja's bytecode bucket key and the template source's checksum",
    used_in="typeset/templating.py _COMPILED",
)
COVERAGE = weak_table(
    "font_coverage",
    keyed_by="a TTFont object (weakly: the entry goes with the font)",
    used_in="typeset/fonts.py _COVERAGE",
)
LACKING = sized_memo(
    "characters_lacking",
    4_000_000,
    keyed_by="a font object, the fallback's characters and a text",
    used_in="typeset/fonts.py _LACKING",
)
INSIDE_BUNDLED = memoized(
    "inside_bundled_fonts",
    keyed_by="a font file's path",
    used_in="typeset/fonts.py _inside_bundled",
    maxsize=None,
)
SUBSETS = sized_memo(
    "font_subsets",
    16_000_000,  # a catalogue build makes about 5 MB
    keyed_by="a font file's digest and the glyphs of the subset",
    used_in="reportlab_patches.py remember_subsets (typeset/fontcache.py)",
)

# -- layout
# ------------------------------------------------------------------------------------------------------
LAID_OUT = memo(
    "laid_out",
    5000,
    keyed_by="a markup, the frame's setting fields, its colour's value, the language's ties and hyphenation, "
    "whether the font is registered and the fallback",
    used_in="layout/faces.py _LAID_OUT",
)

# -- render
# ------------------------------------------------------------------------------------------------------
COLOURS = memoized(
    "colours",
    keyed_by="a hex colour, the colour mode and whether it is for text",
    used_in="render/colour.py _convert",
    maxsize=4096,
)
CMYK_PROFILES = memoized(
    "cmyk_profiles",
    keyed_by="an ICC profile name",
    used_in="render/press_art.py cmyk_profile",
    maxsize=8,
)
TO_CMYK = memoized(
    "to_cmyk_transforms",
    keyed_by="an ICC profile name, the art's own profile and the rendering intent",
    used_in="render/press_art.py to_cmyk",
    maxsize=32,
)
BACK_TO_RGB = memoized(
    "back_to_rgb_transforms",
    keyed_by="an ICC profile name and the rendering intent",
    used_in="render/press_art.py back_to_rgb",
    maxsize=8,
)
TO_LAB = memoized(
    "to_lab_transform", keyed_by="nothing", used_in="render/press_art.py to_lab", maxsize=1
)
FLAT_CMYK = memoized(
    "flat_cmyk",
    keyed_by="an sRGB hex colour, an ICC profile name, the rendering intent and the ink limit",
    used_in="render/press_colour.py flat_cmyk",
    maxsize=4096,
)
SOFT_PROOF_TRANSFORMS = memoized(
    "soft_proof_transforms",
    keyed_by="an ICC profile name",
    used_in="render/soft_proof.py _to_screen",
    maxsize=8,
)
CLIPPED_SHARES = memoized(
    "clipped_shares",
    keyed_by="an image's path and stamp, the ICC profile and the ink limit",
    used_in="render/press_art.py clipped_share",
    maxsize=256,
)
BOOKLETS = memo(
    "booklets",
    96,
    keyed_by="a booklet's blocks and style, the paper, colour mode, file name, padding, bleed, folio, title, "
    "language, draft, hyphenation, the fonts registered and whether the palette is a stand-in",
    used_in="render/booklet.py _BOOKLETS",
)
BOOKLET_MEASURES = memo(
    "booklet_measures",
    256,
    keyed_by="a booklet's blocks and style, the paper's size, hyphenation, the text colours, the fonts "
    "registered and the spacing",
    used_in="render/booklet.py _MEASURED",
)
IMPOSED = sized_memo(
    "imposed_booklets",
    32_000_000,  # a catalogue's are about 6 MB
    keyed_by="a booklet's bytes (digest), the paper's size and the title",
    used_in="render/imposed_booklet.py _IMPOSED",
)
HOW_TO_PRINT_FITS = memo(
    "how_to_print_fits",
    256,  # a session's refreshes after label edits: the last few hundred pages set
    keyed_by="the how-to-print page's blocks and style, the paper's size, hyphenation and the fonts",
    used_in="render/how_to_print.py _FITS",
)
MOTIF_KEYS = table(
    "motif_keys",
    keyed_by="a motif object (its id, checked against the object kept); the oldest 512 go past 1024",
    used_in="render/replay.py _MOTIF_KEYS",
)
COMPRESSED = sized_memo(
    "compressed_streams",
    48 << 20,  # a catalogue build makes about 2 MB
    keyed_by="a stream's bytes (digest); streams under 512 bytes are compressed each time",
    used_in="reportlab_patches.py remember_compressed_streams",
)

# -- write
# -------------------------------------------------------------------------------------------------------
STAMPED = memo(
    "file_hashes",
    50_000,
    keyed_by="a file's path: its stamp (size, times, inode) and hash, once its last change has settled",
    used_in="write/cache.py _STAMPED",
)
TEMPLATE_REFERENCES = table(
    "template_references",
    keyed_by="a template file's path and hash",
    used_in="write/cache.py _REFERENCES",
)
RUNNING_CODE = memoized(
    "running_code",
    keyed_by="nothing (printshop's sources as imported)",
    used_in="write/cache.py _running_code",
    maxsize=1,
)
INSTALLED_LIBRARIES = memoized(
    "installed_libraries",
    keyed_by="nothing (the libraries as imported)",
    used_in="write/cache.py _installed_libraries",
    maxsize=1,
)

# -- live
# --------------------------------------------------------------------------------------------------------
PAGE_TEXTS = memo(
    "page_texts",
    64,
    keyed_by="a PDF's bytes",
    used_in="live/images.py _PAGE_TEXTS",
)
