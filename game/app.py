"""Command line: start the program, or render a Tiled map to a PNG.

    python main.py                      # the main menu
    python main.py --load FILE.yaml     # straight into a saved game
    python main.py render-map MAP.tmx OUT.png
    python main.py --smoke-test         # check this copy works, with no screen
    python main.py --install-desktop    # add the program to the desktop's menu (Linux)
    python main.py --version
    python main.py referee --homeserver URL --user ID --password-file F --saves DIR

``python -m game`` and the installed ``tabletop`` command do the same.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


#: The distribution's name (on a package index); the command is ``tabletop``.
DISTRIBUTION = "tabletop-hotseat"


#: The one-folder bundle carries its version in this file inside the package.
VERSION_FILE = "VERSION"


def version() -> str:
    """A checkout's version (its ``pyproject.toml``), the bundle's (written when it was built),
    or the installed package's metadata."""
    from game.resources import PACKAGE, ROOT, running_from_checkout
    if (PACKAGE / VERSION_FILE).is_file():
        return (PACKAGE / VERSION_FILE).read_text(encoding="utf-8").strip()
    if running_from_checkout():
        import tomllib
        try:
            with open(ROOT / "pyproject.toml", "rb") as file:
                return tomllib.load(file)["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            pass
    from importlib import metadata
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def where_text() -> str:
    """``--help``'s lines on where this computer keeps the saves and the settings."""
    from game.ui.paths import saves_dir, settings_path
    saves = saves_dir()
    return "\n".join([
        "files on this computer:",
        f"  saves:    {saves}",
        "            (TABLETOP_SAVES=FOLDER chooses another folder)",
        f"  settings: {settings_path()}",
        "            (TABLETOP_HOME=FOLDER keeps settings.yaml there instead)",
        "",
        "example:",
        f"  tabletop --load {saves / 'autosave-odysseus-ID.yaml'}",
    ])


#: The smallest window the screens are laid out for (the client's MIN_SIZE) and
#: the largest size the command line accepts.
MIN_WINDOW = (960, 600)
MAX_WINDOW_SIDE = 8192


def window_size(text: str) -> tuple[int, int]:
    """``--size`` as (width, height): ``WIDTHxHEIGHT`` in whole pixels.

    >>> window_size("1280x720"), window_size(" 1920 X 1080 ")
    ((1280, 720), (1920, 1080))
    """
    width, sep, height = text.strip().lower().partition("x")
    width, height = width.strip(), height.strip()
    if not sep or not all(part.isascii() and part.isdigit() for part in (width, height)):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a window size; write WIDTHxHEIGHT, e.g. 1280x720")
    size = int(width), int(height)
    if not all(1 <= side <= MAX_WINDOW_SIDE for side in size):
        raise argparse.ArgumentTypeError(
            f"{text!r}: each side must be from 1 to {MAX_WINDOW_SIDE} pixels")
    return size


def fit_window(size: tuple[int, int]) -> tuple[tuple[int, int], str | None]:
    """``size`` grown to at least :data:`MIN_WINDOW`, with a note when it was."""
    fitted = (max(size[0], MIN_WINDOW[0]), max(size[1], MIN_WINDOW[1]))
    if fitted == size:
        return size, None
    return fitted, (f"tabletop: --size {size[0]}x{size[1]} is smaller than the smallest "
                    f"window ({MIN_WINDOW[0]}x{MIN_WINDOW[1]}); using "
                    f"{fitted[0]}x{fitted[1]}.")


def render_map_command(map_path: Path, out_path: Path) -> int:
    """``render-map``: 0 when written; 2 with one line "FILE: problem" otherwise."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.board.render import render_map
    from game.board.tmxmap import MapError
    try:
        render_map(map_path, out_path)
    except MapError as exc:
        print(f"render-map: {exc}", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"render-map: {map_path}: too large to render (out of memory)", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a command line reports, never a traceback
        problem = " ".join(str(exc).split()) or type(exc).__name__
        print(f"render-map: {map_path}: cannot be rendered ({problem})", file=sys.stderr)
        return 2
    return 0


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tabletop", description=__doc__.splitlines()[0],
        epilog="commands:\n" + "\n".join("  " + line.strip().replace("python main.py", "tabletop")
                                          for line in __doc__.split("\n\n")[1].splitlines())
               + "\n\n" + where_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.add_argument("--smoke-test", action="store_true",
                        help="play, save, load and render every game headless, then exit")
    parser.add_argument("--install-desktop", action="store_true",
                        help="add the program, its icon and its description to the desktop's "
                             "menu (Linux: under $XDG_DATA_HOME or ~/.local/share), then exit")
    parser.add_argument("--uninstall-desktop", action="store_true",
                        help="take out what --install-desktop added, then exit")
    sub = parser.add_subparsers(dest="command")
    render = sub.add_parser("render-map", help="render a .tmx map's tile layers to a PNG")
    render.add_argument("map", type=Path)
    render.add_argument("out", type=Path)
    from game.online.cli import add_arguments as referee_arguments
    referee_arguments(sub)  # tabletop referee: online tables headless (game/online/cli.py)
    parser.add_argument("--load", type=Path, metavar="FILE", help="open this save at start")
    parser.add_argument("--size", type=window_size, metavar="WIDTHxHEIGHT",
                        help=f"window size, e.g. 1280x720 (at least "
                             f"{MIN_WINDOW[0]}x{MIN_WINDOW[1]})")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.smoke_test:
        from game.selfcheck import run
        return run()
    if args.install_desktop or args.uninstall_desktop:
        from game import desktop
        return desktop.install() if args.install_desktop else desktop.uninstall()
    if args.command == "render-map":
        return render_map_command(args.map, args.out)
    if args.command == "referee":
        from game.online.cli import run as run_referee
        return run_referee(args)
    # The window's class (X11) and app id (Wayland) name the desktop entry that
    # --install-desktop writes, so the task bar shows its name and icon.  Set before pygame is
    # imported: on import it sets the X11 class to the script's name.
    from game.desktop import APP_ID
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", APP_ID)
    os.environ.setdefault("SDL_VIDEO_WAYLAND_WMCLASS", APP_ID)
    from game.ui.app import App
    size = None
    if args.size:
        size, note = fit_window(args.size)
        if note:
            print(note, file=sys.stderr)
    app = App(size=size)
    app.to_menu()
    notes = getattr(app.settings, "notes", [])
    if notes:  # a hand-edited settings file: say what was set back to its default
        app.toast(f"Some settings in {app.settings_path} could not be used: "
                  + " ".join(notes), error=True, seconds=10)
    if args.load:
        from game.ui.scenes.menu import open_match
        open_match(app, args.load)
    app.run()
    return 0
