"""The sandbox: one QuickJS context per script run, on a worker thread, with a
memory limit and a wall-clock deadline that also covers host calls.

Why not ``Context.set_time_limit``: the quickjs binding refuses every call into
Python while a time limit is set, and the host API (fs, http, shell...) is
Python. So the deadline is enforced with QuickJS's own interrupt handler,
installed through ``JS_SetInterruptHandler`` (exported by the binding's shared
library): QuickJS asks it every few thousand operations whether to stop, and
it answers from the run's deadline and cancel flag. The interrupt is
uncatchable in JavaScript, so ``try { while (true) {} } catch {}`` stops too.
The binding releases the GIL while JavaScript runs, so a runaway script only
occupies its own worker thread, never the event loop.
"""

from __future__ import annotations

import itertools
import logging
import queue
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("agenthost.js")

_THREAD_STACK = 16 * 1024 * 1024  # QuickJS's own stack guard (1 MB) must fire first
_MAX_WORKERS = 32
_STOP_HEADROOM = 1024 * 1024


class ScriptError(Exception):
    """A script failed: ``kind`` is interrupted / out_of_memory / stack_overflow /
    error; ``line`` is the script line when known."""

    def __init__(self, message: str, kind: str = "error", line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.line = line


# -- the interrupt handler ---------------------------------------------------


_runs: dict[int, Run] = {}
_run_ids = itertools.count(1)


def _interrupt(_rt: int | None, opaque: int | None) -> int:
    run = _runs.get(opaque or 0)
    if run is None or not run.should_stop():
        return 0
    if run.context is not None and not run.stopping:
        # Throwing the uncatchable "interrupted" error allocates: a script that
        # sits at its memory limit and catches the OutOfMemory errors would
        # otherwise never stop. Give it a little room to die in.
        run.stopping = True
        run.context.set_memory_limit(run.max_memory + _STOP_HEADROOM)
    return 1


class _Interrupts:
    """Installs ``_interrupt`` on a context's runtime, after checking that the
    binding's object layout is the one this code reads.

    The binding (and ctypes) load on the first ``install``, not at import:
    listing tools must not pay for them."""

    def __init__(self) -> None:
        self.error: str | None = None
        self._lib: Any = None
        self._handler: Any = None  # the C callback; kept referenced while installed
        self._loaded = False
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if not self._loaded:
                self._open()
                self._loaded = True

    def _open(self) -> None:
        import ctypes

        try:
            import _quickjs

            self._handler = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(_interrupt)
            lib = ctypes.CDLL(_quickjs.__file__)
            lib.JS_GetRuntime.restype = ctypes.c_void_p
            lib.JS_GetRuntime.argtypes = [ctypes.c_void_p]
            lib.JS_SetInterruptHandler.restype = None
            lib.JS_SetInterruptHandler.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
            self._lib = lib
        except (ImportError, OSError, AttributeError) as e:
            self.error = f"cannot reach QuickJS's interrupt handler: {e}"

    def install(self, context: Any, run_id: int) -> bool:
        if not self._loaded:
            self._load()
        if self._lib is None:
            return False
        import ctypes

        # PyJsContextObject: PyObject_HEAD, then JSRuntime *runtime, JSContext *context
        base = id(context)
        header = object.__basicsize__
        runtime = ctypes.c_void_p.from_address(base + header).value
        js_context = ctypes.c_void_p.from_address(base + header + ctypes.sizeof(ctypes.c_void_p)).value
        if not runtime or not js_context or self._lib.JS_GetRuntime(js_context) != runtime:
            self.error = "the quickjs binding's context layout changed; scripts cannot be interrupted"
            self._lib = None
            return False
        self._lib.JS_SetInterruptHandler(runtime, ctypes.cast(self._handler, ctypes.c_void_p), run_id)
        return True


interrupts = _Interrupts()


# -- one run -------------------------------------------------------------------


@dataclass(eq=False)
class Run:
    """The limits and state of one script run, shared by the worker thread,
    the interrupt handler and the awaiting coroutine."""

    timeout_s: float
    max_memory: int
    deadline: float = 0.0
    cancelled: threading.Event = field(default_factory=threading.Event)
    id: int = 0
    context: Any = field(default=None, repr=False)
    stopping: bool = False

    def start(self) -> None:
        self.deadline = time.monotonic() + self.timeout_s

    def should_stop(self) -> bool:
        return self.cancelled.is_set() or time.monotonic() >= self.deadline

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def cancel(self) -> None:
        self.cancelled.set()


_LINE = re.compile(r"<input>:(\d+)(?::\d+)?")


def describe_exception(error: BaseException, run: Run | None) -> ScriptError:
    """A binding exception as a one-line ``ScriptError`` with its line."""
    text = str(error).strip()
    first = text.splitlines()[0] if text else type(error).__name__
    match = _LINE.search(text)
    line = int(match[1]) if match else None
    # where an interrupt or an allocation failure surfaces says nothing useful: no line
    if "interrupted" in first:
        if run is not None and run.cancelled.is_set():
            return ScriptError("the script was cancelled", "cancelled")
        limit = f"{run.timeout_s:g} s" if run else "its time limit"
        return ScriptError(f"the script ran longer than {limit} and was stopped", "interrupted")
    if "out of memory" in first:
        limit = f"{run.max_memory:,} bytes" if run else "its memory limit"
        return ScriptError(f"the script used more memory than {limit} and was stopped", "out_of_memory")
    if "stack" in first.lower() and ("overflow" in first.lower() or "call stack" in first):
        return ScriptError(f"the script recursed too deeply ({first})", "stack_overflow", line)
    return ScriptError(first, "error", line)


# -- the worker threads -------------------------------------------------------


class _Pool:
    """Worker threads with a large stack; a new one starts when all are busy
    (up to a cap), so one runaway script never delays another."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0
        self._count = 0

    def submit(self, fn: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self._idle == 0 and self._count < _MAX_WORKERS:
                self._spawn()
            else:
                self._idle -= 1
        self._jobs.put((fn, future))
        return future

    def _spawn(self) -> None:
        self._count += 1
        old = threading.stack_size()
        try:
            threading.stack_size(_THREAD_STACK)
            thread = threading.Thread(target=self._work, name=f"agenthost-js-{self._count}", daemon=True)
            thread.start()
        finally:
            threading.stack_size(old)

    def _work(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            fn, future = item
            del item
            outcome: Any = None
            failed = False
            if future.set_running_or_notify_cancel():
                try:
                    outcome = fn()
                except BaseException as e:
                    outcome, failed = e, True
            del fn
            with self._lock:  # idle before the caller hears back, so its next job reuses this thread
                self._idle += 1
            if not future.done():
                if failed:
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)
            del future, outcome

    @property
    def threads(self) -> int:
        return self._count


pool = _Pool()


# -- running a script -----------------------------------------------------------


Bridge = Callable[[str, str], str]


def run_script(run: Run, prelude: str, source: str, bridge: Bridge, start: str, result: str) -> Any:
    """Evaluate ``prelude``, then ``source`` (its line numbers count from its
    own first line), then the expression ``start``; settle pending promises;
    return the value of the expression ``result`` (a string, number or null).

    Runs on the calling thread (use ``pool``), which also frees the context.
    Raises ``ScriptError`` for faults the script did not catch itself.
    """
    import quickjs

    run.id = next(_run_ids)
    _runs[run.id] = run
    context = quickjs.Context()
    run.context = context
    try:
        context.set_memory_limit(run.max_memory)
        run.start()
        if not interrupts.install(context, run.id):
            log.warning("JS scripts run without a time limit: %s", interrupts.error)
        context.add_callable("__host", bridge)
        try:
            context.eval(prelude)
        except quickjs.JSException as e:  # the prelude is ours: a fault here is a bug
            raise ScriptError(f"the JS prelude failed: {describe_exception(e, run).message}") from None
        try:
            context.eval(source)
            context.eval(start)
            while context.execute_pending_job():  # an async execute(): settle its promise
                pass
            if run.should_stop():  # it got past its deadline inside a host call (sleep, http)
                raise ScriptError(
                    "the script was cancelled"
                    if run.cancelled.is_set()
                    else f"the script ran longer than {run.timeout_s:g} s and was stopped",
                    "cancelled" if run.cancelled.is_set() else "interrupted",
                )
            value = context.eval(result)
        except quickjs.JSException as e:
            raise describe_exception(e, run) from None
        if not isinstance(value, (str, int, float, type(None))):
            raise ScriptError("the script runner returned an unexpected value")
        return value
    finally:
        _runs.pop(run.id, None)
        run.context = None
        del context  # freed here, on the thread that used it
