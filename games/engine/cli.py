"""Command line: check SGF files for illegal moves, and score a finished game.

    python -m games.engine check FILE... --rules PRESET [--json]
    python -m games.engine score FILE --rules PRESET [--komi K] [--dead D4,E5,... | --estimate-dead] [--json]
    python -m games.engine dead FILE --rules PRESET [--json]

Output, dead stones and exit statuses: docs/formats.md, "The engine's command line".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, NoReturn

from .coords import CoordinateError, parse_points, point_to_gtp, point_to_sgf
from .deadstones import estimate_dead
from .fillin import _num
from .record import parse_record
from .replay import Violation, first_player, replay
from .rules import Rules, UnknownRules, get_rules
from .scoring import DeadStoneError, dead_from_markup, score
from .sgf import MAX_BYTES, SgfError
from .types import GameRecord, Point

OK, ILLEGAL, USAGE, BAD_FILE, INTERNAL = 0, 1, 2, 3, 4
PROG = "python -m games.engine"


class CliError(Exception):
    """Stops a command with a one-line message and an exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not the usage block
        raise CliError(f"{message} (see {PROG} --help)", USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Check and score Go game records (SGF).")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = commands.add_parser("check", help="report the first illegal move of each file")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--rules", required=True, metavar="PRESET")
    check.add_argument("--json", action="store_true", help="print JSON")
    sc = commands.add_parser("score", help="score the final position of a game")
    sc.add_argument("file", metavar="FILE")
    sc.add_argument("--rules", required=True, metavar="PRESET")
    sc.add_argument(
        "--komi", metavar="K", help="the komi (default: the record's KM, else the preset's)"
    )
    how = sc.add_mutually_exclusive_group()
    how.add_argument("--dead", metavar="POINTS", help="dead stones, e.g. D4,E5 or dp,ee")
    how.add_argument(
        "--estimate-dead", action="store_true", help="count with the engine's dead-stone estimate"
    )
    sc.add_argument("--json", action="store_true", help="print Score.to_dict() as JSON")
    dead = commands.add_parser("dead", help="estimate the dead stones of a finished game")
    dead.add_argument("file", metavar="FILE")
    dead.add_argument("--rules", required=True, metavar="PRESET")
    dead.add_argument("--json", action="store_true", help='print {"dead": [...], "unsure": [...]}')
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        rules = _rules(args.rules)
        if args.command == "check":
            return _check(args.files, rules, as_json=args.json)
        if args.command == "dead":
            return _dead(args, rules)
        return _score(args, rules)
    except CliError as e:
        _err(str(e))
        return e.status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head and the like: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return OK
    except Exception as e:  # never a traceback for the user; the message says it is a bug
        _err(f"internal error: {type(e).__name__}: {e}")
        return INTERNAL


def _err(message: str) -> None:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)


def _rules(name: str) -> Rules:
    try:
        return get_rules(name)
    except UnknownRules as e:
        raise CliError(str(e), USAGE) from None


