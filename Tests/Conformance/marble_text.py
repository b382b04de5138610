"""Marble text shared by the differential conformance drivers (rxpy_diff.py, combine_diff.py):
random input events, flowrun marbles with a legend for the expected events, JSON-as-YAML values."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

Event = tuple  # (frame, kind 'N'|'E'|'C', value)


def to_yaml_value(value: Any) -> Any:
    """A Python value as the JSON/YAML value flowrun compares it with (tuples are lists)."""
    if isinstance(value, (tuple, list)):
        return [to_yaml_value(v) for v in value]
    if isinstance(value, dict):
        return {k: to_yaml_value(v) for k, v in value.items()}
    return value


def canonical(value: Any) -> str:
    return json.dumps(to_yaml_value(value), sort_keys=True)


LEGEND_LETTERS = [c for c in "abcdeghijklnopqrtuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"]  # no f, m, s


class Legend:
    """Tokens for the values of one expected marble: digits 0–9 as themselves, others letters."""

    def __init__(self) -> None:
        self.entries: dict[str, tuple[str, Any]] = {}

    def token(self, value: Any) -> str:
        if type(value) is int and 0 <= value <= 9:
            return str(value)
        key = canonical(value)
        if key not in self.entries:
            if len(self.entries) < len(LEGEND_LETTERS):
                letter = LEGEND_LETTERS[len(self.entries)]
            else:
                letter = "'v%d'" % len(self.entries)
            self.entries[key] = (letter, to_yaml_value(value))
        return self.entries[key][0]

    def values(self) -> dict[str, Any]:
        return {letter.strip("'"): value for letter, value in self.entries.values()}


def marble(events: list[Event], token: Callable[[Any], str]) -> str:
    """Events (frames ≥ 0, in order) as a flowrun marble."""
    by_frame: dict[int, list[str]] = {}
    for frame, kind, value in events:
        sym = token(value) if kind == "N" else ("#" if kind == "E" else "|")
        by_frame.setdefault(frame, []).append(sym)
    if not by_frame:
        return ""
    out = []
    for frame in range(max(by_frame) + 1):
        syms = by_frame.get(frame)
        if not syms:
            out.append("-")
        elif len(syms) == 1:
            out.append(syms[0])
        else:
            out.append("(" + "".join(syms) + ")")
    return "".join(out)


def random_events(rng: random.Random, length: int, error: Any, terminal: bool = True,
                  density: float = 0.45) -> list[Event]:
    """Random input events over `length` frames: digits, sometimes two in a frame."""
    events: list[Event] = []
    for frame in range(length):
        if rng.random() < density:
            for _ in range(2 if rng.random() < 0.12 else 1):
                events.append((frame, "N", rng.randint(0, 9)))
    if terminal:
        r = rng.random()
        if r < 0.5:
            events.append((length, "C", None))
        elif r < 0.7:
            events.append((length, "E", error))
    return events


def hot_marble(events: list[Event]) -> str:
    """A hot input marble; with events at negative frames (one value each at most), `^` marks
    frame 0, which the generator leaves empty."""
    first = min((f for f, _, _ in events), default=0)
    if first >= 0:
        return marble(events, digit_token)
    before = {f: v for f, k, v in events if f < 0}
    prefix = "".join(str(before[f]) if f in before else "-" for f in range(first, 0))
    rest = marble([e for e in events if e[0] > 0], digit_token)
    return prefix + "^" + rest[1:]


def digit_token(value: Any) -> str:
    return str(value)


def dump(value: Any) -> str:
    return json.dumps(to_yaml_value(value), ensure_ascii=False)
