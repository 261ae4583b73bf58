"""``tabletop --install-desktop``: put the program in a Linux desktop's menu (and take it out).

Writes, under the user's data folder (``$XDG_DATA_HOME``, else ``~/.local/share``):

- ``applications/<APP_ID>.desktop``: the menu entry (freedesktop Desktop Entry), starting this
  very copy of the program (the ``tabletop`` launcher, the bundle's program, or
  ``python main.py`` in a checkout) by its absolute path;
- ``icons/hicolor/<N>x<N>/apps/<APP_ID>.png``: the icon at every size in ``assets/``;
- ``metainfo/<APP_ID>.metainfo.xml``: the AppStream description software centres read.

``--uninstall-desktop`` removes exactly those files.  Nothing here imports pygame.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from game.resources import ROOT, assets_dir, running_from_checkout

#: The desktop file's id, the icon's name, the AppStream id and the window's class (so the
#: task bar matches the window to the menu entry).  AppStream wants a reverse-DNS name; this
#: one is reserved for the project's public home.  Changing it later leaves a stale entry
#: behind on machines that installed the old one, so keep it.
APP_ID = "io.github.tabletop_hotseat.Tabletop"
NAME = "Tabletop"
SUMMARY = "Play five fantasy board games hot-seat on one computer"
ICON_SIZES = (16, 32, 48, 64, 128, 256)
#: Characters that make the Desktop Entry spec quote an argument of ``Exec``.
_RESERVED = re.compile(r"[\s\"'\\><~|&;$*?#()`]")


def data_home() -> Path:
    """``$XDG_DATA_HOME`` when it is an absolute path (the spec ignores a relative one), else
    ``~/.local/share``."""
    chosen = os.environ.get("XDG_DATA_HOME", "")
    if chosen and Path(chosen).is_absolute():
        return Path(chosen)
    return Path.home() / ".local" / "share"


def launch_command() -> list[str]:
    """How the menu entry starts this copy of the program, with absolute paths."""
    if getattr(sys, "frozen", False):                  # the one-folder bundle
        return [sys.executable]
    launcher = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if launcher and launcher.stem == "tabletop" and launcher.is_file():
        return [str(launcher.absolute())]              # pip's or pipx's launcher
    if running_from_checkout():
        return [sys.executable, str(ROOT / "main.py")]
    return [sys.executable, "-m", "game"]


def exec_line(command: list[str]) -> str:
    """``command`` as a Desktop Entry ``Exec`` value (quoted and escaped as the spec says)."""
    words = []
    for word in command:
        word = word.replace("%", "%%")
        if _RESERVED.search(word):
            word = '"' + re.sub(r'(["`$\\])', r"\\\1", word) + '"'
        words.append(word)
    # Exec is a string value too: its backslashes are escaped once more.
    return " ".join(words).replace("\\", "\\\\")


def desktop_entry(command: list[str]) -> str:
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        f"Name={NAME}",
        "GenericName=Board games",
        f"Comment={SUMMARY}",
        f"Exec={exec_line(command)}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Game;BoardGame;",
        "Keywords=board game;hot-seat;pass and play;fantasy;expedition;racing;odysseus;",
        f"StartupWMClass={APP_ID}",
    ]
    if Path(command[0]).is_absolute():
        lines.insert(7, f"TryExec={command[0]}")
    return "\n".join(lines) + "\n"


def metainfo() -> str:
    """The AppStream metainfo (``appstreamcli validate`` accepts it).  No ``<releases>``: a
    release needs its date, which a package that was never published does not have."""
    games = ("Fantasy Expedition", "Fantasy Racing", "TRAP: Mothership Fantasia",
             "Odysseus: Winds of Fate", "Monster Fandango")
    items = "\n".join(f"      <li>{escape(game)}</li>" for game in games)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<component type="desktop-application">
  <id>{APP_ID}</id>
  <metadata_license>MIT</metadata_license>
  <project_license>MIT</project_license>
  <name>{NAME}</name>
  <summary>{escape(SUMMARY)}</summary>
  <description>
    <p>Everyone sits around one computer and passes the keyboard and mouse: the program knows
    the rules, keeps each player's secrets behind a handover card, plays any seat you give to
    the computer at three levels, and saves after every action so no game is ever lost.</p>
    <p>Five games, each with its rules document and its own board:</p>
    <ul>
{items}
    </ul>
  </description>
  <launchable type="desktop-id">{APP_ID}.desktop</launchable>
  <developer><name>the Tabletop developers</name></developer>
  <content_rating type="oars-1.1"/>
  <categories>
    <category>Game</category>
    <category>BoardGame</category>
  </categories>
  <provides>
    <binary>tabletop</binary>
  </provides>
</component>
"""


def icon_files() -> dict[int, Path]:
    """The shipped icon PNG of each size."""
    return {size: assets_dir() / f"icon-{size}.png" for size in ICON_SIZES}


def installed_paths(home: Path | None = None) -> dict[str, Path]:
    """Every file ``--install-desktop`` writes, by what it is."""
    home = home or data_home()
    paths = {"menu entry": home / "applications" / f"{APP_ID}.desktop",
             "metainfo": home / "metainfo" / f"{APP_ID}.metainfo.xml"}
    for size in ICON_SIZES:
        paths[f"icon {size}x{size}"] = (home / "icons" / "hicolor" / f"{size}x{size}" / "apps"
                                        / f"{APP_ID}.png")
    return paths


def _freedesktop() -> bool:
    return not sys.platform.startswith(("win", "darwin", "cygwin"))


def install() -> int:
    """Write the menu entry, the icons and the metainfo; 0 when done, 2 with a reason."""
    if not _freedesktop():
        print("tabletop: --install-desktop adds a menu entry on Linux and other freedesktop "
              "desktops; on this system, pin the program from where you started it.",
              file=sys.stderr)
        return 2
    paths = installed_paths()
    contents: dict[str, bytes] = {
        "menu entry": desktop_entry(launch_command()).encode("utf-8"),
        "metainfo": metainfo().encode("utf-8"),
    }
    for size, source in icon_files().items():
        contents[f"icon {size}x{size}"] = source.read_bytes()
    try:
        for what, path in paths.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(path.name + ".tmp")
            temporary.write_bytes(contents[what])
            os.replace(temporary, path)
    except OSError as exc:
        print(f"tabletop: could not install the menu entry: {exc}", file=sys.stderr)
        return 2
    for what, path in paths.items():
        print(f"{what}: {path}")
    print(f"{NAME} is now in the desktop's menu (Games); "
          "`tabletop --uninstall-desktop` takes it out.")
    return 0


def uninstall() -> int:
    """Remove what :func:`install` wrote; 0 (also when there was nothing to remove)."""
    removed = 0
    for path in installed_paths().values():
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            print(f"tabletop: could not remove {path}: {exc}", file=sys.stderr)
            return 2
        print(f"removed {path}")
        removed += 1
    if not removed:
        print(f"tabletop: no menu entry was installed under {data_home()}")
    return 0
