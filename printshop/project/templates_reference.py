"""docs/templates.md, generated: what each kind of template receives (resolve.TEMPLATE_CONTEXT), the
rich-text tags it may write (typeset/richtext.py) and how a table is drawn (typeset/tables.py), so
the page cannot drift from the code (tests/test_reference_docs.py)."""

from __future__ import annotations

from printshop.project.reference import cell


def templates_markdown() -> str:
    from printshop.language.resolve import TEMPLATE_CONTEXT, TEMPLATE_KINDS
    from printshop.typeset.richtext import INLINE, PARAGRAPH_TAGS

    lines = [
        "# Templates",
        "",
        "What each kind of template receives and what it must write. This page is generated from the code",
        "(`printshop docs`, from `TEMPLATE_CONTEXT` in printshop/language/resolve.py); a test fails when the names the",
        "code passes and this page differ.",
        "",
        "Templates are [Jinja](https://jinja.palletsprojects.com/) files under `templates/`, named by the data",
        "(`template:` of a face in faces.yaml, `booklet.template` in game.yaml). Autoescape is on: values from",
        "the data are escaped, texts arrive with their `<b>`, `<i>`, `<br/>`, `<icon/>`. A name that does not exist is an",
        "error (at the template's line and column), never an empty string; so is a group of texts written out as if it",
        "were one (`{{ t.card.sun }}` for `{{ t.card.sun.name }}`). Data is never run as a template.",
        "Templates run in Jinja's [sandbox](https://jinja.palletsprojects.com/en/stable/sandbox/): they read the",
        "values below and their public attributes, never Python's insides (names starting with `_`), so a games",
        "folder from elsewhere cannot run code through its templates; `range` stops at 100,000 items and one `*`",
        "or `**` at a million characters, items or a number of 64 bits.",
        "",
        "## Kinds of template",
        "",
        "| kind | what it draws |",
        "|---|---|",
    ]
    lines += [f"| {kind} | {cell(text)} |" for kind, text in TEMPLATE_KINDS.items()]
    kinds = list(TEMPLATE_KINDS)
    lines += [
        "",
        "## Names",
        "",
        "| name | " + " | ".join(kinds) + " | what it holds | example |",
        "|---|" + "---|" * len(kinds) + "---|---|",
    ]
    for entry in TEMPLATE_CONTEXT:
        marks = " | ".join("✓" if kind in entry.kinds else "" for kind in kinds)
        example = f"`{entry.example}`" if entry.example else ""
        lines.append(f"| `{entry.name}` | {marks} | {cell(entry.holds)} | {cell(example)} |")
    lines += [
        "",
        "Each name a card holds in `vars` comes from game.yaml as written: `card.vars.word`. Inside `cards.<deck>`,",
        'Jinja\'s filters select cards: `cards.cards | selectattr("kind", "equalto", "role") | list`.',
        "",
        "## Filters",
        "",
        "| filter | what it does | example |",
        "|---|---|---|",
        "| `fill(name=value, …)` | fills a text's `{placeholders}`; a placeholder the text uses and the call does "
        "not give is an error, at the text (at the template when no text has it) | `{{ t.game.players \\| fill(min=game.players.min, "
        "max=game.players.max) }}` |",
        "",
        "Jinja's own filters and tests (`length`, `first`, `selectattr`, `map`, `sum`, `lower`, …) are there too.",
        "",
        "## Face templates: one block per frame",
        "",
        "A face template (kinds card, back, sheet) has one `{% block <frame> %}` per frame of the face in",
        "faces.yaml, named as the frame. Each block is rendered on its own, after the template's top level has",
        "run once, so `{% set %}` and `{% macro %}` at the top level are seen by every block. A frame without a",
        "block, or a block without a frame, is an error, reported once per template at the file's first line",
        "(or at the block), naming the frame's line in faces.yaml. Text outside blocks is not printed.",
        "",
        "## The markup templates write",
        "",
        "What a block or a booklet renders is a small XML vocabulary (printshop/typeset/richtext.py). Text outside any",
        "tag makes paragraphs, split at blank lines.",
        "",
        "| tag | what it makes |",
        "|---|---|",
    ]
    tags = {
        "p": "a paragraph, in the frame's style (in a booklet: the style `p`)",
        "title": "booklet: the title, in the booklet style of the same name",
        "subtitle": "booklet: the subtitle, in the style of the same name",
        "meta": "booklet: a small line (players, duration, credits), in the style of the same name",
        "h1": "booklet: a heading, in the style of the same name",
        "h2": "booklet: a sub-heading, in the style of the same name",
        "box": "a boxed paragraph, in the style `box`",
        "ul": "a bulleted list of `<li>` items (style `li`)",
        "ol": "a numbered list of `<li>` items (style `li`)",
        "table": "a table of `<tr>` rows of `<th>` header and `<td>` cells (styles `th`, `td`); "
        '`widths="20,80"` gives the columns\' shares, `align="left,center"` how each column (and its '
        "header) is set, centred where not given; how it is drawn: below",
        "spacer": 'empty space: `<spacer height="8mm"/>`; in a booklet, `<spacer '
        'height="print-and-play"/>` opens a section for home prints only, and `<spacer '
        'height="back-cover"/>` makes what follows the back cover, set on the last page',
        "pagebreak": "booklet: the next block starts a new page",
        "art": 'a motif of motifs.yaml: `<art motif="star" size="26mm" colour="red"/>`',
        "img": 'a picture, a PNG, JPEG or SVG file of the game\'s folder: `<img src="images/board.svg" '
        'width="90mm"/>`; `height` is optional (its proportions are kept; with both, it fits in '
        "that box; with neither, it takes the width there is); `align` is `left`, `center` (the "
        "default) or `right`. One wider than its frame or page is scaled down to fit, never cut; "
        "fitting counts its height. An SVG is drawn as vectors; a PNG or JPEG must be fine enough "
        "where it is placed (print_and_play.min_dpi, and each shop's)",
        "figure": "booklet: one `<img/>` and its `<caption>` (text, with `<b>` and `<i>`), kept on "
        "one page together (style `caption`); in a frame, the picture then its caption",
        "caption": "inside `<figure>` only, after its `<img/>`",
    }
    assert set(PARAGRAPH_TAGS) <= set(tags), (
        "richtext.py has a paragraph tag this page does not describe"
    )
    lines += [f"| `<{tag}>` | {cell(text)} |" for tag, text in tags.items()]
    lines += [
        "",
        "Inside a paragraph, a list item or a cell: "
        + ", ".join(f"`<{tag}{INLINE_FORMS.get(tag, '')}>`" for tag in sorted(INLINE))
        + " (bold, line break, an inline icon, italic).",
        "Any other tag is an error at the template.",
        "",
        *_table_attributes(),
        "",
        *_icons(),
    ]
    return "\n".join(lines)


