"""Write a synthetic game, `bench`, of N poker cards in printshop's own data format.

    python benchmarks/make_deck.py 1000 /tmp/bench-data
    printshop validate --data /tmp/bench-data --templates /tmp/bench-data-templates bench
    printshop build bench --data /tmp/bench-data --templates /tmp/bench-data-templates --out /tmp/bench-out --lang en --paper a4

The data folder gets copies of the repository's `data/print/` (and `data/languages/` if it has one),
and `bench/` with game.yaml, faces.yaml and text/en.yaml (source), text/fr.yaml and the record
text/fr.sources.yaml that `printshop i18n sync` would keep. Every card has a title, a body of two
sentences combined from the lists below (so bodies vary from card to card), a one-line reminder
shared by all cards, and the deck's common back.

Templates: the deck's two face templates are written beside the data folder, in
`<data_dir>-templates/bench/` (see `templates_dir()`); build and validate with `--templates`.

French texts are written as the project's own are: an ordinary space before ; : ! ? and the
curly apostrophe; the French typography of data/languages/fr.yaml turns that space into a
narrow no-break space (U+202F) when printing. `card_texts()` returns the texts as printed, for
the Typst comparison.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
GAME = "bench"
LANGS = ("en", "fr")

# Trades for the titles: (English, French).
TRADES = [
    ("Archivist", "Archiviste"),
    ("Courier", "Coursier"),
    ("Typesetter", "Typographe"),
    ("Night porter", "Veilleur de nuit"),
    ("Engraver", "Graveur"),
    ("Clerk", "Greffier"),
    ("Bookbinder", "Relieur"),
    ("Cartographer", "Cartographe"),
    ("Proofreader", "Correcteur"),
    ("Ferryman", "Passeur"),
    ("Locksmith", "Serrurier"),
    ("Beekeeper", "Apiculteur"),
    ("Signalman", "Aiguilleur"),
    ("Glassblower", "Souffleur de verre"),
    ("Miller", "Meunier"),
    ("Lamplighter", "Allumeur"),
]

# First sentence of a body: what the card does.
ACTIONS = [
    (
        "Draw two cards: keep one and pass the other to your left.",
        "Piochez deux cartes : gardez-en une et passez l’autre à votre gauche.",
    ),
    (
        "Look at the top card of the pile, then put it back face down.",
        "Regardez la première carte de la pioche, puis reposez-la face cachée.",
    ),
    (
        "Swap this card for a card from the player on your right.",
        "Échangez cette carte contre une carte du joueur à votre droite.",
    ),
    (
        "Name a colour; every player holding it shows you one card.",
        "Nommez une couleur ; chaque joueur qui la possède vous montre une carte.",
    ),
    (
        "Ask one question aloud: the player you choose must answer truthfully.",
        "Posez une question à voix haute : le joueur choisi doit répondre sans mentir.",
    ),
    (
        "Show your hand to one player of your choice!",
        "Montrez votre main au joueur de votre choix !",
    ),
    (
        "Move the marker one step forward; if it reaches the end, the round stops.",
        "Avancez le marqueur d’une case ; s’il atteint la fin, la manche s’arrête.",
    ),
    (
        "Take back a card you discarded this round.",
        "Reprenez une carte que vous avez défaussée pendant cette manche.",
    ),
    (
        "Who holds the most cards? That player skips their next turn.",
        "Qui a le plus de cartes ? Ce joueur passe son prochain tour.",
    ),
    ("Shuffle the discard pile into the draw pile.", "Mélangez la défausse dans la pioche."),
    (
        "Give one token to any player: they must thank you!",
        "Donnez un jeton à un joueur : il doit vous remercier !",
    ),
    (
        "Choose two players; they trade one card each, unseen.",
        "Choisissez deux joueurs ; ils échangent une carte chacun, sans la regarder.",
    ),
    (
        "Slide this card under the pile and draw again.",
        "Glissez cette carte sous la pioche et piochez de nouveau.",
    ),
]

# Second sentence: when or how.
OUTCOMES = [
    ("Play it only at dawn.", "Ne la jouez qu’à l’aube."),
    ("If nobody objects, score one point.", "Si personne ne s’y oppose, marquez un point."),
    ("Then discard this card.", "Puis défaussez cette carte."),
    (
        "You may play it during another player’s turn.",
        "Vous pouvez la jouer pendant le tour d’un autre joueur.",
    ),
    ("Nothing can cancel it.", "Rien ne peut l’annuler."),
    (
        "Keep it face up in front of you until the end of the game.",
        "Gardez-la face visible devant vous jusqu’à la fin de la partie.",
    ),
    (
        "The effect doubles if you play it with another card of the same trade.",
        "L’effet double si vous la jouez avec une autre carte du même métier.",
    ),
    (
        "Silence: nobody speaks until your next turn.",
        "Silence : personne ne parle jusqu’à votre prochain tour.",
    ),
    ("Too late? Then it does nothing.", "Trop tard ? Alors elle n’a aucun effet."),
    ("Only once per round.", "Une seule fois par manche."),
    ("Everyone else draws one card.", "Tous les autres piochent une carte."),
]

COMMON = {
    "game.title": ("Bench", "Banc d’essai"),
    "back.motto": ("A deck for timing the press", "Un paquet pour chronométrer la presse"),
    "card.common.never_reveal": (
        "Keep this card hidden until you play it.",
        "Gardez cette carte cachée jusqu’à ce que vous la jouiez.",
    ),
}

FACES_YAML = """\
# Faces of the synthetic benchmark deck, 63 × 88 mm; coordinates from the top-left of the trim.
faces:
  front:
    template: bench/front.j2
    background: paper
    shapes:
      border: {kind: rect, x: 3mm, y: 3mm, width: 57mm, height: 82mm, stroke: red, stroke_width: 0.5mm}
      band: {kind: rect, x: 3mm, y: 3mm, width: 57mm, height: 15mm, fill: red}
    frames:
      title: {x: 5mm, y: 4.5mm, width: 53mm, height: 12mm, font: sans-bold, size: 14pt, min_size: 9pt,
              colour: white, align: center, valign: middle}
      body: {x: 7mm, y: 24mm, width: 49mm, height: 50mm, font: serif, size: 10pt, min_size: 7pt,
             leading: 1.3, align: center, valign: middle}
      reminder: {x: 6mm, y: 77mm, width: 51mm, height: 5mm, font: sans-italic, size: 6.5pt, min_size: 5.5pt,
                 colour: ink-soft, align: center, valign: middle}
  back:
    template: bench/back.j2
    background: red
    shapes:
      frame: {kind: rect, x: 4mm, y: 4mm, width: 55mm, height: 80mm, stroke: gold, stroke_width: 0.4mm}
    frames:
      title: {x: 6mm, y: 36mm, width: 51mm, height: 10mm, font: sans-bold, size: 17pt, min_size: 11pt,
              colour: gold, align: center, valign: middle}
      motto: {x: 6mm, y: 47mm, width: 51mm, height: 6mm, font: serif-italic, size: 8pt, min_size: 6.5pt,
              colour: paper, align: center, valign: middle}
