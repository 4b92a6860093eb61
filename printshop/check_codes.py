"""The catalogue of checks: each problem printshop reports has a stable code, a default severity, a
one-line summary, a hint on how to fix it and an example of the message.

`diagnostics.diagnostic` looks a code up here for its default severity and hint;
`checks_page.catalogue_markdown` writes docs/checks.md from it (`printshop checks --markdown`),
and a test keeps that page in step.
"""

from __future__ import annotations

from dataclasses import dataclass

from printshop.diagnostics import Severity


@dataclass(frozen=True)
class Check:
    code: str
    severity: Severity
    summary: str
    hint: str
    example: str


CATALOGUE: dict[str, Check] = {}


def _check(code: str, severity: Severity, summary: str, hint: str, example: str) -> None:
    CATALOGUE[code] = Check(code, severity, summary, hint, example)


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO
# Data shape
_check(
    "yaml-syntax",
    E,
    "a data file is not valid YAML",
    "fix the syntax at the place shown (indentation, quotes, colons)",
    "data/comrade/text/fr.yaml:4:3: error[yaml-syntax]: YAML syntax: while scanning a quoted scalar found unexpected end of stream",
)
_check(
    "file-missing",
    E,
    "a required data file or folder is missing",
    "create the file, or pass the right folder with --data",
    "data/print/fonts.yaml:8:14: error[file-missing]: font file 'NotoSans-Bold.ttf' is in none of: data/fonts, printshop/fonts",
)
_check(
    "unknown-key",
    E,
    "a key that the schema does not know",
    "correct the spelling or remove the key",
    "data/comrade/game.yaml:21:45: error[unknown-key]: unknown key 'cuont'; did you mean 'count'?",
)
_check(
    "wrong-type",
    E,
    "a value of the wrong type",
    "write the kind of value the message names",
    "data/comrade/game.yaml:21:52: error[wrong-type]: 'decks.cards.cards.3.count': input should be a valid integer",
)
_check(
    "missing-field",
    E,
    "a required field is absent",
    "add the field",
    "data/comrade/game.yaml:1:1: error[missing-field]: 'minutes' is required but missing",
)
_check(
    "duplicate-key",
    E,
    "the same key twice in one mapping",
    "keep one of the two keys",
    "data/comrade/text/en.yaml:5:3: error[duplicate-key]: the key 'title' appears twice in one mapping (first at line 4); the second is ignored",
)
_check(
    "duplicate-id",
    E,
    "the same id twice in one list",
    "give each entry its own id",
    "data/comrade/game.yaml:23:14: error[duplicate-id]: card id 'chairman' is used twice in deck 'cards' (first at data/comrade/game.yaml:22:14)",
)
_check(
    "generated-deck",
    E,
    "a deck's `generate` cannot make its cards: an axis empty or not a list or range, too many "
    "cards, a pattern naming no axis, an id made twice, a value without a face",
    "correct the generate at the place shown; docs/data-format.md (Generate) says what it takes",
    "data/market/game.yaml:14:16: error[generated-deck]: deck 'market', generate: the range '11..1' of axis 'value' runs down, from 11 to 1, so it holds no value",
)
_check(
    "spreadsheet-cards",
    E,
    "a deck's `spreadsheet` cannot give its cards: the file missing or outside the game's folder, "
    "an unknown or empty sheet, no `id` column, an id used twice, a cell of the wrong type, a "
    "formula without a saved value, a merged cell, a text column",
    "correct the file or the cell the message names; docs/data-format.md (CardSheet) says what a "
    "sheet holds",
    "data/market/cards.xlsx:12:3: error[spreadsheet-cards]: cards.xlsx:Market!C12: 'count' is 'two', not a whole number of copies",
)
_check(
    "unknown-reference",
    E,
    "a reference to something that does not exist",
    "use one of the names the message lists",
    "data/comrade/game.yaml:22:46: error[unknown-reference]: no face 'chairmen' in faces.yaml (faces: card, role, comrade, …)",
)
# Decks and rules
_check(
    "composition",
    E,
    "a deck does not hold the cards the game declares",
    "add or remove cards, or correct the declared composition",
    "data/comrade/game.yaml:33:12: error[composition]: deck 'cards' should hold 1 'informer' card(s) but holds 0",
)
_check(
    "setup-impossible",
    E,
    "a supported player count cannot be set up with the cards there are",
    "add cards, or change the setup rule or the player range",
    "data/comrade/game.yaml:41:46: error[setup-impossible]: deck 'cards' has 6 'comrade' card(s): 9 players need 7; 10 players need 8",
)
_check(
    "tie",
    W,
    "two cards share a value that a rule uses to break ties",
    "check with the publisher which card goes first",
    "data/kremlin/game.yaml:40:7: warning[tie]: cards 'h' and 'i' share age 69 (i at data/kremlin/game.yaml:41:7); the rule needs distinct ages",
)
_check(
    "succession",
    E,
    "a phase's order of who acts is not complete or names an office twice",
    "list every office once, as the rules give it",
    "data/kremlin/game.yaml:60:18: error[succession]: phase 5 (funeral): 'ideology' appears twice",
)
_check(
    "rule-expression",
    E,
    "a rule's expression cannot be evaluated",
    "use whole numbers, the variable, + - * // % and parentheses",
    "data/comrade/game.yaml:43:44: error[rule-expression]: 'n ** 2' may only use whole numbers, n, + - * // % and parentheses",
)
# Texts
_check(
    "missing-text",
    E,
    "a text id of the source language has no text in a translation",
    "add the text to the translation file (printshop i18n sync adds it for you)",
    "data/comrade/text/fr.yaml:19:3: error[missing-text]: 'card.informer.name' has no French text (source: data/comrade/text/en.yaml:20:11)",
)
_check(
    "orphan-text",
    W,
    "a text id in a translation that the source does not have",
    "remove it, or run printshop i18n sync to move it to the obsolete section",
    "data/comrade/text/fr.yaml:30:5: warning[orphan-text]: 'card.informer.title' is not in the source language",
)
_check(
    "untranslated",
    W,
    "a translation identical to the text it is made from",
    "translate the text; names and loanwords that stay the same go under untranslatable: in game.yaml (words, or ids with a reason)",
    "data/comrade/text/fr.yaml:21:11: warning[untranslated]: 'card.informer.goal' is the same as the English text it is made from",
)
_check(
    "mojibake",
    W,
    "a text with encoding damage: UTF-8 read as Latin-1 or Windows-1252 ('Ã©' for 'é')",
    "write the text as the hint repairs it, and save files as UTF-8",
    "data/kremlin/text/de.yaml:12:10: warning[mojibake]: 'politician.a.name' holds encoding damage (UTF-8 read as another encoding): 'PolitbÃ¼ro'",
)
_check(
    "wrong-language",
    W,
    "a text, or a sentence of it, written in another of the project's languages than its file's",
    "translate it; a name that misleads the check goes in the game's untranslatable words, and a "
    "language file's checks.identity sets how sure the check must be",
    "data/comrade/text/de.yaml:17:11: warning[wrong-language]: 'card.dissident.goal': a sentence reads as English, not German: \"If the Informer sees this card he wins\"",
)
_check(
    "glossary-term",
    W,
    "a translation renders a glossary term otherwise than the game's glossary says",
    "write the term as the glossary renders it (an inflected form is fine), or add the form used to "
    "the term's forms in glossary.yaml",
    'data/kremlin/text/en.yaml:444:12: warning[glossary-term]: \'rules.phase6.p1\': the French says "Remplacement" (glossary term \'replacement\', a phase), which the English renders as "Replacement": this text has no "Replacement"',
)
_check(
    "glossary",
    E,
    "a glossary file or a TBX or CSV import that cannot be read: an unknown language, a term without its source rendering, a malformed file",
    "correct the file at the place shown; languages are those in data/languages/",
    "data/kremlin/glossary.yaml:7:5: error[glossary]: term 'purge': no language 'xx' in data/languages",
)
_check(
    "stale-translation",
    W,
    "the source text changed after the translation was made",
    "update the translation, then run printshop i18n sync",
    'data/comrade/text/fr.yaml:20:11: warning[stale-translation]: \'card.informer.name\': the English source changed from "Informer" to "Informant" since this was translated',
)
_check(
    "untracked-translation",
    W,
    "translated texts with no record of the source text each was made from (LANG.sources.yaml), so a later change to the source cannot show as stale",
    "run printshop i18n sync LANG once they are translated: it records the source of each",
    "data/lantern/text/fr.yaml:13:11: warning[untracked-translation]: 12 French texts have no record of the English text each was translated from ('card.ember.name', 'card.ember.text', 'card.wick.name' and 9 more): a later change to the English will not show as stale",
)
_check(
    "incomplete-translation",
    W,
    "build: a translation lacks texts (missing, or still the copy i18n sync left), so it is not built, or is built as a marked draft with --draft",
    "translate the texts it lacks, or build a marked draft anyway with printshop build --draft",
    "data/kremlin/text/de.yaml:1:1: warning[incomplete-translation]: kremlin de: not built, 12 of 180 texts not translated (8 missing, 4 still the text they are made from); 'printshop i18n status kremlin --verbose' lists them",
)
_check(
    "markup",
    E,
    "text markup that is not well formed or uses an unknown tag",
    "use only <b>, <i> and <br/>, each opened tag closed (at most eight open at once); type a character itself, not its HTML entity",
    "data/comrade/text/en.yaml:20:11: error[markup]: 'card.informer.name': <b> is never closed",
)
_check(
    "markup-mismatch",
    W,
    "a translation's inline markup differs from the source's",
    "use the same <b> and <i> as the source",
    "data/comrade/text/fr.yaml:88:8: warning[markup-mismatch]: 'rules.interrogation.p1': the source uses <b> ×2, the translation <b> ×1",
)
_check(
    "line-breaks",
    W,
    "a translation has a different number of line breaks than the source",
    "break the lines as the source does",
    "data/comrade/text/fr.yaml:12:14: warning[line-breaks]: 'rules.credits.design': the source has 1 line break(s), the translation 0",
)
_check(
    "placeholder",
    E,
    "a placeholder a template does not provide, or one that differs from the source",
    "use the placeholders of the source text",
    "data/comrade/text/fr.yaml:5:12: error[placeholder]: 'game.players' uses {maximum}, {min} but the source uses {max}, {min}",
)
_check(
    "icon-mismatch",
    E,
    "a translation's inline icons differ from the source's (one missing, one more, another name)",
    'use the source\'s icons, each as many times (<icon name="…"/>); their order may change',
    "data/kremlin/text/fr.yaml:40:14: error[icon-mismatch]: 'rules.cure.p1': the source uses the icon 'cross' ×2, the translation ×1",
)
_check(
    "ambiguous-icon",
    W,
    "an icon's name is both a motif and an image of images/: the icon draws the motif",
    "rename the image or the motif, so that the name says which is meant",
    "data/kremlin/text/en.yaml:12:10: warning[ambiguous-icon]: 'card.x.text': 'cross' is both a motif and data/kremlin/images/cross.png: the icon draws the motif",
)
# Translation checks (printshop/checks/translation_checks.py), at the translation's own line; a
# translator accepts one on purpose with a comment on that line: "# accept number-mismatch: why"
_check(
    "empty-translation",
    E,
    "a translation is empty, so the card prints nothing there",
    "write the translation (or remove the line and run printshop i18n sync)",
    "data/comrade/text/de.yaml:14:16: error[empty-translation]: 'card.reminder' is empty: the English text \"Keep your card hidden.\" would print as nothing",
)
_check(
    "number-mismatch",
    E,
    "a translation's numbers differ from those of the text it is made from",
    "write the same numbers in digits as the source; a rules number must not change",
    "data/comrade/text/de.yaml:88:8: error[number-mismatch]: 'rules.setup.p2' lacks 3 and adds 4 compared with the English \"Deal 3 cards to each player…\"",
)
_check(
    "whitespace",
    W,
    "a translation starts or ends with a space, or has spaces in a row, unlike its source",
    "remove the extra spaces",
    "data/comrade/text/de.yaml:21:11: warning[whitespace]: 'card.informer.goal' ends with a space and has 2 spaces in a row at \"Finde den  Dissidenten\"",
)
_check(
    "repeated-word",
    W,
    "the same word twice in a row",
    "remove the repeated word (a language's legitimate doubles, like French 'nous nous', are listed in checks.doubled_words of its language file)",
    "data/comrade/text/de.yaml:21:11: warning[repeated-word]: 'card.informer.goal' repeats a word: \"die die\"",
)
_check(
    "end-punctuation",
    W,
    'a translation ends with other punctuation than its source (a lost or added full stop, question mark…); a text ending with an abbreviation the language lists ("etc.", "EE. UU.") or an initial ends with a full stop or none',
    "end the sentence as the source does; French spacing before ? ! : ; is fine; list an abbreviation in typography.abbreviations of the language file",
    "data/comrade/text/de.yaml:21:11: warning[end-punctuation]: 'card.informer.goal' ends without punctuation where the English ends with '.': \"…find the dissident.\"",
)
_check(
    "unbalanced",
    W,
    "brackets or the language's quotation marks do not pair up",
    "close what you open: ( ), [ ], { } and the quotes of the language (« », „ “, “ ”)",
    "data/comrade/text/de.yaml:40:9: warning[unbalanced]: 'rules.vote.p1': '„' is never closed (with '“')",
)
_check(
    "length-ratio",
    W,
    "a translation much longer or shorter than the text it is made from; the limits widen for a short source (by √(length_full / length))",
    "check nothing is missing or added; the limits are checks.length, length_from and length_full in the language file",
    "data/comrade/text/de.yaml:52:9: warning[length-ratio]: 'rules.goal.p1' is 0.27 times as long as the English (41 characters against 152; expected 0.40 to 2.50 for a text this long): is something left out?",
)
_check(
    "opening-mark",
    W,
    "a question or exclamation without the opening mark its language requires in the same sentence (Spanish ¿ ¡: typography.opening_marks), or an opening mark its sentence never closes",
    'write the opening mark where the question or exclamation begins ("Si ganas, ¿quién pierde?"), or close the one that is open before the sentence ends',
    "data/kremlin/text/es.yaml:40:9: warning[opening-mark]: 'rules.vote.p1': '?' ends a sentence that no '¿' opens: \"Quién vota primero?\"",
)
_check(
    "straight-quote",
    W,
    "a straight quote \" or apostrophe ' where the language prints typographic ones (typography.quotes, typography.apostrophe) and no typography.replace rule turns it into one at print",
    'type the language\'s quotes (« », „ “, “ ”) and apostrophe (’); or, for the apostrophe, add replace: {"\'": "’"} to the language\'s typography',
    'data/comrade/text/it.yaml:22:11: warning[straight-quote]: \'card.informer.goal\' has a straight double quote " at "rti al voto "Libertà" " where the language prints «…» or “…”',
)
_check(
    "sentence-count",
    W,
    "a translation with fewer sentences than the text it is made from, once those joined with a semicolon or colon are counted: a sentence left out (abbreviations and initials end no sentence)",
    "translate the sentence that is missing; if two were joined on purpose, accept it on the line: # accept sentence-count: why",
    'data/comrade/text/it.yaml:30:11: warning[sentence-count]: \'card.chairman.duty\' has 2 sentences where the English has 3: is one left out? The English ends "…the end of the round, pass this card left.", this text "…Mescola e rivela i voti."',
)
_check(
    "swapped-texts",
    W,
    "two translations that render each other's source: numbers, placeholders and markup (or, for texts of one kind, their names and cognates) match the other id's source",
    "move each text under the id of the source it translates",
    "data/comrade/text/it.yaml:19:11: warning[swapped-texts]: 'card.informer.name' reads like the translation of 'card.chairman.name' (English: \"Chairman\"), and 'card.chairman.name' like that of 'card.informer.name': were the two texts swapped?",
)
_check(
    "template",
    E,
    "a template cannot be rendered",
    "fix the template at the place shown",
    "templates/comrade/faces/role.j2:3:1: error[template]: there is no text 'card.comrade.gaol' in language 'en' (card 'comrade', face 'comrade', language en)",
)
# Print
_check(
    "text-overflow",
    E,
    "text does not fit its frame at the layout's minimum size",
    "shorten the text (a translator); or enlarge the frame or lower its min_size in the layout (a designer)",
    "data/comrade/text/fr.yaml:31:11: error[text-overflow]: 'card.informer.goal' (fr) is about 40 characters too long for frame 'body' of card 'informer' at the minimum size 7 pt (overflows by 18.5 pt, about 2 lines)\n  frame: data/comrade/faces.yaml:26:14 (for the designer: enlarge the frame or lower its min_size)",
)
_check(
    "missing-glyph",
    E,
    "a character that the font cannot print",
    "replace the character, or choose a font that has it",
    "data/comrade/text/fr.yaml:11:10: error[missing-glyph]: 'back.motto', back 'back', frame 'motto', language fr: the font 'serif-italic' has no '☭' (U+262D)",
)
_check(
    "image-resolution",
    E,
    "an image that prints below a home print's resolution at its placed size (print_and_play.min_dpi, 150 dpi); a print shop's higher one is press-art",
    "supply a larger image, or place it smaller",
    "data/comrade/faces.yaml:40:14: error[image-resolution]: image 'images/seal.png' (100 × 100 px) prints at 100 × 100 dpi (a home print needs 150: print_and_play.min_dpi)",
)
_check(
    "paper-too-small",
    E,
    "a card, a sheet or a fold does not fit on a paper print-and-play kits are printed on, with room for the margins, crop marks and footer",
    "choose a smaller card size in game.yaml; or add a larger paper to `papers` and `print_and_play.papers` in data/print/media.yaml (or build it alone with --paper)",
    "data/lantern/game.yaml:11:16: error[paper-too-small]: deck 'cards' on a4: a jumbo card (200 × 290 mm) does not fit on A4 (210 × 297 mm) with room for the crop marks and the footer: the largest card it holds is 190 × 272.8 mm",
)
_check(
    "press-bleed",
    E,
    "card faces drawn with less bleed than a print shop needs",
    "raise the deck's bleed in game.yaml",
    "data/comrade/game.yaml:12:12: error[press-bleed]: deck 'cards' is drawn with 2.00 mm of bleed; EU print shops, 3 mm bleed needs 3.00 mm",
)
_check(
    "press-trim",
    E,
    "a deck's card size is too far from the print shop's trim to be scaled to it",
    "give the profile a product of this card size in data/print/profiles/, or leave the size out of its products",
    "data/kremlin/game.yaml:163:16: error[press-trim]: deck 'markers' (chit-16) would be scaled by 3.969 to DriveThruCards's trim 'poker-us'; give the profile a product of this size",
)
_check(
    "outside-safe-zone",
    W,
    "a text frame or icon reaches beyond the safe zone of the card or of a print shop",
    "move the frame or icon inside the safe zone (for a shop's, the narrowest zone named)",
    "data/comrade/faces.yaml:26:14: warning[outside-safe-zone]: frame 'title' of face 'informer' comes 1.5 mm closer to the trim than the deck's safe zone of 4.0 mm; 0.7 mm closer to the trim than The Game Crafter's safe zone of 3.2 mm",
)
_check(
    "shape-outside-safe-zone",
    W,
    "a border, rule, band or ring (a shape on layer 0 or above, its outline included) reaches beyond the safe zone of the card or of a print shop, or a background (a rectangle below layer 0) ends between the edge of the bleed and the safe zone, so a cut that drifts leaves it uneven or cuts into it",
    "move the shape inside the safe zone, or put a background meant to run into the bleed on a layer below 0",
    "data/kremlin/faces.yaml:6:14: warning[shape-outside-safe-zone]: shape 'border' of face 'politician' comes 1.2 mm closer to the trim than the deck's safe zone of 4.0 mm",
)
_check(
    "low-contrast",
    W,
    "text on a booklet page's background stands out from it less than WCAG 2 asks of large type (a contrast ratio of 3)",
    "name a lighter text colour on a dark background, a darker one on a light background, or leave the style out of `colours`: printshop then takes ink or white, whichever reads better",
    "data/comrade/print/booklet.yaml:9:22: warning[low-contrast]: the cover's title in 'red-deep' on 'red' has a contrast ratio of 1.6; type there needs at least 3",
)
_check(
    "type-too-small",
    W,
    "a frame may print smaller than its medium allows (media.yaml's design.media: cards, counters, sheets, boards read from across the table)",
    "raise the frame's min_size (or size), enlarging the frame if the text then no longer fits",
    "data/kremlin/faces.yaml:120:14: warning[type-too-small]: frame 'place_1' of face 'board' may print at 5.5 pt; type on a board must be at least 14 pt (from across the table (60 cm and more))",
)
_check(
    "text-inset",
    W,
    "a frame's text comes closer than media.yaml's design.inset (1.5 mm) to the edge of the band or box it sits in (a filled or outlined rect or circle of its face), as it prints",
    "move the frame in or narrow it, or give the band or box more room",
    "data/kremlin/faces.yaml:19:15: warning[text-inset]: the text of frame 'letter' sits in shape 'band' and comes 0.7 mm from its left (language en; card 'a', card 'b', card 'c' …); the design keeps 1.5 mm",
)
_check(
    "deck-size-varies",
    W,
    "the text of one frame is fitted at different sizes on different cards of a deck, so the deck reads unevenly",
    "set size_across: deck on the frame (every card at the smallest size found), or size_across: card if the difference is wanted",
    "data/kremlin/faces.yaml:38:14: warning[deck-size-varies]: frame 'effect' of deck 'intrigue' (language fr) is set at sizes from 6.75 to 8.5 pt; cards at 6.75 pt: i12, i20",
)
_check(
    "runt-line",
    W,
    "a card or sheet paragraph ends with one word alone on its last line, which fitting could not avoid by tying the last two words or narrowing the measure without taking another line",
    "reword the end of the text (a translator), or give the frame a little more width (a designer)",
    "data/kremlin/text/fr.yaml:212:13: warning[runt-line]: 'intrigue.n28.effect' (fr): frame 'effect' of card 'i28' ends with \"6.\" alone on its last line at 8.5 pt\n  frame: data/kremlin/faces.yaml:38:14 (for the designer: a little more width gives the last line two words)",
)
_check(
    "cut-left-out",
    W,
    "a deck whose cards, with their bleed, do not fit in the area a print-and-cut machine cuts: its cut files leave the deck out",
    "choose a smaller card size, or mend the cutter's area, marks or gap in print/targets/cut/",
    "data/kremlin/game.yaml:40:16: warning[cut-left-out]: deck 'board-cards', silhouette: a big (200 × 290 mm) card with its bleed does not fit in the area Silhouette Cameo can cut on A4: its cut files leave the deck out",
)
_check(
    "gutterfold-left-out",
    W,
    "a deck too large to fold on a paper (a front above the fold, its back below): `build --gutterfold` writes the rest of the kit and no gutterfold file for it",
    "print its card sheets double-sided, or choose a smaller card size; a larger paper in print_and_play.papers folds it",
    "data/kremlin/game.yaml:40:16: warning[gutterfold-left-out]: deck 'aids' on A4: A5 (148 × 210 mm): a front and its back do not fit above and below a fold on this paper: the kit has no gutterfold file for it (print its card sheets double-sided)",
)
_check(
    "press-left-out",
    W,
    "a deck, sheet or booklet that a print shop's files will not hold",
    "give the profile a product of this card size, or say why it leaves it out in the profile's leaves_out",
    "data/kremlin/game.yaml:163:16: warning[press-left-out]: deck 'markers' of kremlin is left out of DriveThruCards's files ('drivethrucards'): DriveThruCards makes no chit-16 cards (it makes poker-eu, poker-us, bridge, tarot)",
)
_check(
    "press-art",
    W,
    "raster art that will not convert cleanly for a print shop: too few pixels at its placed size, colours its CMYK cannot print, transparency over more than one plain colour",
    "supply larger art, bring its colours within print's gamut, or place it over a plain colour",
    "data/comrade/faces.yaml:40:14: warning[press-art]: image 'images/seal.png' of face 'back' (300 × 300 px) prints at 298 dpi in DriveThruCards's files (faces scaled by 1.008 to its trim); the shop needs 300",
)
_check(
    "press-gamut",
    W,
    "a palette colour a print shop's CMYK cannot print: it differs from itself by more than ΔE2000 5 once converted through the shop's ICC profile and ink limit (docs/colour.md)",
    "choose a less saturated colour (`printshop preflight --soft-proof` shows how a press file prints), or accept the change",
    "data/print/colours.yaml:17:10: warning[press-gamut]: colour 'green' (#00ff00) is outside the press gamut: it prints ΔE2000 from itself 15.6 at DriveThruCards (swop-tr003-300.icc, 240 % ink); 18.0 at MeinSpiel (fogra39l-300.icc, 300 % ink)",
)
# Preflight: the shop-dependent rules read in a finished file (profile `rules`, docs/shops.md); each
# is a warning or an error as the profile says
_check(
    "preflight-spot-colour",
    E,
    "a spot colour (a Separation or DeviceN ink other than the process plates, All and None) in a file for a shop that converts or refuses spot colours",
    "set the colour in CMYK, or name it in the profile's rules.spot_colours.names if the shop asks for it (a die line)",
    "press/drivethrucards/comrade-en-cards.pdf: page 2: error[preflight-spot-colour]: spot colour 'PANTONE 185 C' (Separation space /CS9 (PANTONE 185 C; alternate DeviceCMYK)): DriveThruCards takes CMYK only; set it in CMYK",
)
_check(
    "preflight-thin-line",
    W,
    "a line thinner than the shop prints (its width times the scale in effect; width 0 is a hairline)",
    "draw the line at least as wide as the profile's rules.line_width.least, or as a filled shape",
    "press/meinspiel/comrade-en-cards-fronts.pdf: page 1: warning[preflight-thin-line]: a line 0.05 pt wide, the thinnest of 1 line(s) under 0.5 pt: MeinSpiel prints lines of 0.5 pt or more",
)
_check(
    "preflight-small-text-inks",
    W,
    "text smaller than the profile's rules.small_text.below painted in more than one ink (a rich black, a mixed colour, RGB), whose plates may not register",
    "set small text in one ink (black text K only), or larger",
    "press/printninja/comrade-en-cards.pdf: page 2: warning[preflight-small-text-inks]: text of 4 pt in more than one ink (DeviceCMYK 0.6 0.4 0.4 1), the smallest of 1: PrintNinja wants text under 6 pt in one ink (K only for black), or its plates may not register",
)
_check(
    "preflight-blank-face",
    W,
    "a card face whose rendered area inside the trim is one flat colour (a face printed without its art)",
    "check that the face's art was placed; a card meant to be blank can be ordered so",
    "press/drivethrucards/comrade-en-cards.pdf: page 3: warning[preflight-blank-face]: a blank face: everything inside the trim is one flat colour (its art missing?)",
)
_check(
    "preflight-bleed-art",
    E,
    "art that stops at the trim: rendered, it is inked just inside the trim and blank paper in the bleed beside it",
    "extend the art (or the card's edge colour) to the bleed box on every side",
    "press/eu-3mm/comrade-en-poker-eu.pdf: page 1: error[preflight-bleed-art]: the art stops at the trim on the left, bottom, right, top side(s): inked inside the trim, blank paper in the bleed beside it (EU print shops, 3 mm bleed cuts within the bleed, so a white edge may show); extend the art to the bleed",
)
# Safety: what a hostile or broken project, or an unlucky environment, must not get past
_check(
    "unsafe-path",
    E,
    "a name or path in the data that could read or write outside the project: an id used in file names that is not a plain id, an absolute or '..' path, a symlink leaving its folder",
    "use a plain id (lower-case letters, digits, '-' and '_') and keep art, fonts and templates inside data/ and templates/ as real files",
    "data/comrade/faces.yaml:40:14: error[unsafe-path]: image '../../secret.png' of face 'back' resolves to /home/me/secret.png, outside data/",
)
_check(
    "too-large",
    E,
    "a data file, nesting, text or image beyond printshop's limits (refused before it is parsed or decoded)",
    "split or shorten what the message names; an image must have fewer pixels",
    "data/comrade/images/seal.png: error[too-large]: image 'images/seal.png' has 20000 × 20000 pixels (400 million); printshop reads at most 60 million",
)
_check(
    "bidi-control",
    E,
    "a text holds an invisible bidirectional control (U+202A–U+202E, U+2066–U+2069) that reorders what is printed or shown",
    "delete the control character; a right-to-left language needs none in printshop's data",
    "data/comrade/text/en.yaml:4:10: error[bidi-control]: 'card.informer.name' holds U+202E (right-to-left override) at character 3",
)
_check(
    "po-syntax",
    E,
    "a PO file that is not one `i18n export` wrote: unreadable, without entries, or entries without their text id",
    "export the language again with printshop i18n export and translate in that file",
    "comrade-fr.po:12:1: error[po-syntax]: the entry 'Informer' has no msgctxt (its text id): it cannot be placed",
)
_check(
    "xliff-syntax",
    E,
    "an XLIFF file that cannot be imported: unreadable, without units, units without ids, or for another language",
    "export the language again with printshop i18n export --format xliff and translate in that file",
    "comrade-fr.xlf:12:1: error[xliff-syntax]: a unit without its id (the text id): it cannot be placed",
)
_check(
    "po-charset",
    E,
    "a PO file whose bytes do not match the charset its header names",
    "save the file as UTF-8 and say charset=UTF-8 in its header",
    "kremlin-de.po:7:1: error[po-charset]: the file says charset=ISO-8859-1, but its bytes are UTF-8: read as ISO-8859-1, every accented letter would be imported garbled ('é' as 'Ã©')",
)
_check(
    "po-unknown-text",
    E,
    "a PO entry whose text id (msgctxt) is no text of the game but close to one: a misspelt id",
    "correct the msgctxt to the id the hint names, or export the file again",
    "comrade-fr.po:19:1: error[po-unknown-text]: 'game.tagLine' is not a text of comrade: its translation cannot be placed",
)
_check(
    "cannot-write",
    E,
    "the output folder, the cache or a file in it cannot be written (read-only, full, a file where a folder should be)",
    "free the space or fix the permissions of the folder named, then build again",
    "output/comrade/fr: error[cannot-write]: cannot replace comrade-fr-cards-a4.pdf: it is a folder; nothing was written",
)
_check(
    "worker-died",
    E,
    "a process rendering jobs died (killed, or crashed) before it finished",
    "build again; if it dies again on the same job, build that game with --jobs 1 and report the crash",
    "output: error[worker-died]: comrade fr a4 was not rendered: its process died (signal 9)",
)
_check(
    "foreign-output",
    E,
    "the build would replace a file in the output folder that printshop did not write for this "
    "project, or that was changed since (a file of your own, another project's kit)",
    "move the file away, build into another --out, or build with --force to replace it",
    "output/comrade/en/comrade-en-cards-a4.pdf: error[foreign-output]: comrade-en-cards-a4.pdf was "
    "written by the project in /home/ana/other/data, not this one; nothing was written",
)
_check(
    "removed-output",
    W,
    "files an earlier build wrote that this build no longer makes (a language or game file was deleted) were removed",
    "nothing to do if the language or game was meant to go; otherwise restore its file",
    "data/comrade/text/fr.yaml: warning[removed-output]: comrade fr is no longer built (its file is gone): removed 6 files the last build wrote",
)
# Provenance
_check(
    "two-to-a-page",
    I,
    "a sheet printed one to a page on several pages where two fit on every kit paper at full size",
    "add `per_page: 2` to the sheet in game.yaml",
    "data/lantern/game.yaml:39:12: info[two-to-a-page]: sheet 'aid' (148 × 105 mm) prints one to a page, 2 pages; two fit on A4 and US Letter at full size, with a cut line between",
)
_check(
    "reconstructed",
    I,
    "content that the sources lack and the project designed",
    "review it against the publisher's wishes",
    "data/comrade/game.yaml:52:7: info[reconstructed]: rules.committee.p1: the seed does not say whether character cards are shown",
)
_check(
    "internal",
    E,
    "an unexpected failure: a bug in printshop, not in the data",
    "this is a bug in printshop: please report it, with the file and the message shown here",
    "data/comrade: error[internal]: reading this game failed unexpectedly: …",
)
del E, W, I
