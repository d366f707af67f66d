"""``aria bench ui``: how fast the Streamlit UI is in a real browser, and what it adds to the engine.

Starts ``aria demo`` (scripted test model) on ``ARIA_HOME``, drives it with Playwright and Debian's
``/usr/bin/chromium`` (never ``playwright install``), and measures per run, in a fresh browser page:

- **load**: navigation start -> the chat input is present and editable (browser clock);
- **answer**: the Enter key -> the answer's result table *and* chart are drawn (browser clock), for the
  page's first question (the browser also loads the table and chart code then) and for the last of
  ``questions`` asked in the same page (2 by default: a typical answer in a session; more shows how a long
  conversation wears on it);
- **engine**: each answer's own trace duration (sum of its steps), read from the query log;
- **overhead**: answer - engine.

The engine alone is also timed in-process on the same question (wall time of ``Engine.ask``,
which adds the query-log write and the business clock to the trace's steps), so the overhead can
be read against either. Nothing here asserts a time; it reports medians.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import AlreadyRunning, AriaError, ConfigError
from aria.procs import LOCK_FILE, lock_holder
from aria.reflect.trace import Trace

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
DEMO_SCRIPT = REPO / "tests" / "data" / "scripted" / "demo.json"
# The browser test's question: no verified query matches it, so the whole scripted flow runs.
QUESTION = "Liệt kê năm món có số phần cao nhất trong bảy ngày qua"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]
READY_LINE = "Aria is ready at "
CHAT_READY_JS = """() => {
  const box = document.querySelector('[data-testid="stChatInputTextArea"]');
  return box && !box.disabled && !box.readOnly && box.offsetParent !== null ? performance.now() : null;
}"""
# The n-th answer is drawn when the page holds n questions and n answers and the last answer has its
# table and chart drawn (only chat messages count: the empty chat also holds a hidden preload chart and
# table, see aria.ui.results.preload_components; older answers keep only their sentence, see aria.ui.chat).
RENDERED_JS = """(n) => {
  const messages = document.querySelectorAll('[data-testid="stChatMessage"]');
  if (messages.length < 2 * n || !window.__ariaSubmit) return null;
  const last = messages[messages.length - 1];
  const table = last.querySelector('[data-testid="stDataFrame"] canvas');
  const chart = last.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot .main-svg');
  return table && chart ? performance.now() : null;
}"""
PRELOADED_JS = """() => {
  const box = document.querySelector('.st-key-aria_preload');
  const drawn = box && box.querySelector('[data-testid="stDataFrame"] canvas') && box.querySelector('.main-svg');
  return drawn ? performance.now() : null;
}"""
MARK_SUBMIT_JS = """() => { window.__ariaSubmit = null; document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') { window.__ariaSubmit = performance.now(); }
}, {capture: true, once: true}); }"""


@dataclass(frozen=True)
class UiAnswer:
    answer_ms: float
    engine_ms: float
    status: str
    llm_calls: int

    @property
    def overhead_ms(self) -> float:
        return round(self.answer_ms - self.engine_ms, 1)


@dataclass(frozen=True)
class UiRun:
    """One fresh browser page: its load, its first question, and its last question (the ``questions``-th).

    ``ready_ms``: navigation start -> the page's hidden preloaded chart and table are drawn (the chat input
    is usable before that, at ``load_ms``); the first question is asked after it.
    """

    load_ms: float
    ready_ms: float
    first: UiAnswer
    later: UiAnswer


@dataclass(frozen=True)
class UiBenchReport:
    home: str
    question: str
    questions: int
    demo_ready_s: float
    first_load_ms: float
    first_answer_ms: float
    runs: list[UiRun] = field(default_factory=list)
    engine_inprocess_ms: list[float] = field(default_factory=list)

    def medians(self) -> dict[str, float | None]:
        """Median figures over the runs (ms)."""
        out: dict[str, float | None] = {"load_ms": _median([r.load_ms for r in self.runs]),
                                        "ready_ms": _median([r.ready_ms for r in self.runs])}
        for which in ("first", "later"):
            answers = [getattr(r, which) for r in self.runs]
            for name in ("answer_ms", "engine_ms", "overhead_ms"):
                out[f"{which}_{name}"] = _median([getattr(a, name) for a in answers])
        inprocess = _median(self.engine_inprocess_ms) if self.engine_inprocess_ms else None
        out["engine_inprocess_ms"] = inprocess
        for which in ("first", "later"):
            answer = out[f"{which}_answer_ms"]
            out[f"{which}_overhead_vs_inprocess_ms"] = None if inprocess is None or answer is None \
                else round(answer - inprocess, 1)
        return out

    def as_dict(self) -> dict[str, Any]:
        runs = [{"load_ms": r.load_ms, "ready_ms": r.ready_ms, **{w: asdict(getattr(r, w)) | {"overhead_ms": getattr(r, w).overhead_ms}
                                          for w in ("first", "later")}} for r in self.runs]
        return {**asdict(self), "runs": runs, "median": self.medians()}


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def repeated_script(copies: int, folder: Path, source: Path = DEMO_SCRIPT) -> Path:
    """``demo.json`` with every role's responses repeated: the scripted model answers each role once per
    response, so a server that answers ``copies`` questions needs ``copies`` of each."""
    data = json.loads(source.read_text(encoding="utf-8"))
    repeated = {k: (v * copies if not k.startswith("_") else v) for k, v in data.items()}
    repeated["_about"] = f"{data.get('_about', '')} (repeated x{copies} by aria bench ui)"
    path = folder / f"ui-bench-{source.name}"
    path.write_text(json.dumps(repeated, ensure_ascii=False), encoding="utf-8")
    return path


def check_lock_free(home: Path) -> None:
    """Refuse early when another demo holds ``ARIA_HOME``'s lock (the demo would refuse anyway)."""
    pid = lock_holder(home)
    if pid is not None:
        raise AlreadyRunning(f"An Aria demo (pid {pid}) already holds {home / LOCK_FILE}.",
                             hint="Stop it, or point ARIA_HOME at another seeded home.")


