"""Every fenced example in README.md and docs/*.md runs as written.

- The ```python blocks of one page run in order as one session (a later block may use an earlier one's names),
  in a fresh process from the root of the checkout, with symbolic_ti's DeprecationWarnings as errors (the
  docs use the current names). The process is forked from an interpreter that has imported symbolic_ti and sympy
  under the same warnings filter (``tests/cli_forkserver.py``, as ``python -c`` runs a program: the same working
  directory, environment, ``sys.path``, ``/dev/null`` input, exit status; about 1 s of CPU less per page).
- Shell blocks: every line that starts with ``$ `` (or, in a block without prompts, with ``symbolic-ti``) runs
  through ``bash -c`` exactly as written, from a scratch directory that mirrors the checkout (so a stray
  redirection such as an unquoted ``6>4`` leaves its file there and is caught). Where the block shows the output
  after the command, the output must be printed exactly (a line ``...`` ends the comparison).
- A line that is one plain ``symbolic-ti`` command (unquoted words of letters, digits and ``_=.,:/+@%^-``, and
  quoted words without ``$``, backquote, backslash or ``!``: nothing bash would expand, redirect or glob, so that
  bash splits it into the words :func:`shlex.split` gives) runs as bash would run it, with those words, as the
  console script runs them (``sys.exit(main())``), in a process forked from that interpreter. Every other line
  (pipes, redirections, other programs) runs through ``bash -c``; the console script itself is run by those, by
  ``test_a_forked_command_is_the_console_script`` and by ``tests/test_cli_ux.py``.

Quick examples run in the suite; the few that take long are under the ``slow`` marker.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_forkserver import ForkServer

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Commands that only set up or test the project (they are what CI itself runs).
SKIP = re.compile(r"^(python -m pip install|python -m pytest|pip install)")
#: Examples that take long on two cores (each well over ten seconds): run with ``-m slow``.
SLOW = re.compile(r"(--family geometric(?!.*--set alpha)|derivations/|benchmarks/|\bfit\b.*--family geometric|--bayes)")
TIMEOUT = 600
#: One plain ``symbolic-ti`` command: words bash takes literally (no expansion, globbing, redirection or pipe).
_WORD = r"""(?:[A-Za-z0-9_=.,:/+@%^-]|'[^']*'|"[^"$`\\!]*")+"""
PLAIN = re.compile(rf"symbolic-ti(?: +{_WORD})*")


@dataclass(frozen=True)
class Example:
    source: str          # file:line
    kind: str            # "python" or "shell"
    code: str
    expected: tuple[str, ...] = ()

    @property
    def slow(self) -> bool:
        return bool(SLOW.search(self.code))

    @property
    def plain(self) -> bool:
        """One plain ``symbolic-ti`` command (its words as bash splits them: ``shlex.split``)."""
        return self.kind == "shell" and bool(PLAIN.fullmatch(self.code))


def _blocks(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    k = 0
    while k < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[k])
        if not m:
            k += 1
            continue
        lang, start, body = m.group(1), k + 1, []
        k += 1
        while k < len(lines) and not lines[k].startswith("```"):
            body.append(lines[k])
            k += 1
        k += 1
        yield lang, start, body


def _examples() -> list[Example]:
    out: list[Example] = []
    for path in DOCS:
        rel = path.relative_to(ROOT)
        session: list[tuple[int, str]] = []
        for lang, start, body in _blocks(path):
            if lang == "python":
                session.append((start, "\n".join(body)))
                continue
            if lang not in ("", "bash", "sh", "shell", "console"):
                continue
            prompted = any(line.startswith("$ ") for line in body)
            k = 0
            while k < len(body):
                line = body[k]
                is_cmd = line.startswith("$ ") if prompted else line.startswith("symbolic-ti")
                if not is_cmd:
                    k += 1
                    continue
                cmd, first = (line[2:] if prompted else line), start + k
                while cmd.endswith("\\") and k + 1 < len(body):
                    k += 1
                    cmd = cmd[:-1] + " " + body[k].strip()
                k += 1
                expected: list[str] = []
                while prompted and k < len(body) and not body[k].startswith("$ "):
                    expected.append(body[k])
                    k += 1
                cmd = re.sub(r"\s+#.*$", "", cmd).strip()  # a trailing comment explains, it is not run
                if SKIP.match(cmd):
                    continue
                out.append(Example(f"{rel}:{first}", "shell", cmd, tuple(expected)))
        if session:
            out.append(Example(f"{rel}:python", "python", json.dumps(session)))
    return out


#: Runs the blocks of one page in one namespace; a failing block is named by its line in the page.
_SESSION = """
import json, sys, traceback, warnings
warnings.filterwarnings("error", category=DeprecationWarning, message="symbolic_ti")
ns = {"__name__": "__main__"}
for start, code in json.loads(sys.argv[1]):
    try:
        exec(compile(code, f"{sys.argv[2]}:{start}", "exec"), ns)
    except BaseException:
        traceback.print_exc()
        sys.exit(f"block at {sys.argv[2]}:{start} failed")
"""