INLINE_FORMS = {"br": "/", "icon": ' name="coin"/'}  # how the self-closing inline tags are written


def _icons() -> list[str]:
    """`<icon>` (typeset/icons.py), in templates and data texts alike."""
    from printshop.typeset.icons import IMAGE_SUFFIXES

    images = ", ".join(f"`images/<name>{suffix}`" for suffix in IMAGE_SUFFIXES)
    return [
        "### Inline icons",
        "",
        '`<icon name="coin"/>` sets a small picture in the line, as a letter is set: in a paragraph, a '
        "list item, a table cell, a card's or a sheet's frame, in a template or in a text of the "
        "data's language files (where `<icon name='coin'/>` in single quotes suits a text written "
        "in double quotes). It takes only `name`: letters, digits, `_` and `-`.",
        "",
        "- **What it draws.** A motif of motifs.yaml (the project's, under the game's own "
        f"print/motifs.yaml), drawn as vector paths; else an image of the game's folder, {images}, "
        "the first there is. A name that is both a motif and an image draws the motif, and "
        "`validate` warns (`ambiguous-icon`).",
        "- **Size and place.** Its foot on the baseline, as tall as the font's capital letters, "
        "its width by the motif's view box (or the image's shape). A text style's `icon_size` (a "
        "length, the height at the style's `size`) sets another height; either way it shrinks "
        "with the text when a frame sets it smaller.",
        "- **Colour.** A motif takes the colour of the text around it (`<b>` and `<i>` keep it).",
        "- **In a line.** It is one unbreakable item of its width: fitting, justification and "
        "hyphenation count it; no line breaks between it and the letters or icons it touches "
        '(write a space where a break may come: "Gain 2 <icon name="coin"/>.").',
        "- **Faults.** An unknown name (with the nearest there is), an icon without a name, one "
        "with other attributes or content: an error at the template's line, or at the text's "
        "line in its language file. A translation must use the source's icons, each as many "
        "times, in any order (`icon-mismatch`).",
    ]


def _table_attributes() -> list[str]:
    """The attributes of `<table>` that say how it is drawn (typeset/tables.py)."""
    from printshop.typeset.richtext import MAX_WRITING_ROWS, RULES
    from printshop.typeset.tables import MIN_ROWS, ROW_HEIGHT

    rows = {
        "rules": f"which lines: {', '.join(f'`{rule}`' for rule in RULES)} (every line; a line "
        "between rows; none but those asked below)",
        "column-rules": "`yes` or `no`: a line between columns (with `rows` or `none`)",
        "last-rule": "`yes` or `no`: a line under the last row (with `rows` or `none`)",
        "header-fill": "the header cells' (`th`) fill: a colour of colours.yaml, or `none`",
        "padding": "space above and below each cell's text, a length (`2mm`)",
        "rows": f"that many empty writing rows under the written ones (1 to {MAX_WRITING_ROWS}): "
        "a score pad",
        "row-height": f"the writing rows' height (default {ROW_HEIGHT})",
    }
    return [
        "### How a table is drawn",
        "",
        "Booklets and card and sheet frames draw tables the same way. What a table does not say is",
        "its place's: in a booklet, booklet.yaml's `tables` (every line in `grid`, the header",
        "filled in `rule_colour`); in a frame, a line in the frame's colour between rows, no fill.",
        "",
        "| attribute | what it does |",
        "|---|---|",
        *(f"| `{name}` | {cell(text)} |" for name, text in rows.items()),
        "",
        'A score pad: `<table rules="grid" header-fill="gold" rows="12" row-height="8mm">` with',
        "one `<tr>` of `<th>` names; rows in a `<tfoot>` at the table's end (a total) are set",
        f"under the writing rows. In a booklet a table split over pages keeps {MIN_ROWS} rows",
        "or more on each side of the break and repeats its header rows on the next page. A wrong",
        "value is an error at the template's line.",
        "",
    ]
