"""`printshop serve`: a local page showing every face and sheet of the chosen games as images, one
column per language, with the validator's diagnostics beside the faces they concern; it updates
itself when a data file or template is saved.

A `Session` (session.py) keeps the project and layouts in memory; a thread watches the files
(watch.FileWatcher) and refreshes the session, and the page is told through server-sent events
(`/events`), then asks for `/state` again: what it shows is views.py's (`face_views`,
`diagnostic_entries`). A face's image (`/face/<token>.png`) is a page drawn by render/faces.py and
rasterised by pypdfium2 (images.py), in a PDF shared with the faces after it on the page that are
not drawn yet (up to a dozen: `face_pngs`, fonts embedded once); the token names the laid-out face,
which the session keeps while nothing it reads changes, so the browser fetches only the images of
changed faces. Each game's rules booklet follows its faces, page by page, rendered after the faces
are shown (`Preview.render_pages`; booklet_pages.py). A file that cannot be read shows as
diagnostics on the page; the server keeps running, and while the data has errors a face they stop (a
template that no longer compiles, a file that cannot be read) stays on the page greyed, as last
drawn, rather than vanishing (`keep_stale`). A face whose text does not fit is drawn anyway (its
text cut at the frame, the overset mark beside it: render/faces.py), so the page shows how far over
it runs; a click on a face opens `/face/<token>@2x.png`, drawn at twice the resolution. The page
itself (static/serve.html) puts everything from the data on the page as text, never as markup; it
is updated in place, each image given its size before it loads (`face_entry`), so the face looked at
stays where it is across a save; an error greys only the faces it stops (`stopped_by`).

Starlette serves the page and uvicorn runs it, on 127.0.0.1 unless `--host` says otherwise. It
answers its own origin only (`OwnOrigin`): a request whose Host header is not the address it listens
on (with its port) gets 421, and one a page of another origin sent (its Origin header) gets 403
(origin.py), so a web page the user visits cannot read the game's data through a domain rebound to
127.0.0.1. No response carries CORS headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import itertools
import secrets
import socket
import sys
import threading
from importlib import resources
from pathlib import Path
from typing import Any

from printshop.live import images
from printshop.live.origin import OwnOrigin
from printshop.live.session import Session
from printshop.live.views import (
    FaceView,
    diagnostic_entries,
    face_blocks,
    face_entry,
    face_views,
    keep_stale,
    stopped_by,
)
from printshop.live.watch import FileWatcher, watched_folders


def _say(line: str) -> None:
    print(f"printshop serve: {line}", file=sys.stderr, flush=True)


PREVIEW_BATCH = 12  # faces drawn into one PDF for their images: a screenful or two of the page
BATCH_WAIT = (
    30.0  # seconds a request waits for a face another request is drawing, then draws it itself
)


class Preview:
    """The session, the current faces and their images, shared by the watching thread and the
    server."""

    def __init__(self, session: Session):
        self.session = session
        self.lock = threading.Lock()
        self.views: dict[str, FaceView] = {}
        # a face's token, by the face: this server's own mark and a number it never gave before. The
        # image a token names is cached by the browser for good, so a token must never name another
        # face: id(face) did not promise that (a face laid out where a freed one was got its id, and
        # its image), nor would a count alone across a restart of serve with the page left open
        self._tokens: dict[int, tuple[object, str]] = {}
        self._mark = secrets.token_hex(3)
        self._serial = itertools.count(1)
        self.images: dict[str, bytes] = {}
        self._drawing: dict[
            str, threading.Event
        ] = {}  # faces a request is drawing: set once their images are kept
        self._fresh: set[str] = (
            set()
        )  # the tokens the last refresh gave: the faces it changed (at first, all)
        self.state: dict = {}
        self._blocks: dict = {}  # face_blocks of the project last read
        self._drafts: dict[
            tuple[str, str], str
        ] = {}  # (game, lang) -> the draft label of a translation shown unfinished
        # (game, lang) -> the rules booklet shown (Booklet), kept while its content is
        self._booklets: dict = {}
        # (game, lang) of the booklets the last refresh left to `render_pages`
        self._later: list = []
        self._update = None  # the session's last update (what `render_pages` shows its pages with)
        # the files saved since the last layout (None: unknown, every face): while nothing is laid
        # out, the faces they concern are not current
        self._unshown: set[Path] | None = set()
        self.version = 0
        self.listeners: set[asyncio.Queue] = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def refresh(self, changed: set[Path] | None = None, *, pages: bool = True) -> None:
        """Read what changed and show it: the faces first; then (`pages`; else `render_pages` does
        it) the rules booklets to render again, which take about as long as every face of a game: a
        face saved is on the page without waiting for them, the pages they had shown greyed until
        then."""
        with self.lock:
            update = self.session.refresh(changed)
            if self.session.checked is None:  # nothing laid out: what was saved is not shown yet
                self._unshown = (
                    None
                    if changed is None or self._unshown is None
                    else (self._unshown | set(changed))
                )
            else:
                self._unshown = set()
            later: list = []
            views = face_views(self.session, self._booklets, later)
            self._later, self._update = later, update
            self._show(views, update)
        self._announce()
        if pages:
            self.render_pages()

    def render_pages(self, stop: threading.Event | None = None) -> None:
        """Render the booklets the last refresh left for later, and show their pages (on the
        refreshing thread, outside the lock: the page's images are drawn meanwhile). Once `stop` is
        set, the booklet being rendered is the last: the server is stopping (Ctrl-C waited for every
        game's booklets)."""
        if not self._later:
            return
        booklets = dict(self._booklets)
        views = face_views(self.session, booklets, stop=stop)
        if stop is not None and stop.is_set():
            return
        with self.lock:
            self._later, self._booklets = [], booklets
            self._show(views, self._update, more=True)
        self._announce()

    def _show(self, views: list[FaceView], update, more: bool = False) -> None:
        self._give_tokens(views, more)
        if not update.ok:
            stops = None  # a face missing from `views`: an error stops it
            if self.session.checked is None:  # nothing laid out: only what errors or saves concern
                stops = stopped_by(update.report, self._unshown, self.session.data_dir)
            views = keep_stale(list(self.views.values()), views, stops)
        self.views = {view.token: view for view in views}
        self._tokens = {
            id(view.face): (view.face, view.token) for view in views
        }  # (the faces kept alive)
        self.images = {token: data for token, data in self.images.items() if token in self.views}
        self.version += 1
        self.state = self._state(update)

    def _give_tokens(self, views: list[FaceView], more: bool = False) -> None:
        """A token for each view: its face's, if the face was shown before; else a new one, noted as
        fresh (`more`: added to those the refresh before gave, as its booklets' pages come after its
        faces)."""
        if not more:
            self._fresh = set()
        for view in views:
            known = self._tokens.get(id(view.face))
            if known is not None and known[0] is view.face:
                view.token = known[1]
            else:
                view.token = f"{self._mark}-{next(self._serial):x}"
                self._fresh.add(view.token)

    def _state(self, update) -> dict:
        project = self.session.project
        if (
            project is not None
        ):  # the faces' definitions as the data now has them; else as it last had them
            self._blocks = face_blocks(project)
        diagnostics = diagnostic_entries(
            update.report.sorted(), self.views, self._blocks, project, self.session.data_dir.parent
        )
        return {
            "version": self.version,
            "ok": update.ok,
            "seconds": round(update.seconds, 3),
            "readable": self.session.project is not None,
            "empty": self.session.project is not None
            and not self.session.project.games,  # a new project
            "diagnostics": diagnostics,
            "games": self._games(),
        }

    def _games(self) -> list[dict]:
        """Each game's faces, row by row, a column per language, with the draft label of a
        translation shown unfinished."""
        games: dict[str, dict] = {}
        # an unfinished translation shown as a draft: its label, in its own language ("ENTWURF, 12 %
        # übersetzt") (kept from the refresh before while an error stops the layout: its faces are
        # shown greyed, as they were)
        if self.session.checked is not None:
            self._drafts = {
                (layout.game_id, layout.lang): layout.localized.draft
                for layout in self.session.checked.layouts
                if layout.localized.draft
            }
        drafts = self._drafts
        for view in self.views.values():
            game = games.setdefault(
                view.game, {"id": view.game, "langs": [], "rows": {}, "drafts": {}}
            )
            if (view.game, view.lang) in drafts:
                game["drafts"][view.lang] = drafts[(view.game, view.lang)]
            if view.lang not in game["langs"]:
                game["langs"].append(view.lang)
            game["rows"].setdefault(view.key, {})[view.lang] = face_entry(view)
        return [
            {
                "id": g["id"],
                "langs": g["langs"],
                "drafts": g["drafts"],
                "variant": self._variant(g["id"]),
                "rows": [{"key": key, "faces": faces} for key, faces in g["rows"].items()],
            }
            for g in games.values()
        ]

    def _variant(self, game_id: str) -> str:
        """The naming variant the game is shown in (`serve --variant`), if the game has it; else ''."""
        variant, project = self.session.variant, self.session.project
        game = project.games.get(game_id) if project is not None else None
        return variant if variant and game is not None and variant in game.game.variants else ""

    def image(self, token: str, zoom: bool = False) -> bytes | None:
        """The face's image; `zoom`: at ZOOM_DPI, drawn when asked and not kept (one face looked at
        closely).

        An image asked for and not drawn yet is drawn with the faces after it on the page that the
        last refresh changed and are not drawn either (`_batch`), up to PREVIEW_BATCH, into one PDF
        (`face_pngs`); they are kept for when the page asks. A face another request is drawing is
        waited for, not drawn twice."""
        if zoom:
            with self.lock:
                view = self.views.get(token)
            return images.drawn_alone(view, images.ZOOM_DPI) if view is not None else None
        with self.lock:
            data, view = self.images.get(token), self.views.get(token)
            if view is None or data is not None:
                return data
            drawing = self._drawing.get(token)
            batch = None
            if (
                drawing is None
            ):  # no request is drawing it: this one draws it, with the faces after it
                batch = self._batch(token, view)
                drawing = threading.Event()
                for other, _ in batch:
                    self._drawing[other] = drawing
        if (
            batch is None
        ):  # another request is drawing it: its image, or None if it could not be drawn
            finished = drawing.wait(BATCH_WAIT)
            with self.lock:
                data = self.images.get(token)
            return (
                data
                if data is not None or finished
                else self._keep(token, images.drawn_alone(view, images.PREVIEW_DPI))
            )
        try:
            try:
                drawn: list[bytes | None] = list(images.face_pngs([one for _, one in batch]))
            except Exception:  # noqa: BLE001 - a face that cannot be drawn: the others in its batch still are
                drawn = [images.drawn_alone(one, images.PREVIEW_DPI) for _, one in batch]
            for (other, _), image in zip(batch, drawn):
                self._keep(other, image)
        finally:
            with self.lock:
                for other, _ in batch:
                    if self._drawing.get(other) is drawing:
                        del self._drawing[other]
            drawing.set()
        return drawn[0]

    def _batch(self, token: str, view: FaceView) -> list[tuple[str, FaceView]]:
        """(token, view) of the face asked for, then of the faces after it on the page, of the same
        game and language, that the last refresh changed (at the first, every face) and are neither
        drawn nor being drawn: faces the page will ask for. Not the faces an earlier refresh made
        that the page never asked for (out of sight, below the fold): after an edit of one text, the
        image of its card alone is drawn, at once. Called with the lock held."""
        tokens = list(self.views)
        batch = [(token, view)]
        for other in tokens[tokens.index(token) + 1 :]:
            candidate = self.views[other]
            if len(batch) == PREVIEW_BATCH or (candidate.game, candidate.lang) != (
                view.game,
                view.lang,
            ):
                break
            if other in self._fresh and other not in self.images and other not in self._drawing:
                batch.append((other, candidate))
        return batch

    def _keep(self, token: str, image: bytes | None) -> bytes | None:
        if image is not None:
            with self.lock:
                if token in self.views:
                    self.images[token] = image
        return image

    def hang_up(self) -> None:
        """End every page's event stream: the server is stopping. An open page kept its stream, and
        with it uvicorn's shutdown, waiting: Ctrl-C left `printshop serve` running while a browser
        had the page."""
        loop = self.loop
        if loop is None:
            return
        for queue in list(self.listeners):
            loop.call_soon_threadsafe(queue.put_nowait, None)

    def _announce(self) -> None:
        loop = self.loop
        if loop is None:
            return
        for queue in list(self.listeners):
            loop.call_soon_threadsafe(queue.put_nowait, self.version)


def make_app(preview: Preview, host: str = "127.0.0.1", port: int = 8000):
    """The page's app, answering requests addressed to (host, port) only (`OwnOrigin`)."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    page = resources.files("printshop").joinpath("static/serve.html").read_text(encoding="utf-8")

    async def index(request):
        return HTMLResponse(page)

    async def state(request):
        return JSONResponse(preview.state, headers={"Cache-Control": "no-store"})

    async def face(request):
        token, zoom = request.path_params["token"], False
        if token.endswith("@2x"):
            token, zoom = token[:-3], True
        data = await asyncio.get_running_loop().run_in_executor(None, preview.image, token, zoom)
        if data is None:
            return Response(status_code=404)
        # a token names one laid-out face: its image never changes
        return Response(
            data, media_type="image/png", headers={"Cache-Control": "max-age=3600, immutable"}
        )

    async def events(request):
        queue: asyncio.Queue = asyncio.Queue()
        preview.loop = asyncio.get_running_loop()
        preview.listeners.add(queue)

        async def stream():
            try:
                # retry: a page that lost the server (stopped, started again) asks again every
                # second
                yield f"retry: 1000\ndata: {preview.version}\n\n"
                while True:
                    try:
                        version = await asyncio.wait_for(queue.get(), timeout=15)
                        if version is None:  # the server is stopping (`Preview.hang_up`)
                            break
                        yield f"data: {version}\n\n"
                    except asyncio.TimeoutError:
                        # keeps proxies and the browser from closing the stream
                        yield ": still here\n\n"
                    if await request.is_disconnected():
                        break
            finally:
                preview.listeners.discard(queue)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    @contextlib.asynccontextmanager
    async def lifespan(app):
        preview.loop = asyncio.get_running_loop()  # where the watching thread announces changes
        yield

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/state", state),
            Route("/events", events),
            Route("/face/{token}.png", face),
        ],
        lifespan=lifespan,
    )
    return OwnOrigin(app, host, port)


class AddressUnavailable(Exception):
    """The address to listen on is taken or cannot be had: the user's to change (--port, --host)."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) and listening, made here rather than by uvicorn so that a port
    in use is a message saying what to do, not an error inside the server's thread."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM
        )[0]
    except socket.gaierror as error:
        raise AddressUnavailable(
            f"cannot listen on {host}: {error.strerror or error} (--host)"
        ) from None
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(
            socket.SOL_SOCKET, socket.SO_REUSEADDR, 1
        )  # a server just stopped: its port again
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise AddressUnavailable(
                f"port {port} on {host} is in use (another printshop serve?): name another "
                f"with --port, or --port 0 for any free one"
            ) from None
        raise AddressUnavailable(
            f"cannot listen on {host} port {port}: {error.strerror or error}"
        ) from None
    return sock


class Server:
    """The page's server and the watcher in this process; `start()` returns once it listens."""

    def __init__(self, session: Session, host: str = "127.0.0.1", port: int = 8000):
        self.preview = Preview(session)
        self.host, self.port = host, port
        self.stop = threading.Event()
        self._server: Any = None  # a uvicorn.Server once serving (uvicorn is imported then)
        self._socket: socket.socket | None = None
        self._failure: BaseException | None = None
        self._threads: list[threading.Thread] = []

    def watch_files(self, watcher: FileWatcher) -> None:
        # the first refresh's rules pages, once the page is served (a save meanwhile is watched for)
        try:
            self.preview.render_pages(self.stop)
        except Exception as error:  # noqa: BLE001 - as a refresh's failure
            _say(f"rendering the rules pages failed: {type(error).__name__}: {error}")
        try:
            for changed in watcher.changes(self.stop):
                try:
                    self.preview.refresh(changed)
                except Exception as error:  # noqa: BLE001 - the server outlives any one bad refresh
                    _say(f"refreshing failed: {type(error).__name__}: {error}")
        except Exception as error:  # noqa: BLE001 - said, not lost in a thread
            _say(
                f"no longer watching the files ({type(error).__name__}: {error}); "
                f"the page shows the last state until the server is started again"
            )

    def serve(self, started: threading.Event | None = None) -> None:
        """Run until `stop` is set or Ctrl-C (blocking)."""
        import uvicorn

        if self._socket is None:
            self._socket = listening_socket(
                self.host, self.port
            )  # AddressUnavailable before anything else
            self.port = self._socket.getsockname()[1]
        # watching starts before the first refresh: a save made while it runs is not missed
        watcher = FileWatcher(watched_folders(self.preview.session), say=_say)
        try:
            self.preview.refresh(
                pages=False
            )  # the faces; the watching thread renders the rules pages
            config = uvicorn.Config(
                make_app(self.preview, self.host, self.port),
                host=self.host,
                port=self.port,
                log_level="warning",
                lifespan="on",
                timeout_graceful_shutdown=2,
            )  # nothing a page asks for is long
            self._server = uvicorn.Server(config)
            watching = threading.Thread(
                target=self.watch_files, args=(watcher,), name="printshop-watch", daemon=True
            )
            watching.start()
        except (
            BaseException
        ):  # the watching thread, which closes the watcher when it ends, never started
            watcher.close()
            raise
        self._threads.append(watching)
        if started is not None:
            threading.Thread(target=self._tell_when_listening, args=(started,), daemon=True).start()
        try:
            self._server.run(sockets=[self._socket])
        finally:
            self.stop.set()
            self._socket.close()

    def _tell_when_listening(self, started: threading.Event) -> None:
        while not self.stop.is_set():
            server = self._server
            if (
                server is not None and server.started
            ):  # (on the socket `listening_socket` made: port known)
                started.set()
                return
            self.stop.wait(0.02)

    def start(self) -> "Server":
        """Serve from a background thread (tests, scripts); returns once listening, `self.port` set."""
        self._socket = listening_socket(
            self.host, self.port
        )  # a port in use: AddressUnavailable, here
        self.port = self._socket.getsockname()[1]
        started = threading.Event()

        def serving():
            try:
                self.serve(started)
            except BaseException as error:  # noqa: BLE001 - raised again by start(), in the caller's thread
                self._failure = error

        thread = threading.Thread(target=serving, name="printshop-serve", daemon=True)
        thread.start()
        self._threads.append(thread)
        while not started.wait(0.05):
            if not thread.is_alive():
                if self._failure is not None:
                    raise self._failure
                raise RuntimeError("the preview server did not start")
        return self

    def close(self) -> None:
        self.stop.set()
        self.preview.hang_up()  # open pages' event streams end: the shutdown need not wait for them
        if self._server is not None:
            self._server.should_exit = True
        for thread in self._threads:
            thread.join(timeout=10)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"
