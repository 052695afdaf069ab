"""Screenshot of the packet explorer (`/ui`) on the bundled curriculum, for the README.

Serves the real app (uvicorn, in this process, on a free loopback port) over an index of
`data/curriculum`, opens `/ui?q=...` in headless Chromium (the page runs the query on load;
every host but the loopback is unresolvable, so nothing comes from a CDN) and writes the PNG:

    .venv/bin/tutorgraph ingest data/curriculum          # once: the index in .tutorgraph
    .venv/bin/python scripts/ui_screenshot.py            # writes docs/packet_explorer.png

With no index at `--index-dir`, the script ingests `data/curriculum` into it first (about a
minute: the bundle carries its vectors). Needs Chromium (Debian: `apt install chromium`).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn

from tutorgraph.api import create_app
from tutorgraph.config import Settings
from tutorgraph.index.generations import live_generation

REPO = Path(__file__).resolve().parents[1]
QUERY = "i got 1.2 for 0.6 × 0.2, why is it wrong?"
GRADE = "5"
OUT = REPO / "docs" / "packet_explorer.png"
START_TIMEOUT_S = 300


def chromium() -> str | None:
    """The headless browser on PATH, if any."""
    names = ("chromium", "chromium-browser", "google-chrome")
    return next((p for p in map(shutil.which, names) if p), None)


def headless(browser: str, profile: Path, *, budget_ms: int, size: str) -> list[str]:
    """Headless Chromium, offline but for the loopback, with `budget_ms` of virtual time
    for the page's scripts and a profile folder of its own."""
    return [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        f"--virtual-time-budget={budget_ms}",
        f"--window-size={size}",
        f"--user-data-dir={profile}",
    ]


def ui_url(base: str, query: str, grade: str | None = None) -> str:
    """`/ui` with a query the page runs on load."""
    params = {"q": query, **({"grade": grade} if grade else {})}
    return f"{base}/ui?{urllib.parse.urlencode(params)}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """The app over `settings` with uvicorn in a thread; yields its URL once the models are
    loaded and the index is open."""
    port = _free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise SystemExit("the app did not start (see the log above)")
        time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def ensure_index(index_dir: Path) -> None:
    """Ingest the bundled curriculum into `index_dir` unless it already holds an index."""
    if index_dir.exists() and live_generation(index_dir) is not None:
        return
    print(f"no index at {index_dir}: ingesting data/curriculum (about a minute)", flush=True)
    cli = Path(sys.executable).with_name("tutorgraph")
    entry = "from tutorgraph.cli.app import main; main()"
    command = [str(cli)] if cli.exists() else [sys.executable, "-c", entry]
    ingest = [*command, "ingest", str(REPO / "data" / "curriculum"), "--index-dir", str(index_dir)]
    subprocess.run(ingest, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index-dir", type=Path, default=REPO / ".tutorgraph")
    parser.add_argument("--query", default=QUERY)
    parser.add_argument("--grade", default=GRADE, help="K, 1-8 or HS; '' for none")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--size", default="1280,3400", help="the window, WIDTH,HEIGHT")
    args = parser.parse_args()
    browser = chromium()
    if browser is None:
        raise SystemExit("no headless Chromium on PATH (Debian: apt install chromium)")
    ensure_index(args.index_dir)
    # Loopback only, no keys (auth off); the reranker as the server ships it.
    settings = Settings(index_dir=args.index_dir, api_keys="")
    with serving(settings) as base, tempfile.TemporaryDirectory() as tmp:
        url = ui_url(base, args.query, args.grade or None)
        shot = Path(tmp) / "ui.png"
        run = [*headless(browser, Path(tmp) / "profile", budget_ms=30000, size=args.size)]
        subprocess.run(
            [*run, f"--screenshot={shot}", url], check=True, capture_output=True, timeout=180
        )
        dom = subprocess.run(
            [*run, "--dump-dom", url], check=True, capture_output=True, text=True, timeout=180
        ).stdout
        if 'data-state="done"' not in dom:
            raise SystemExit(f"the page did not draw a packet for {url}")
        if shot.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
            raise SystemExit("Chromium wrote no PNG")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes) from {url}")


if __name__ == "__main__":
    main()