@contextlib.contextmanager
def running_demo(home: Path, port: int, script: Path, timeout_s: float = 600) -> Iterator[tuple[str, float]]:
    """``aria demo --port P --no-browser`` on ``home``; yields (url, seconds until it said ready)."""
    config = Path(tempfile.mkdtemp(prefix="aria-uib")) / "aria.toml"  # no user settings file
    env = {**os.environ, "ARIA_HOME": str(home), "ARIA_LLM": f"scripted:{script}", "HF_HUB_OFFLINE": "1",
           "ARIA_CONFIG": str(config)}
    command = [str(Path(sys.executable).parent / "aria"), "demo", "--port", str(port), "--no-browser"]
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, bufsize=1)
    ready = threading.Event()
    lines: list[str] = []

    def pump() -> None:  # keep reading so the demo never blocks on a full pipe
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip())
            if READY_LINE in line:
                ready.set()

    threading.Thread(target=pump, daemon=True).start()
    try:
        while not ready.wait(0.2):
            if process.poll() is not None or time.monotonic() - started > timeout_s:
                tail = " | ".join(lines[-5:])
                raise AriaError(f"aria demo did not become ready ({tail or 'no output'}).",
                                hint="Is the port free and ARIA_HOME's database startable?")
        yield f"http://127.0.0.1:{port}", time.monotonic() - started
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)


def _load(page: Any, url: str) -> tuple[float, float]:
    """Milliseconds from navigation start to an editable chat input, and to the preloaded chart and table
    being drawn (the browser's own clock)."""
    page.goto(url, wait_until="commit")
    usable = float(page.wait_for_function(CHAT_READY_JS, polling="raf", timeout=180_000).json_value())
    ready = float(page.wait_for_function(PRELOADED_JS, polling="raf", timeout=180_000).json_value())
    return usable, max(usable, ready)


def _ask(page: Any, question: str, nth: int = 1) -> float:
    """Milliseconds from the Enter key to the page's ``nth`` result table and chart both being drawn."""
    page.evaluate(MARK_SUBMIT_JS)
    chat = page.get_by_test_id("stChatInputTextArea")
    chat.fill(question)
    chat.press("Enter")
    done = float(page.wait_for_function(RENDERED_JS, arg=nth, polling="raf", timeout=300_000).json_value())
    return done - float(page.evaluate("window.__ariaSubmit"))


def _latest_trace(settings: Settings, targets: Targets, question: str, after_id: int) -> tuple[int, str, Trace]:
    """The newest query-log entry for ``question`` with an id above ``after_id``."""
    log = _query_log(settings, targets, limit=20)
    rows = log[(log["question"] == question) & (log["id"] > after_id)]
    if rows.empty:
        raise AriaError("The demo's answer is not in the query log.", hint="Is the bench reading the demo's ARIA_HOME?")
    row = rows.iloc[0]
    raw = row["trace"]
    trace = Trace.model_validate(json.loads(raw) if isinstance(raw, str) else raw)
    return int(row["id"]), str(row["status"]), trace


def _query_log(settings: Settings, targets: Targets, *, limit: int) -> Any:
    """The newest ``limit`` query-log entries as a DataFrame (what the History page reads)."""
    import pandas as pd

    from aria.kb.store import KnowledgeStore

    store = KnowledgeStore(targets.kb, settings)
    try:
        columns, rows = store.query_log_list(limit)
    finally:
        store.close()
    return pd.DataFrame(rows, columns=columns)


def _last_log_id(settings: Settings, targets: Targets) -> int:
    log = _query_log(settings, targets, limit=1)
    return int(log["id"].iloc[0]) if not log.empty else 0


