"""RxPY side of the differential conformance run.

Builds, for one generated graph, the RxPY pipeline that mirrors the flowrun scenario, runs it
on RxPY's TestScheduler (integer virtual time = flowrun frames, subscription at frame 0) and
returns the recorded events. Also detects the few situations where RxPY is known to differ from
the flowrun spec (see docs/semantics.md, "Differential conformance"): such a graph is reported
as `diverges` with the reason, and the generator draws another one.
"""

from __future__ import annotations

from typing import Any, Callable

import reactivex
from reactivex import Observable, abc
from reactivex import operators as ops
from reactivex.disposable import CompositeDisposable
from reactivex.internal.exceptions import (
    ArgumentOutOfRangeException,
    SequenceContainsNoElementsError,
)
from reactivex.notification import OnCompleted, OnError, OnNext
from reactivex.testing import ReactiveTest, TestScheduler


class FlowrunTestScheduler(TestScheduler):
    """RxPY's TestScheduler, except that `schedule(action)` (run "now") runs the action at once.

    flowrun delivers `just`, `of`, `empty`, `fail`, `startWith`, and switches `concat` and
    `retry` to their next source, synchronously (spec semantics.md, "Virtual time and the
    scheduler"). RxPY routes those through `scheduler.schedule`, which on a plain
    TestScheduler would queue them behind everything already due in the frame. Timed work
    (`schedule_relative`/`schedule_absolute`: cold marbles, hot marbles, timers, debounce…)
    is untouched, so the (frame, sequence) FIFO order is RxPY's own.
    """

    __test__ = False

    def schedule(self, action: Any, state: Any = None) -> abc.DisposableBase:
        return self.invoke_action(action, state)


class FlowError(Exception):
    """An error whose flowrun value is `value` (a marble `#`, `fail:`, `throw(…)`)."""

    def __init__(self, value: Any) -> None:
        super().__init__(str(value))
        self.value = value


def error_value(exc: Exception) -> Any:
    if isinstance(exc, FlowError):
        return exc.value
    if isinstance(exc, SequenceContainsNoElementsError):
        return "no elements in sequence"
    if isinstance(exc, ArgumentOutOfRangeException):
        return "argument out of range"
    return "unexpected RxPY error %s: %s" % (type(exc).__name__, exc)


def marble_messages(events: list[tuple[int, str, Any]], relative: bool) -> list[Any]:
    """(frame, kind, value) → RxPY Recorded messages (kind: 'N', 'E', 'C')."""
    out = []
    for frame, kind, value in events:
        if kind == "N":
            out.append(ReactiveTest.on_next(frame, value))
        elif kind == "E":
            out.append(ReactiveTest.on_error(frame, FlowError(value)))
        else:
            out.append(ReactiveTest.on_completed(frame))
    return out


OFFSET = 5
"""RxPY's clock runs OFFSET ahead of flowrun's frames, so that hot events at negative frames
(before `^`) are real RxPY events that happen before the subscription."""


