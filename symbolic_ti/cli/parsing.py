"""The argparse machinery of ``symbolic-ti``: one parser class for the program and every subcommand.

:class:`Parser` (the class of every parser and subparser) adds three mechanisms to :class:`argparse.ArgumentParser`,
each in one place for every option:

* **Values that begin with ``-``.** argparse takes ``-1,2`` for an unknown option and answers "expected one
  argument". Here an argument is an option only if it looks like one (``-x``, ``--name``, ``--name=VALUE``:
  :data:`OPTION_LIKE`); ``--trial -1,2``, ``--times -5:5:3``, ``--resolution -1,5``, ``--interval -inf,0`` give
  their value to the option's own parser, which says what is wrong with it. A value that looks like an option
  (``--title -Foo``) is written ``--title=-Foo``, and the message of a missing value says so.
* **Options given once.** Every single-valued option (argparse's ``store``) refuses a second, different value
  (``--ridge 1 --ridge 2``); the same value twice is accepted. Every option records that it was given
  (:func:`given`), so that a default can be told from a value typed by the user.
* **Combinations** (:class:`Requires`, :class:`Excludes`): the table of option dependencies of one subcommand,
  given to :func:`add_rules` and checked after its options are read. An option that has no effect in the given
  combination (``--ridges`` without ``--window``) is refused with one line that names it.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import SymbolicTIError

__all__ = ["UsageError", "Parser", "OPTION_LIKE", "given", "Requires", "Excludes", "add_rules", "option_type"]

#: An argument that is an option (not a value): ``-x``, ``-xVALUE``, ``--name``, ``--name=VALUE``. Anything else
#: that begins with ``-`` (``-1,2``, ``-5:5:3``, ``-.5``, ``-inf``, ``-sqrt(2)``) is a value.
OPTION_LIKE = re.compile(r"-[A-Za-z]|--[A-Za-z][A-Za-z0-9_-]*(=|$)")

#: Minus infinity (``-inf``, ``-oo``, ``-infinity``, alone or before ``,`` or ``:``): a value though it looks like
#: an option.
_MINUS_INFINITY = re.compile(r"-(inf|infinity|oo)($|[^A-Za-z0-9_])", re.IGNORECASE)

#: The namespace attribute holding the options given on the command line.
_GIVEN = "_options_given"


class UsageError(Exception):
    """A user error found while reading the command line (exit code 2)."""


def _name(action: argparse.Action) -> str:
    """The option's name in messages: its first long spelling (``--trial`` for ``-t/--trial``)."""
    longs = [s for s in action.option_strings if s.startswith("--")]
    return (longs or list(action.option_strings) or [action.dest])[0]


def given(args: argparse.Namespace, option: str) -> bool:
    """Whether ``option`` (its long name, e.g. ``"--ridge"``) was given on the command line, not defaulted."""
    return option in getattr(args, _GIVEN, ())


def _record(namespace: argparse.Namespace, action: argparse.Action) -> None:
    seen = getattr(namespace, _GIVEN, None)
    if seen is None:
        seen = set()
        setattr(namespace, _GIVEN, seen)
    seen.add(_name(action))