def browse(url: str, settings: Settings, targets: Targets, *, runs: int, question: str,
           questions: int = 2) -> tuple[float, float, list[UiRun]]:
    """A cold first page and a warm-up question (it builds the engine), then ``runs`` fresh pages of
    ``questions`` questions each."""
    from playwright.sync_api import sync_playwright

    results: list[UiRun] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROME_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000})  # one HTTP cache, like a
            # manager's browser coming back; every run is a new page, so a new Streamlit session

            def fresh_page() -> Any:
                return context.new_page()

            page = fresh_page()
            first_load, _ = _load(page, url)
            first_answer = _ask(page, question)
            page.close()
            last_id = _last_log_id(settings, targets)
            for _ in range(runs):
                page = fresh_page()
                load_ms, ready_ms = _load(page, url)
                answers = []
                for nth in range(1, questions + 1):
                    answer_ms = _ask(page, question, nth)
                    last_id, status, trace = _latest_trace(settings, targets, question, last_id)
                    answers.append(UiAnswer(round(answer_ms, 1), round(trace.duration_ms, 1), status, trace.llm_calls))
                page.close()
                results.append(UiRun(round(load_ms, 1), round(ready_ms, 1), answers[0], answers[-1]))
        finally:
            browser.close()
    return first_load, first_answer, results


def time_engine(settings: Settings, targets: Targets, script: Path, question: str, runs: int) -> list[float]:
    """Wall milliseconds of ``Engine.ask`` in this process on the same question and script (after a warm-up)."""
    from aria.reflect.factory import open_engine

    engine = open_engine(settings.model_copy(update={"llm": f"scripted:{script}"}), targets=targets)
    times: list[float] = []
    try:
        engine.ask(question)
        for _ in range(runs):
            started = time.perf_counter()
            engine.ask(question)
            times.append(round((time.perf_counter() - started) * 1000, 1))
    finally:
        engine.close()
    return times


def run_ui_bench(settings: Settings, targets: Targets, *, port: int, runs: int, questions: int = 2,
                 question: str = QUESTION) -> UiBenchReport:
    """Start the demo on ``settings.home``, measure ``runs`` fresh pages, then the engine alone."""
    if questions < 2:
        raise ConfigError("--questions must be at least 2 (the first and a later answer are compared).")
    if not CHROMIUM.exists():
        raise ConfigError(f"No browser at {CHROMIUM}.", hint="apt-get install -y chromium (never `playwright install`).")
    check_lock_free(settings.home)
    folder = Path(tempfile.mkdtemp(prefix="aria-uib"))
    script = repeated_script(questions * runs + 2, folder)
    with running_demo(settings.home, port, script) as (url, ready_s):
        first_load, first_answer, results = browse(url, settings, targets, runs=runs, question=question,
                                                   questions=questions)
    inprocess = time_engine(settings, targets, script, question, runs)
    return UiBenchReport(str(settings.home), question, questions, round(ready_s, 1), round(first_load, 1),
                         round(first_answer, 1), results, inprocess)


def ui_markdown(report: UiBenchReport) -> str:
    m = report.medians()
    answers = [a for r in report.runs for a in (r.first, r.later)]
    statuses = ", ".join(sorted({f"{a.status} ({a.llm_calls} model calls)" for a in answers}))
    lines = [
        f"ARIA_HOME {report.home} · {len(report.runs)} fresh pages × {report.questions} questions · “{report.question}” · {statuses}",
        f"Demo ready after {report.demo_ready_s} s; very first page {report.first_load_ms:.0f} ms; "
        f"very first question (builds the engine) {report.first_answer_ms:.0f} ms.", "",
        f"| figure (median, ms) | page's 1st question | question {report.questions}, same page | target |",
        "|---|---|---|---|",
        f"| page navigation → chat input interactive (warm server) | {m['load_ms']:.0f} | | ≤ 3000 |",
        f"| page navigation → hidden preloaded chart and table drawn | {m['ready_ms']:.0f} | | |",
        f"| Enter → table and chart drawn | {m['first_answer_ms']:.0f} | {m['later_answer_ms']:.0f} | |",
        f"| engine's own time (that answer's trace) | {m['first_engine_ms']:.0f} | {m['later_engine_ms']:.0f} | |",
        f"| **UI overhead** (drawn − trace) | {m['first_overhead_ms']:.0f} | {m['later_overhead_ms']:.0f} | ≤ 300 |",
    ]
    if m["engine_inprocess_ms"] is not None:
        lines += [f"| engine alone in-process (`Engine.ask` wall, incl. query log) | {m['engine_inprocess_ms']:.0f} | "
                  f"{m['engine_inprocess_ms']:.0f} | |",
                  f"| UI overhead (drawn − engine in-process) | {m['first_overhead_vs_inprocess_ms']:.0f} | "
                  f"{m['later_overhead_vs_inprocess_ms']:.0f} | ≤ 300 |"]
    return "\n".join(lines)
