"""A real Chromium (Playwright) against a real Aria server: ask, see table/chart/trace, Confirm.

Screenshots go to artifacts/ (gitignored). Needs /usr/bin/chromium (never `playwright install`).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "artifacts"
SCRIPT = REPO / "tests" / "data" / "scripted" / "demo.json"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install -y chromium)"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(url: str, process: subprocess.Popen[bytes], timeout_s: float = 180) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert process.poll() is None, f"server exited with {process.returncode}"
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:  # noqa: S310
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{url} did not become healthy")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, aria_home: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """``aria demo`` on a free port with the scripted test model, on the session's seeded database."""
    request.getfixturevalue("seeded")  # seeded with the test clock, so the demo does not reseed
    port = free_port()
    env = {**os.environ, "ARIA_HOME": str(aria_home), "HF_HUB_OFFLINE": "1",
           "ARIA_LLM": f"scripted:{SCRIPT}", "ARIA_CONFIG": str(tmp_path_factory.mktemp("cfg") / "aria.toml")}
    command = [str(Path(sys.executable).parent / "aria"), "demo", "--port", str(port), "--no-browser"]
    process = subprocess.Popen(command, env=env, cwd=REPO)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_ask_see_table_chart_trace_and_confirm(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server, wait_until="networkidle")
        chat = page.get_by_test_id("stChatInputTextArea")
        expect(chat).to_be_visible(timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "chat_empty.png"), full_page=True)
        chat.fill("Liệt kê năm món có số phần cao nhất trong bảy ngày qua")
        chat.press("Enter")
        answer = page.get_by_test_id("stChatMessage")  # the page also holds a hidden preload chart and table
        expect(answer.get_by_test_id("stDataFrame").first).to_be_visible(timeout=120_000)
        expect(answer.locator(".js-plotly-plot").first).to_be_visible(timeout=30_000)
        expect(page.get_by_text(re.compile(r"Score_r \d")).filter(visible=True).first).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "chat_answer.png"), full_page=True)
        page.get_by_role("button", name="Xác nhận").click()
        apply = page.get_by_role("button", name="Lưu vào cơ sở tri thức")
        expect(apply).to_be_visible(timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "chat_confirm_preview.png"), full_page=True)
        apply.click()
        expect(page.get_by_text("Đã lưu vào cơ sở tri thức.")).to_be_visible(timeout=30_000)
        page.get_by_text("Aria đã làm gì").click()
        page.wait_for_timeout(1000)  # let the expander finish opening before the screenshot
        page.screenshot(path=str(ARTIFACTS / "chat_confirmed_trace.png"), full_page=True)
        browser.close()
