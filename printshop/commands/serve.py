"""`printshop serve`: a local page showing every face and booklet page, updated on save
(printshop.live.serve serves a printshop.live.session.Session that lays out but writes nothing)."""

from __future__ import annotations

import argparse
import sys

from printshop.commands.arguments import add_live_arguments, port
from printshop.commands.common import UsageError, known_games, known_variant


def add_parser(commands: argparse._SubParsersAction) -> None:
    live = commands.add_parser(
        "serve",
        help="a local page that shows every face and updates itself on save",
        description=(
            "Serve a page (http://127.0.0.1:8000/ by default) showing every card face and sheet of "
            "the games as images, then each rules booklet page by page, one column per language, with "
            "the validator's diagnostics beside the faces and pages they concern (click one to see "
            "it). Saving a data file or template "
            "updates the open page; errors show on the page and the server keeps running. A "
            "translation that lacks texts is shown as it stands, marked as a draft, the texts it "
            "lacks in the language it is made from: translate next to its cards."
        ),
    )
    add_live_arguments(live, "lays it out")
    live.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this computer only)",
    )
    live.add_argument(
        "--port", type=port, default=8000, help="the port (default: 8000; 0: any free one)"
    )


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from printshop.live.serve import AddressUnavailable, Server
    from printshop.live.session import Session
    from printshop.pipeline.request import BuildRequest

    games = known_games(args.data, args.games)
    if args.variant:
        known_variant(args.data, games, args.variant, live=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"warning: listening on {args.host}: anyone who can reach this address sees the game's data",
            file=sys.stderr,
        )
    # a preview, not a kit: an unfinished translation is shown (marked), so that its translator sees
    # each text on its card as it is written
    request = BuildRequest.from_arguments(args, games)
    session = Session(replace(request, out_dir=None, draft=True), render=False)
    try:
        server = Server(session, args.host, args.port).start()
    except AddressUnavailable as error:
        raise UsageError(str(error)) from None
    print(f"printshop serve: {server.url} (Ctrl-C stops)", file=sys.stderr, flush=True)
    try:
        while not server.stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
