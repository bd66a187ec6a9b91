"""How a match is shown (`play --watch`, `replay`, `watch`): the seat, the legend, the export."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from admiralty.cli.output import fail, out, usage
from admiralty.console.feeds import export
from admiralty.console.screen import MatchScreen

EXPORT_SUFFIXES = (".html", ".htm", ".svg")


@dataclass(frozen=True)
class Display:
    """How a match is shown: as which seat (None: a spectator), with the legend, and the
    file the final screen is exported to."""

    seat: int | None = None
    legend: bool = False
    export: Path | None = None

    def check(self, seats: int | None = None) -> None:
        """Usage errors before anything starts: a seat the match lacks, an export file of
        another kind or in a directory that cannot be written."""
        if self.seat is not None and seats is not None and self.seat >= seats:
            raise usage(f"--seat {self.seat}: the match has seats 0 to {seats - 1}")
        if self.export is not None:
            if self.export.suffix.lower() not in EXPORT_SUFFIXES:
                raise usage(f"--export {self.export}: the file must end in .html or .svg")
            if not os.access(self.export.parent, os.W_OK):
                raise usage(f"--export {self.export}: cannot write in {self.export.parent}")

    def finish(self, screen: MatchScreen) -> None:
        """Off a terminal the whole transcript (the live screen was not drawn); then the
        export, if asked for."""
        if not out.is_terminal:
            out.print(screen.transcript(), soft_wrap=False)
        self.save(screen)

    def save(self, screen: MatchScreen) -> None:
        """The export, if asked for."""
        if self.export is not None:
            try:
                export(screen, self.export, max(out.width, 100), max(out.height, 40))
            except OSError as error:
                raise fail(f"cannot write {self.export}: {error.strerror}") from None
            out.print(f"exported: {self.export}", highlight=False, soft_wrap=True)
