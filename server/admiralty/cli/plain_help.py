"""How `admiralty ... --help` reads: plain text, rewrapped to the terminal, at any width.

Typer's own help puts each option in a table whose help column is some 20 characters wide
at 80 columns, keeps the docstrings' line breaks in mid-sentence, labels every option with
its Python type (`<bool>` on a flag, `<list[str]>`, `<float range>`) and prints number
ranges in full (the seed's runs to 78 digits). Here a value is named by what it is (`N`,
`SECONDS`, `PATH`, `default|random|forfeit`, or the option's own name), a flag by its name
alone, ranges are left to the help text, a command's summary in a list is its whole first
sentence, and lines break at spaces only (never inside `--matches-per-bot` or `one-seat`).
"""

from __future__ import annotations

import inspect
import sys
import types
from enum import Enum
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin, get_type_hints

import typer
from typer.core import TyperCommand, TyperGroup


def metavar(hint: Any, name: str) -> str:
    """The word for a value of type `hint` (an option's annotation) in the help."""
    if get_origin(hint) in (list, Union, types.UnionType):
        return metavar(next(a for a in get_args(hint) if a is not type(None)), name)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return "|".join(str(member.value) for member in hint)
    if isinstance(hint, type) and issubclass(hint, PurePath):
        return "PATH"
    return {int: "N", float: "NUMBER"}.get(hint, name.upper())


_HYPHEN = "\u2011"
"""A non-breaking hyphen, standing in for "-" while a text is wrapped."""


_ClickFormatter: Any = typer.Context.formatter_class
"""click's help formatter, which Typer bundles under a private module."""


class _Formatter(_ClickFormatter):
    """click's layout, wrapped at spaces only: click's wrapping would also break a line
    after any hyphen inside a word."""

    def write_text(self, text: str) -> None:
        super().write_text(text.replace("-", _HYPHEN))

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        """Names in a column a third of the width at most (a longer one has its help under
        it), so the help keeps two thirds of a narrow terminal."""
        super().write_dl(
            [(name, text.replace("-", _HYPHEN)) for name, text in rows],
            min(col_max, self.width // 3),
            col_spacing,
        )

    def write(self, string: str) -> None:
        super().write(string.replace(_HYPHEN, "-"))


class _Context(typer.Context):
    formatter_class = _Formatter


if TYPE_CHECKING:
    _Command = TyperCommand  # what `_PlainHelp` is mixed into, for the type checker
else:
    _Command = object


class _PlainHelp(_Command):
    """What a command and a group share: their context (for the formatter), parameters and
    summary."""

    context_class = _Context

    def _labels(self, ctx: Any) -> dict[str, str]:
        """Each parameter's name in the help: an argument's in capitals, an option's value
        by its metavar or its type (a flag takes none)."""
        callback = getattr(self, "callback", None)
        hints = get_type_hints(inspect.unwrap(callback)) if callback else {}
        labels = {}
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                labels[param.name] = (param.metavar or param.name).upper()
            elif not getattr(param, "is_flag", False):
                labels[param.name] = param.metavar or metavar(hints[param.name], param.name)
        return labels

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The parameters as click lays them out: names on the left, help on the right."""
        labels = self._labels(ctx)
        sections: dict[str, list[tuple[str, str]]] = {"argument": [], "option": []}
        for param in self.get_params(ctx):
            if getattr(param, "hidden", False):
                continue
            if param.param_type_name == "argument":
                name = labels[param.name]
            else:
                name = " / ".join(
                    ", ".join(sorted(opts, key=len))
                    for opts in (param.opts, param.secondary_opts)
                    if opts
                )
                name += f" {labels[param.name]}" if param.name in labels else ""
            sections[param.param_type_name].append((name, _help(param, ctx)))
        for title, rows in (("Arguments", sections["argument"]), ("Options", sections["option"])):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
        if isinstance(self, TyperGroup):
            self.format_commands(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        """The first sentence whole, wrapped in the list of commands, not cut at `limit`."""
        return super().get_short_help_str(limit=sys.maxsize)


def _help(param: Any, ctx: Any) -> str:
    """A parameter's help, then its default, environment variable and whether it is
    required, as click brackets them."""
    extras = []
    shown = getattr(param, "show_default", False)
    default = param.get_default(ctx, call=False) if shown else None
    if isinstance(shown, str):
        extras.append(f"default: {shown}")
    elif default is not None and default is not False and default not in ([], ()):
        extras.append(f"default: {default.value if isinstance(default, Enum) else default}")
    if getattr(param, "show_envvar", False) and param.envvar:
        extras.append(f"env var: {param.envvar}")
    if param.required:
        extras.append("required")
    return "  ".join(
        filter(None, [getattr(param, "help", None), f"[{'; '.join(extras)}]" if extras else ""])
    )


class Command(_PlainHelp, TyperCommand):
    """A command with plain help."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """The usage line: `[OPTIONS] GAME [NAME]`, an optional argument in brackets."""
        labels = self._labels(ctx)
        return [
            *filter(None, [self.options_metavar]),
            *(
                labels[param.name] if param.required else f"[{labels[param.name]}]"
                for param in self.get_params(ctx)
                if param.param_type_name == "argument"
            ),
        ]


class Group(_PlainHelp, TyperGroup):
    """A group of commands with plain help."""


class Typer(typer.Typer):
    """A Typer app whose commands and groups have plain help."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(cls=Group, rich_markup_mode=None, **settings)

    def command(self, *args: Any, **settings: Any) -> Any:
        return super().command(*args, cls=Command, **settings)