def load(path: str) -> GameRecord:
    """Read and parse one file; ``CliError(BAD_FILE)`` naming it when that fails."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)  # one byte over lets the reader refuse it
    except OSError as e:
        raise CliError(f"{path}: cannot read: {e.strerror or e}", BAD_FILE) from None
    try:
        return parse_record(data)
    except SgfError as e:
        raise CliError(f"{path}: {e}", BAD_FILE) from None


# --------------------------------------------------------------------------- check


def _check(files: list[str], rules: Rules, *, as_json: bool) -> int:
    status = OK
    reports: list[dict[str, Any]] = []
    for path in files:
        report: dict[str, Any] = {"file": path, "rules": rules.name}
        try:
            record = load(path)
        except CliError as e:
            _err(str(e))
            status = max(status, e.status)
            reports.append({**report, "legal": None, "error": str(e)})
            continue
        for warning in record.warnings:
            print(f"{path}: warning: {warning}", file=sys.stderr)
        bad = replay(record, rules, strict=True).first_illegal
        report.update(
            legal=bad is None,
            size=record.size,
            height=record.rows,
            komi=None if record.komi is None else _num(record.komi),
            handicap=record.handicap,
            first_player=first_player(record).letter,
            charset=record.charset,
            moves=len(record.moves),
            first_illegal=None if bad is None else violation_dict(bad, record.size, record.rows),
            warnings=list(record.warnings),
        )
        reports.append(report)
        if bad is not None:
            status = max(status, ILLEGAL)
        if not as_json:
            verdict = (
                f"legal ({len(record.moves)} moves)"
                if bad is None
                else f"illegal: {bad.describe()}"
            )
            print(f"{path}: {verdict}")
    if as_json:
        print(json.dumps(reports, indent=2))
    return status


def violation_dict(v: Violation, size: int, height: int | None = None) -> dict[str, Any]:
    return {
        "number": v.number,
        "color": v.color.name.lower(),
        "point": _point(v.point, size, height),
        "sgf": "" if v.point is None else point_to_sgf(v.point),
        "reason": v.reason,
        "description": v.describe(),
    }


def _point(p: Point | None, size: int, height: int | None = None) -> str:
    return "pass" if p is None else point_to_gtp(p, size, height)


# --------------------------------------------------------------------------- score


def _score(args: argparse.Namespace, rules: Rules) -> int:
    komi_given = _komi(args.komi) if args.komi is not None else None
    record = load(args.file)
    dead_given = None
    if args.dead is not None:
        try:
            dead_given = parse_points(args.dead, record.size, record.height)
        except CoordinateError as e:
            raise CliError(f"--dead: {e}", USAGE) from None
    for warning in record.warnings:
        print(f"{args.file}: warning: {warning}", file=sys.stderr)
    rep = replay(record, rules, strict=True)
    bad = rep.first_illegal
    if bad is not None:
        raise CliError(f"{args.file}: cannot score: illegal {bad.describe()}", ILLEGAL)
    # --komi, else the game as played, else (None) the preset's.
    komi = komi_given if komi_given is not None else record.komi
    try:
        if dead_given is not None:
            dead: set[Point] | tuple[Point, ...] | frozenset[Point] = dead_given
        elif args.estimate_dead and record.height is not None:
            raise CliError(
                f"{args.file}: --estimate-dead needs a square board, not "
                f"{record.size}x{record.height}: list the dead stones with --dead",
                USAGE,
            )
        elif args.estimate_dead:
            dead = estimate_dead(rep.board, rules).dead if rules.remove_dead else ()
        elif record.territory_black or record.territory_white:
            dead = dead_from_markup(rep.board, record.territory_black, record.territory_white)
        else:
            dead = ()
        result = score(rep, dead=dead, komi=komi)
    except DeadStoneError as e:
        raise CliError(f"dead stones: {e}", USAGE) from None
    data = result.to_dict()
    if args.json:
        print(json.dumps(data, indent=2, default=str))
    else:
        print(f"{args.file}: {data.get('result')}")
        for key, value in data.items():
            if key != "result":
                print(f"  {key}: {_human(value)}")
    return OK


# --------------------------------------------------------------------------- dead


def _dead(args: argparse.Namespace, rules: Rules) -> int:
    record = load(args.file)
    for warning in record.warnings:
        print(f"{args.file}: warning: {warning}", file=sys.stderr)
    rep = replay(record, rules, strict=True)
    bad = rep.first_illegal
    if bad is not None:
        raise CliError(f"{args.file}: cannot estimate: illegal {bad.describe()}", ILLEGAL)
    if record.height is not None:
        raise CliError(
            f"{args.file}: the dead-stone estimate needs a square board, not "
            f"{record.size}x{record.height}: count it with score --dead POINTS",
            USAGE,
        )
    estimate = estimate_dead(rep.board, rules)
    size = record.size

    def labels(points: Iterable[Point]) -> list[str]:
        return [point_to_gtp(p, size) for p in sorted(points, key=lambda p: (p[1], p[0]))]

    dead = labels(estimate.dead)
    unsure = [labels(g) for g in estimate.unsure]
    if args.json:
        print(json.dumps({"dead": dead, "unsure": unsure}))
    else:
        print(f"{args.file}: dead {' '.join(dead) or '-'}")
        for group in unsure:
            print(f"  unsure: {' '.join(group)}")
    return OK


def _komi(text: str) -> Decimal:
    try:
        komi = Decimal(text.strip())
    except InvalidOperation:
        raise CliError(f"--komi: {text!r} is not a number", USAGE) from None
    if not komi.is_finite() or abs(komi) > 1000 or (komi * 2) % 1 != 0:
        raise CliError(f"--komi: {text!r} is not a whole or half point", USAGE)
    return komi


def _human(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_human(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return " ".join(_human(v) for v in value) or "-"
    if value is None:
        return "-"
    return str(value)