class _Once(argparse._StoreAction):
    """``store`` that refuses a second, different value of the same option."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if given(namespace, _name(self)):
            old = getattr(namespace, self.dest)
            if not _same(old, values):
                raise argparse.ArgumentError(self, f"given twice with different values ({_shown(old)} and "
                                                   f"{_shown(values)}); give it once")
        _record(namespace, self)
        super().__call__(parser, namespace, values, option_string)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # a value whose comparison is not a truth value
        return a is b


def _shown(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _recording(base: type[argparse.Action]) -> type[argparse.Action]:
    """``base`` that also records that its option was given."""

    def call(self: argparse.Action, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
             option_string: str | None = None) -> None:
        _record(namespace, self)
        base.__call__(self, parser, namespace, values, option_string)

    return type(f"Recorded{base.__name__}", (base,), {"__call__": call})


_ACTIONS: dict[str | None, type[argparse.Action]] = {
    None: _Once, "store": _Once,
    "store_const": _recording(argparse._StoreConstAction), "store_true": _recording(argparse._StoreTrueAction),
    "store_false": _recording(argparse._StoreFalseAction), "append": _recording(argparse._AppendAction),
    "append_const": _recording(argparse._AppendConstAction), "count": _recording(argparse._CountAction),
}


@dataclass(frozen=True)
class Requires:
    """``option`` has an effect only with ``other`` (given, or, with ``values``, set to one of them)."""

    option: str
    other: str
    values: Sequence[str] = ()
    why: str = ""

    def broken(self, args: argparse.Namespace) -> str | None:
        if not given(args, self.option):
            return None
        if self.values:
            value = getattr(args, self.other.lstrip("-").replace("-", "_"))
            if value in self.values:
                return None
            need = f"{self.other} {' or '.join(self.values)}"
            return f"only applies with {need} (got {self.other} {value}){self.why}"
        if given(args, self.other):
            return None
        return f"has no effect without {self.other}{self.why}; give {self.other} or leave {self.option} out"


@dataclass(frozen=True)
class Excludes:
    """``option`` has no effect (or no meaning) together with ``other``."""

    option: str
    other: str
    why: str = ""

    def broken(self, args: argparse.Namespace) -> str | None:
        if given(args, self.option) and given(args, self.other):
            return f"has no effect with {self.other}{self.why}; leave one of them out"
        return None


Rule = Requires | Excludes


def add_rules(parser: argparse.ArgumentParser, rules: Sequence[Rule]) -> None:
    """Give ``parser`` (a subcommand's) its table of option dependencies, checked when its options are read.

    Raises
    ------
    ValueError
        If a rule names an option the parser does not have (a typo in the table).
    """
    known = {s for a in parser._actions for s in a.option_strings}
    for rule in rules:
        for option in (rule.option, rule.other):
            if option not in known:
                raise ValueError(f"rule {rule} names {option}, which {parser.prog!r} does not have")
    # (setattr: the parser is an ArgumentParser to mypy)
    setattr(parser, "rules", tuple(getattr(parser, "rules", ())) + tuple(rules))  # noqa: B010


def _subcommands(parser: argparse.ArgumentParser, prefix: str) -> list[tuple[str, argparse.ArgumentParser]]:
    """The (sub)subcommands under ``parser``, with their full names (``symbolic-ti plot phase``)."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.append((f"{prefix} {name}", sub))
                out.extend(_subcommands(sub, f"{prefix} {name}"))
    return out


class Parser(argparse.ArgumentParser):
    """ArgumentParser that raises :class:`UsageError` instead of printing usage and exiting, reads values that
    begin with ``-``, refuses an option given twice with different values, and checks its subcommand's rules
    (module docstring)."""

    rules: tuple[Rule, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, action in _ACTIONS.items():
            self.register("action", name, action)
        self._argv: list[str] = []

    def _parse_optional(self, arg_string: str) -> Any:
        found = super()._parse_optional(arg_string)
        # (a tuple (action, option, value) up to Python 3.12.6, a list of such tuples since)
        first = found[0] if isinstance(found, list) and found else found
        if first is not None and first[0] is None and (_MINUS_INFINITY.match(arg_string)
                                                       or not OPTION_LIKE.match(arg_string)):
            return None  # not an option of this parser, and not like one: a value (``-1,2``)
        return found

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        self._argv = list(args) if args is not None else []
        parsed, extra = super().parse_known_args(args, namespace)
        assert parsed is not None
        for rule in self.rules:
            message = rule.broken(parsed)
            if message is not None:
                self.error(f"argument {rule.option}: {message}")
        return parsed, extra

    def _print_message(self, message: str, file: Any = None) -> None:
        """Write ``--help``, ``--version`` and usage text, and flush it: argparse's own ignores a failed write,
        so ``--help > /dev/full`` exited 0; a write the operating system refuses raises
        :class:`~symbolic_ti.errors.OutputIOError` (exit 74), a closed pipe :class:`BrokenPipeError` (141)."""
        if not message:
            return
        import sys

        from ..errors import OutputIOError

        stream = file if file is not None else sys.stderr
        try:
            stream.write(message)
            stream.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            where = "standard output" if stream is sys.stdout else "standard error"
            raise OutputIOError(f"cannot write to {where}: {err.strerror or err}") from None

    def error(self, message: str) -> None:  # type: ignore[override]
        if "expected one argument" in message:
            message += self._dash_hint(message)
        elif message.startswith("unrecognized arguments:"):
            message += self._owner_hint(message)
        raise UsageError(message)

    def _owner_hint(self, message: str) -> str:
        """Which subcommands have an option that this command line does not (``--resolution``: ``plot phase``)."""
        words = [w.split("=")[0] for w in message.split(":", 1)[1].split() if w.startswith("--")]
        hints = []
        for word in words[:3]:
            owners = [name for name, parser in _subcommands(self, self.prog.split()[0])
                      if word in parser._option_string_actions]
            if owners:
                hints.append(f"{word} belongs to {' and '.join(repr(o) for o in owners[:4])}")
        return "; " + "; ".join(hints) if hints else ""

    def _dash_hint(self, message: str) -> str:
        """Why a value was missing: the exception's shell redirection, or a value that looks like an option."""
        if message.startswith("argument --exception"):
            return "; in a shell, quote each exception (-e '6>4'): unquoted, 6>4 is a redirection"
        match = re.match(r"argument (\S+):", message)
        if match is None:
            return ""
        names = match.group(1).split("/")
        for a, nxt in zip(self._argv, self._argv[1:], strict=False):
            if a in names and nxt.startswith("-"):
                return f"; a value that begins with '-' like {nxt!r} is written {names[0]}={nxt}"
        return ""


_Parsed = TypeVar("_Parsed")


def option_type(option: str, parse: Callable[[str], _Parsed]) -> Callable[[str], _Parsed]:
    """An argparse ``type`` that turns a SymbolicTIError of ``parse`` into an error naming ``option``.

    Parameters
    ----------
    option : str
        The option's name, e.g. ``"--ridge"`` (argparse names the option in the message itself).
    parse : callable
        Reads the option's text; raises :class:`~symbolic_ti.errors.SymbolicTIError` or
        :class:`argparse.ArgumentTypeError` for a bad value.
    """

    def convert(text: str) -> _Parsed:
        try:
            return parse(text)
        except SymbolicTIError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    convert.__name__ = option.lstrip("-")
    return convert