class Run:
    """One RxPY run: the scheduler plus the divergence flags raised while it ran.

    Use: `subscribe_at_zero(make)` first, then create the hot observables (`hot`), then
    `advance(until)`. The subscription is an action at frame 0 scheduled before every hot
    event, so it comes before the hot events of frame 0 and after those of negative frames,
    and cold marbles and timers subscribed then are queued after the hot events: flowrun's
    setup order (spec semantics.md, "Virtual time and the scheduler").
    """

    def __init__(self) -> None:
        self.scheduler = FlowrunTestScheduler()
        self.diverges: list[str] = []
        self.observer = self.scheduler.create_observer()
        self.post_checks: list[Callable[[], None]] = []

    def flag(self, reason: str) -> None:
        if reason not in self.diverges:
            self.diverges.append(reason)

    @property
    def now(self) -> int:
        return int(self.scheduler.clock) - OFFSET

    # ---- sources -------------------------------------------------------------------------

    def hot(self, events: list[tuple[int, str, Any]]) -> Observable[Any]:
        shifted = [(frame + OFFSET, kind, value) for frame, kind, value in events]
        return self.scheduler.create_hot_observable(marble_messages(shifted, False))

    def cold(self, events: list[tuple[int, str, Any]]) -> Observable[Any]:
        return self.scheduler.create_cold_observable(marble_messages(events, True))

    def timer(self, d: int) -> Observable[Any]:
        """`timer: d`. RxPY's timer(0) goes through `schedule(action)`, which
        FlowrunTestScheduler runs at once; on RxPY's own TestScheduler (and in flowrun) it is an
        action queued in the current frame. Scheduling it at the absolute current time keeps
        RxPY's own behaviour."""
        if d > 0:
            return reactivex.timer(d, scheduler=self.scheduler)
        return reactivex.defer(lambda _: reactivex.timer(self.scheduler.now, scheduler=self.scheduler))

    # ---- wrappers that detect documented differences -------------------------------------

    def combine_latest(self, sources: list[Observable[Any]]) -> Observable[Any]:
        """RxPY completes combine_latest early: when an input emits while every other input
        has completed and some input never sent a value (flowrun waits for every input to
        complete, RxJS 7)."""
        run = self

        def subscribe(observer: Any, scheduler: Any = None) -> Any:
            n = len(sources)
            has_value = [False] * n
            done = [False] * n

            def tracked(i: int) -> Observable[Any]:
                def on_next(_: Any) -> None:
                    if not all(has_value) and all(done[j] for j in range(n) if j != i):
                        run.flag("combine_latest completes early (an input completed empty)")
                    has_value[i] = True

                def on_completed() -> None:
                    done[i] = True

                return sources[i].pipe(ops.do_action(on_next=on_next, on_completed=on_completed))

            return reactivex.combine_latest(*[tracked(i) for i in range(n)]).subscribe(
                observer, scheduler=scheduler
            )

        return Observable(subscribe)

    def skip_until(self, source: Observable[Any], other: Observable[Any]) -> Observable[Any]:
        """RxPY's skip_until never completes when the source completes before the notifier
        has sent a value (flowrun, RxJS: completes with the source)."""
        run = self

        def subscribe(observer: Any, scheduler: Any = None) -> Any:
            state = {"open": False}

            def opened(_: Any) -> None:
                state["open"] = True

            def src_completed() -> None:
                if not state["open"]:
                    run.flag("skip_until: source completed before the notifier fired")

            tracked_other = other.pipe(ops.do_action(on_next=opened))
            tracked_src = source.pipe(ops.do_action(on_completed=src_completed))
            return tracked_src.pipe(ops.skip_until(tracked_other)).subscribe(observer, scheduler=scheduler)

        return Observable(subscribe)

    def sample(self, source: Observable[Any], sampler: Observable[Any]) -> Observable[Any]:
        """RxPY's sample completes at the sampler's next tick after the source completed
        (flowrun, RxJS: at once), and emits the pending value when the sampler completes
        (flowrun, RxJS: ignores the sampler's completion)."""
        run = self

        def subscribe(observer: Any, scheduler: Any = None) -> Any:
            state = {"pending": False}

            def src_next(_: Any) -> None:
                state["pending"] = True

            def src_completed() -> None:
                run.flag("sample: source completed")

            def tick(_: Any = None) -> None:
                state["pending"] = False

            def sampler_completed() -> None:
                if state["pending"]:
                    run.flag("sample: sampler completed with a value pending")

            tracked_src = source.pipe(ops.do_action(on_next=src_next, on_completed=src_completed))
            tracked_sampler = sampler.pipe(ops.do_action(on_next=tick, on_completed=sampler_completed))
            return tracked_src.pipe(ops.sample(tracked_sampler)).subscribe(observer, scheduler=scheduler)

        return Observable(subscribe)

    def throttle_first(self, source: Observable[Any], d: int) -> Observable[Any]:
        """RxPY's throttle_first compares clock times: a value exactly `d` frames after the
        last emitted one passes. flowrun closes the window with a timer action, so such a value
        passes only if it was scheduled after that timer (FIFO)."""
        run = self

        def subscribe(observer: Any, scheduler: Any = None) -> Any:
            state: dict[str, Any] = {"last": None}

            def on_next(_: Any) -> None:
                last = state["last"]
                if last is None or run.now - last >= d:
                    if last is not None and run.now - last == d:
                        run.flag("throttle_first: value exactly at the window's end")
                    state["last"] = run.now

            return source.pipe(
                ops.do_action(on_next=on_next), ops.throttle_first(d, scheduler=run.scheduler)
            ).subscribe(observer, scheduler=scheduler)

        return Observable(subscribe)

    def delay(self, source: Observable[Any], d: int) -> Observable[Any]:
        """Two differences. RxPY's delay delays the completion by `d` too; flowrun (RxJS 7)
        completes right after the last delayed value, or at once when none is pending: they
        agree only when the completion comes in the frame of the last value. And RxPY keeps
        one timer: when it fires it delivers every value then due and schedules itself again
        for the next one, where flowrun (RxJS 7) schedules one timer per value when the value
        arrives; the two orders differ against other actions of the same frame, so a value
        arriving while another is still pending is flagged."""
        run = self

        def subscribe(observer: Any, scheduler: Any = None) -> Any:
            state: dict[str, Any] = {"last": None}

            def on_next(_: Any) -> None:
                if state["last"] is not None and run.now <= state["last"] + d:
                    run.flag("delay: a value arrives while another is pending (RxPY drains them in one timer)")
                state["last"] = run.now

            def on_completed() -> None:
                if state["last"] != run.now:
                    run.flag("delay: completion not in the frame of the last value")

            return source.pipe(
                ops.do_action(on_next=on_next, on_completed=on_completed),
                ops.delay(d, scheduler=run.scheduler),
            ).subscribe(observer, scheduler=scheduler)

        return Observable(subscribe)

    def timeout(self, source: Observable[Any], d: int) -> Observable[Any]:
        """RxPY's timeout starts its first timer before it subscribes the source; flowrun
        (RxJS 7) subscribes first and then starts it. The two differ only when a source event
        falls in the very frame the timer fires. A shadow subscription to the source (never
        disposed, so it sees that frame even when the timeout ended everything) tells whether
        the source had an event in a frame where the timer fired: such a graph is flagged."""
        run = self

        def subscribe(observer: Any, scheduler: Any = None) -> Any:
            fired: list[int] = []
            frames: set[int] = set()

            def seen(*_: Any) -> None:
                frames.add(run.now)

            source.subscribe(seen, seen, seen, scheduler=scheduler)

            def fire(_: Any) -> Observable[Any]:
                fired.append(run.now)
                return reactivex.throw(FlowError("timeout"))

            def check() -> None:
                if any(frame in frames for frame in fired):
                    run.flag("timeout: a source event in the frame the timer fires")

            run.post_checks.append(check)
            return source.pipe(
                ops.timeout(d, reactivex.defer(fire), scheduler=run.scheduler)
            ).subscribe(observer, scheduler=scheduler)

        return Observable(subscribe)

    def reduce(self, source: Observable[Any], fn: Callable[[Any, Any], Any], seed: Any, has_seed: bool) -> Observable[Any]:
        """Without a seed, RxPY's reduce of an empty source fails with 'Sequence contains no
        elements'; flowrun (RxJS 7) just completes."""
        if has_seed:
            return source.pipe(ops.reduce(fn, seed))
        run = self

        def subscribe(observer: Any, scheduler: Any = None) -> Any:
            state = {"seen": False}

            def on_next(_: Any) -> None:
                state["seen"] = True

            def on_completed() -> None:
                if not state["seen"]:
                    run.flag("reduce without seed of an empty source")

            return source.pipe(
                ops.do_action(on_next=on_next, on_completed=on_completed), ops.reduce(fn)
            ).subscribe(observer, scheduler=scheduler)

        return Observable(subscribe)

    # ---- running -------------------------------------------------------------------------

    def subscribe_at_zero(self, make: Callable[[], Observable[Any]]) -> None:
        def action(scheduler: Any, state: Any = None) -> None:
            make().subscribe(self.observer, scheduler=self.scheduler)

        self.scheduler.schedule_absolute(OFFSET, action)

    def advance(self, until: int) -> list[tuple[int, str, Any]]:
        self.scheduler.advance_to(until + OFFSET)
        for check in self.post_checks:
            check()
        events: list[tuple[int, str, Any]] = []
        for message in self.observer.messages:
            frame = int(message.time) - OFFSET
            notification = message.value
            if isinstance(notification, OnNext):
                events.append((frame, "N", notification.value))
            elif isinstance(notification, OnError):
                events.append((frame, "E", error_value(notification.exception)))
            else:
                events.append((frame, "C", None))
        return events


def materialized(notification: Any) -> Any:
    """RxPY Notification → flowrun's materialize value."""
    if isinstance(notification, OnNext):
        return Frozen({"kind": "next", "value": notification.value})
    if isinstance(notification, OnError):
        return Frozen({"kind": "error", "error": error_value(notification.exception)})
    if isinstance(notification, OnCompleted):
        return Frozen({"kind": "completed"})
    raise TypeError(notification)


class Frozen(dict):  # type: ignore[type-arg]
    """A map value (hashable enough for distinct_until_changed, which only uses ==)."""

    def __hash__(self) -> int:  # pragma: no cover - not used for lookups
        return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))


__all__ = [
    "CompositeDisposable",
    "FlowError",
    "FlowrunTestScheduler",
    "Frozen",
    "Run",
    "error_value",
    "materialized",
]
