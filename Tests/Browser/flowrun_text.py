"""Parsers for flowrun's own text outputs, the oracles the browser tests compare the page with.

`flowrun trace <file>` gives the deliveries of each frame; `flowrun diagram <file> --format text`
gives the events of every lane at every frame (and the legend that names their values). Both are
produced from the same run as the HTML page but by different renderers, so agreeing with them
checks what the page shows, not how it is built.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

_FRAME_HEADER = re.compile(r"^frame (\d+) \((.+)\)$")
_SETUP_HEADER = "setup (before any scheduled action)"
_EVENT_WORDS = ("next ", "set ", "current ", "completed", "error", "dropped ")


def squash(text: str) -> str:
    """Collapses every run of white space to one space (the trace pads names into columns)."""
    return " ".join(text.split())


@dataclass
class Delivery:
    depth: int
    text: str  # white space squashed, with the leading "→ " when depth > 0

    @property
    def name_and_what(self) -> str:
        return self.text[2:] if self.text.startswith("→ ") else self.text

    def is_event(self) -> bool:
        """A value, completion or error at a node, or a rejected execution (not a subscription,
        disposal or timeline action)."""
        rest = self.name_and_what
        return any(f" {word}" in f" {rest}" for word in _EVENT_WORDS) or " rejected (" in rest


@dataclass
class Trace:
    headers: dict[int, str] = field(default_factory=dict)  # frame -> "frame 3 (300 ms)"
    setup: list[Delivery] = field(default_factory=list)
    frames: dict[int, list[Delivery]] = field(default_factory=lambda: defaultdict(list))

    def deliveries(self, frame: int) -> list[Delivery]:
        """What the page lists for `frame`: the setup first when frame is 0."""
        return (self.setup if frame == 0 else []) + list(self.frames.get(frame, []))

    def busy_frames(self) -> set[int]:
        busy = set(f for f, lines in self.frames.items() if lines)
        if self.setup:
            busy.add(0)
        return busy


def split_scenarios(text: str, path: str) -> list[str]:
    """The blocks of a multi-scenario output, one per scenario: each starts with the scenario's
    name, then a line `<path>  ·  tick …`."""
    lines = text.splitlines()
    starts = [i - 1 for i, line in enumerate(lines) if i > 0 and line.startswith(path + "  ·  tick ")]
    assert starts, f"no scenario header for {path} in:\n{text}"
    ends = starts[1:] + [len(lines)]
    return ["\n".join(lines[a:b]) + "\n" for a, b in zip(starts, ends)]


def parse_trace(text: str) -> Trace:
    trace = Trace()
    current: list[Delivery] | None = None
    for raw in text.splitlines():
        if raw.startswith(("✓ ", "✗ ", "! ")):
            break  # the run's summary line
        if raw == _SETUP_HEADER:
            current = trace.setup
            continue
        match = _FRAME_HEADER.match(raw)
        if match:
            frame = int(match.group(1))
            trace.headers[frame] = raw
            current = trace.frames[frame]
            continue
        if current is None or not raw.strip():
            continue
        assert raw.startswith("  "), f"unexpected trace line {raw!r}"
        body = raw[2:]
        spaces = len(body) - len(body.lstrip(" "))
        rest = body[spaces:]
        depth = spaces // 2 + 1 if rest.startswith("→") else 0
        current.append(Delivery(depth=depth, text=squash(rest)))
    return trace


@dataclass
class Lane:
    name: str  # as printed: "hudVisible #1", "fetchSummary rejected", "accountText.subscriptions"
    tokens: list[str]  # one per frame: "-", "a", "(tt)", "^", "▲", " " outside a subscription…

    def events(self, frame: int) -> list[str]:
        """The symbols of the events at `frame`, in order ("" for none)."""
        token = self.tokens[frame]
        if token in ("-", " "):
            return []
        return list(token[1:-1]) if token.startswith("(") else [token]


@dataclass
class TextDiagram:
    frames: int  # number of frames (0…last)
    lanes: list[Lane]
    legend: dict[str, str]


def _token_offsets(rest: str, count: int) -> list[int] | None:
    """Where each frame's token starts, read off a lane that has a token in every frame (None for
    a lane that does not: a subscription that began or ended during the run)."""
    offsets: list[int] = []
    at = 0
    while len(offsets) < count:
        if at >= len(rest) or (not offsets and rest[at] == " "):
            return None
        char = rest[at]
        if char == " ":
            at += 1
        elif char == "(":
            offsets.append(at)
            at = rest.index(")", at) + 1
        else:
            offsets.append(at)
            at += 1
    return offsets


def parse_text_diagram(text: str) -> TextDiagram:
    """The lanes of a one-block text diagram, frame by frame. A small nested lane (a subscriber,
    an inner signal: `↳ a`) is blank outside its subscription; a title too long for the label
    column wraps onto lines of its own above its lane."""
    lines = text.splitlines()
    frames_match = re.search(r"frames 0–(\d+)", text)
    assert frames_match, "no 'frames 0–N' in the text diagram header"
    count = int(frames_match.group(1)) + 1
    ruler = next(i for i, line in enumerate(lines) if line.startswith("frame "))
    column = lines[ruler].index("0", len("frame"))
    lanes: list[Lane] = []
    pending: list[str] = []
    index = ruler + 2  # skip the time line
    block = []
    while index < len(lines) and lines[index].strip():
        block.append(lines[index])
        index += 1
    offsets = next(filter(None, (_token_offsets(line[column:], count) for line in block
                                 if line.startswith("  ") and line[column:].strip())), None)
    assert offsets is not None, "no lane with a token in every frame"
    for line in block:
        if not line.startswith("  "):
            continue  # a group header: signals, properties, commands, expectations
        name = line[:column].strip()
        rest = line[column:]
        if not rest.strip():
            pending.append(name)  # the first part of a wrapped title
            continue
        name = " ".join(pending + [name])
        pending = []
        for mark in ("✓ ", "✗ "):
            if name.startswith(mark):
                name = name[len(mark):]
        assert "…" not in rest, f"folded frames in {line!r}: pick a shorter flow"
        tokens: list[str] = []
        for frame, start in enumerate(offsets):
            # Tokens start at their column (padded on the right); a blank there is no token.
            end = offsets[frame + 1] if frame + 1 < len(offsets) else len(rest)
            tokens.append(rest[start:end].split()[0] if start < len(rest) and rest[start] != " " else " ")
        lanes.append(Lane(name=name, tokens=tokens))
    legend_text = ""
    for line in lines[index:]:
        if line.startswith("legend: "):
            legend_text = line[len("legend: "):]
        elif legend_text and line.startswith("        "):
            legend_text += " " + line.strip()
        elif legend_text:
            break
    legend: dict[str, str] = {}
    if legend_text:
        for part in re.split(r", (?=\S = )", legend_text):
            key, _, value = part.partition(" = ")
            legend[key] = value
    return TextDiagram(frames=count, lanes=lanes, legend=legend)