EXAMPLES = _examples()


def _params():
    for ex in EXAMPLES:
        marks = [pytest.mark.slow] if ex.slow else []
        yield pytest.param(ex, id=f"{ex.source}", marks=marks)


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A directory that looks like the checkout (its top-level entries linked), and nothing beside it: examples run
    from a clone (the example data ship with the package, ``example:NAME``)."""
    work = tmp_path / "checkout"
    work.mkdir()
    for entry in ROOT.iterdir():
        if entry.name.startswith(".") or entry.name in ("site", "build", "dist"):
            continue
        (work / entry.name).symlink_to(entry)
    return work


@pytest.fixture(scope="module")
def forkserver():
    server = ForkServer(_env(), ROOT)
    yield server
    server.close()


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["SYMBOLIC_TI_PROGRESS"] = "0"
    env.setdefault("MPLBACKEND", "Agg")
    # the console script of this checkout, also where the package is not installed
    bindir = Path(sys.executable).parent
    env["PATH"] = os.pathsep.join([str(bindir), env.get("PATH", "")])
    return env


def test_no_example_reads_files_beside_the_checkout():
    """A user's clone or wheel has nothing beside it: data come from the package (``example:NAME``)."""
    outside = [ex.source for ex in EXAMPLES if "../" in ex.code]
    assert not outside, f"examples that read files outside the checkout: {outside}"


def test_examples_were_found():
    kinds = {ex.kind for ex in EXAMPLES}
    assert kinds == {"python", "shell"} and len(EXAMPLES) >= 10, EXAMPLES


@pytest.mark.parametrize("example", _params())
def test_example_runs_as_written(example: Example, scratch: Path, forkserver: ForkServer):
    before = set(os.listdir(scratch))
    out = scratch.parent / "output"
    if example.kind == "python":
        proc = forkserver.run(_SESSION, ["-c", example.code, example.source.rsplit(":", 1)[0]], "", ROOT, _env(),
                              out, TIMEOUT)
    elif example.plain:
        proc = forkserver.command(shlex.split(example.code)[1:], scratch, _env(), out, TIMEOUT)
    else:
        proc = subprocess.run(["bash", "-c", example.code], cwd=scratch, env=_env(), capture_output=True, text=True,
                              timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, (f"{example.source}: exit {proc.returncode}\n{example.code}\n"
                                  f"stderr:\n{proc.stderr[-3000:]}")
    stray = set(os.listdir(scratch)) - before
    assert not stray, f"{example.source}: the example left files {sorted(stray)} (an unquoted '>'?)"
    if example.expected:
        got = proc.stdout.splitlines()
        for k, want in enumerate(example.expected):
            if want.strip() == "...":
                break
            assert k < len(got), f"{example.source}: output ends before line {k + 1}: {want!r}"
            assert got[k].rstrip() == want.rstrip(), (
                f"{example.source}: output line {k + 1} differs\n  docs: {want!r}\n  got:  {got[k]!r}")


def test_plain_commands_get_the_words_bash_gives():
    """The fork server's words for a plain command (``shlex.split``) are the words bash passes to the program."""
    plain = [ex for ex in EXAMPLES if ex.plain]
    assert len(plain) >= 10 and not any(ex.plain for ex in EXAMPLES if "|" in ex.code)
    for shell_feature in ("-e 6>4", "x | head", "$HOME", "*.csv", "a; rm b", "~/x", "\"$x\"", "`x`", "{a,b}",
                          "a && b", "(x)", "x 2>&1", "x # y", "'a'\\b"):
        assert not PLAIN.fullmatch(f"symbolic-ti derive {shell_feature}"), shell_feature
    script = "words() { printf '%s\\0' \"$@\"; printf '\\1'; }\n" + "\n".join(
        "words" + ex.code[len("symbolic-ti"):] for ex in plain)
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True).stdout
    got = [chunk.split("\0")[:-1] for chunk in out.split("\1")[:-1]]
    assert got == [shlex.split(ex.code)[1:] for ex in plain]


def test_a_forked_command_is_the_console_script(forkserver: ForkServer, tmp_path: Path):
    """The same exit status and output from the fork server as from the console script (a bad value: one line,
    exit 2; and a success)."""
    for argv, code in ((["derive", "--items", "0"], 2), (["paradigms"], 0)):
        want = subprocess.run(["symbolic-ti", *argv], cwd=tmp_path, env=_env(), capture_output=True, text=True,
                              timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        got = forkserver.command(argv, tmp_path, _env(), tmp_path.parent / "output", TIMEOUT)
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
        assert want.returncode == code and (want.stderr.count("\n") == 1 if code else want.stdout.strip() != "")
