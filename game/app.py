"""Command line: start the program, or render a Tiled map to a PNG.

    python main.py                      # the main menu
    python main.py --load saves/x.yaml  # straight into a saved game
    python main.py render-map MAP.tmx OUT.png
    python main.py --smoke-test         # check this copy works, with no screen
    python main.py --version
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def version() -> str:
    """The installed version (from the package metadata), or the checkout's."""
    from importlib import metadata
    try:
        return metadata.version("tabletop")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tabletop", description=__doc__.splitlines()[0],
        epilog="commands:\n" + "\n".join("  " + line.strip().replace("python main.py", "tabletop")
                                          for line in __doc__.splitlines()[2:] if line.strip()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.add_argument("--smoke-test", action="store_true",
                        help="play, save, load and render every game headless, then exit")
    sub = parser.add_subparsers(dest="command")
    render = sub.add_parser("render-map", help="render a .tmx map's tile layers to a PNG")
    render.add_argument("map", type=Path)
    render.add_argument("out", type=Path)
    parser.add_argument("--load", type=Path, help="open this save at start")
    parser.add_argument("--size", help="window size, e.g. 1280x720")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.smoke_test:
        from game.selfcheck import run
        return run()
    if args.command == "render-map":
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        from game.board.render import render_map
        try:
            render_map(args.map, args.out)
        except (OSError, ValueError) as exc:
            print(f"render-map: {exc}", file=sys.stderr)
            return 1
        return 0
    from game.ui.app import App
    size = None
    if args.size:
        width, _, height = args.size.partition("x")
        size = (int(width), int(height))
    app = App(size=size)
    app.to_menu()
    if args.load:
        from game.ui.scenes.menu import open_match
        open_match(app, args.load)
    app.run()
    return 0