"""


def kind(number: int) -> str:
    return f"c{number:05d}"


def raw_texts(count: int, lang: str) -> dict[str, str]:
    """Every text id of the game and its text as written in text/<lang>.yaml."""
    side = LANGS.index(lang)
    texts = {text_id: pair[side] for text_id, pair in COMMON.items()}
    for number in range(1, count + 1):
        i = number - 1
        trade = TRADES[i % len(TRADES)][side]
        action = ACTIONS[(i * 7) % len(ACTIONS)][side]
        outcome = OUTCOMES[(i * 5 + i // len(ACTIONS)) % len(OUTCOMES)][side]
        texts[f"card.{kind(number)}.name"] = f"{trade} {number}"
        texts[f"card.{kind(number)}.goal"] = f"{action} {outcome}"
    return texts


def language(lang: str):
    """The language file a build of the bench deck reads (the repository's
    data/languages/<lang>.yaml, or printshop's defaults/languages/), read with printshop's own
    model."""
    from printshop.diagnostics import Report
    from printshop.project.models.language import Language
    from printshop.project.schema import validate_document
    from printshop.project.source import read_yaml

    if lang not in _LANGUAGES:
        report = Report()
        path = _language_file(lang)
        document = read_yaml(path, report)
        found = validate_document(Language, document, report) if document is not None else None
        if found is None:
            raise ValueError(f"cannot read {path}")
        _LANGUAGES[lang] = found
    return _LANGUAGES[lang]


_LANGUAGES: dict = {}


def _language_file(lang: str) -> Path:
    """The project's data/languages/<lang>.yaml if it has one, else printshop's own
    (defaults/languages)."""
    own = REPOSITORY / "data" / "languages" / f"{lang}.yaml"
    return (
        own
        if own.is_file()
        else REPOSITORY / "printshop" / "defaults" / "languages" / f"{lang}.yaml"
    )


def printed(text: str, lang: str) -> str:
    """A text as printshop prints it, with the language's typography (French: U+202F before ; : !
    ?)."""
    from printshop.language.texts import apply_typography

    return apply_typography(text, language(lang).typography)


def card_texts(count: int, lang: str) -> dict:
    """What the cards print, for other tools: titles and bodies per card, reminder, back title and
    motto."""
    texts = {key: printed(value, lang) for key, value in raw_texts(count, lang).items()}
    return {
        "cards": [
            (texts[f"card.{kind(n)}.name"], texts[f"card.{kind(n)}.goal"])
            for n in range(1, count + 1)
        ],
        "reminder": texts["card.common.never_reveal"],
        "back_title": texts["game.title"],
        "back_motto": texts["back.motto"],
    }


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _catalogue(texts: dict[str, str], header: str) -> str:
    """Nested YAML, as the project writes its text files (ids are dotted paths)."""
    lines = [header]
    opened: list[str] = []
    for text_id, text in texts.items():
        *path, leaf = text_id.split(".")
        common = 0
        while common < min(len(path), len(opened)) and path[common] == opened[common]:
            common += 1
        opened = opened[:common]
        for depth in range(common, len(path)):
            lines.append("  " * depth + f"{path[depth]}:")
            opened.append(path[depth])
        lines.append("  " * len(path) + f"{leaf}: {_quote(text)}")
    return "\n".join(lines) + "\n"


def _game_yaml(count: int) -> str:
    lines = [
        f"# A synthetic deck of {count} cards for timing printshop (benchmarks/make_deck.py).",
        "title: game.title",
        "source_language: en",
        "players: {min: 2, max: 6}",
        "minutes: 20",
        "",
        "decks:",
        "  cards:",
        "    card_size: poker-eu",
        "    bleed: 0.125in",
        "    safe: 4mm",
        "    back: back",
        "    cards:",
    ]
    lines += [
        f"      - {{id: {kind(n)}, kind: {kind(n)}, front: front, vars: {{number: {n}}}}}"
        for n in range(1, count + 1)
    ]
    lines += [
        "",
        "composition:",
        "  - deck: cards",
        f"    total: {count}",
        "    unique: [number]",
        "    sequence: [{var: number, start: 1}]",
        # every card is a kind of its own: the reused template finds its texts by kind
        "    kinds:",
    ]
    lines += [f"      {kind(n)}: 1" for n in range(1, count + 1)]
    return "\n".join(lines) + "\n"


def _records(source: dict[str, str], translation: dict[str, str]) -> str:
    from printshop.language.translation import fingerprint

    lines = [
        "# Written by 'printshop i18n sync': the source text each translation was made from.",
        "# Do not edit; it is how printshop knows a translation went stale.",
    ]
    for text_id, text in translation.items():
        lines += [
            f"{text_id}:",
            f"  source: {_quote(source[text_id])}",
            f'  translated: "{fingerprint(text)}"',
        ]
    return "\n".join(lines) + "\n"


FRONT_J2 = """\
{# A bench card: each card is a kind of its own, whose texts are card.<kind>.name and .goal #}
{% block title %}{{ t.card[card.kind].name }}{% endblock %}
{% block body %}{{ t.card[card.kind].goal }}{% endblock %}
{% block reminder %}{{ t.card.common.never_reveal }}{% endblock %}
"""

BACK_J2 = """\
{% block title %}{{ t.game.title }}{% endblock %}
{% block motto %}{{ t.back.motto }}{% endblock %}
"""


def templates_dir(data_dir: Path) -> Path:
    """Where make_deck writes the deck's templates: beside the data folder."""
    data_dir = Path(data_dir)
    return data_dir.with_name(data_dir.name + "-templates")


def make_deck(count: int, data_dir: Path) -> Path:
    """Write the data folder for a `bench` deck of `count` cards; replaces an earlier bench game
    there."""
    if count < 1:
        raise ValueError("the deck needs at least one card")
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    for shared in (
        "print",
        "languages",
    ):  # the project's shared data (printshop's defaults lie beneath it)
        if (REPOSITORY / "data" / shared).is_dir():
            shutil.copytree(REPOSITORY / "data" / shared, data_dir / shared, dirs_exist_ok=True)
    game_dir = data_dir / GAME
    shutil.rmtree(game_dir, ignore_errors=True)
    (game_dir / "text").mkdir(parents=True)
    (game_dir / "game.yaml").write_text(_game_yaml(count), encoding="utf-8")
    (game_dir / "faces.yaml").write_text(FACES_YAML, encoding="utf-8")
    english, french = raw_texts(count, "en"), raw_texts(count, "fr")
    (game_dir / "text" / "en.yaml").write_text(
        _catalogue(english, "# Bench – synthetic texts, English (source language)"),
        encoding="utf-8",
    )
    (game_dir / "text" / "fr.yaml").write_text(
        _catalogue(french, "# Banc d’essai – textes synthétiques, traduction française"),
        encoding="utf-8",
    )
    (game_dir / "text" / "fr.sources.yaml").write_text(_records(english, french), encoding="utf-8")
    templates = templates_dir(data_dir) / GAME
    templates.mkdir(parents=True, exist_ok=True)
    (templates / "front.j2").write_text(FRONT_J2, encoding="utf-8")
    (templates / "back.j2").write_text(BACK_J2, encoding="utf-8")
    return data_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write a synthetic printshop game 'bench' of N poker cards."
    )
    parser.add_argument("cards", type=int, help="how many cards, e.g. 100, 1000 or 10000")
    parser.add_argument("data_dir", type=Path, help="the data folder to write (created if missing)")
    args = parser.parse_args(argv)
    try:
        make_deck(args.cards, args.data_dir)
    except ValueError as error:
        parser.error(str(error))
    print(
        f"{args.data_dir}: game '{GAME}', {args.cards} cards, languages {', '.join(LANGS)}; "
        f"templates in {templates_dir(args.data_dir)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
