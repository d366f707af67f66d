"""OpenID Connect end to end in a real Chromium: ``aria demo --address 0.0.0.0`` with sign-in through a
real provider (oidc-provider-mock on 127.0.0.1), configured only by Aria's settings.

An unauthenticated page load shows the sign-in screen and no business data; a manager signs in through
the provider, asks, confirms, and the KB revision names them; a viewer signs in, gets an answer, and
has no Confirm and no SQL workbench (refused by the server, not only hidden).
Screenshots go to artifacts/ (gitignored). Needs /usr/bin/chromium (never `playwright install`).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from psycopg import sql

from aria.config import Settings
from aria.db.connect import Targets, connect
from aria.kb.accounts import add_user
from aria.kb.users import UserStore
from tests.app.test_browser import ARGS, ARTIFACTS, CHROMIUM, REPO, SCRIPT, free_port, wait_healthy

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install -y chromium)"),
]
MANAGER, VIEWER = "ann@example.com", "vic@example.com"
QUESTION = "Liệt kê năm món có số phần cao nhất trong bảy ngày qua"


@pytest.fixture(scope="module")
def provider() -> Iterator[str]:
    """oidc-provider-mock on 127.0.0.1 with two predefined users (their e-mail is Aria's identity)."""
    import oidc_provider_mock
    import werkzeug.serving

    users = [oidc_provider_mock.User(sub=name.split("@")[0], claims={"email": name}) for name in (MANAGER, VIEWER)]
    server = werkzeug.serving.make_server("127.0.0.1", 0, oidc_provider_mock.app(user_claims=users), threaded=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.1,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, aria_home: Path, settings: Settings, provider: str,
           request: pytest.FixtureRequest) -> Iterator[str]:
    """``aria demo --address 0.0.0.0`` with ARIA_AUTH=oidc, on the session's seeded database."""
    targets: Targets = request.getfixturevalue("seeded")
    store = UserStore(targets.kb, settings)
    store.ensure_schema()
    for name, role in ((MANAGER, "manager"), (VIEWER, "viewer"), ("boss@example.com", "admin")):
        if store.get(name) is None:
            add_user(store, name, role, None)
    port = free_port()
    script = tmp_path_factory.mktemp("script") / "two_people.json"  # demo.json's answers, for both people's questions
    demo = json.loads(SCRIPT.read_text(encoding="utf-8"))
    script.write_text(json.dumps({k: v * 3 if isinstance(v, list) else v for k, v in demo.items()}), encoding="utf-8")
    env = {**os.environ, "ARIA_HOME": str(aria_home), "HF_HUB_OFFLINE": "1", "ARIA_LLM": f"scripted:{script}",
           "ARIA_CONFIG": str(tmp_path_factory.mktemp("cfg") / "aria.toml"), "ARIA_AUTH": "oidc",
           "ARIA_OIDC_SERVER_METADATA_URL": f"{provider}/.well-known/openid-configuration",
           "ARIA_OIDC_CLIENT_ID": "aria", "ARIA_OIDC_CLIENT_SECRET": "test-client-secret-not-real",
           "ARIA_OIDC_REDIRECT_URI": f"http://127.0.0.1:{port}/oauth2callback"}
    command = [str(Path(sys.executable).parent / "aria"), "demo", "--port", str(port), "--no-browser",
               "--address", "0.0.0.0"]
    process = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)  # type: ignore[arg-type]
        yield url
    finally:
        process.terminate()
        output = process.communicate(timeout=30)[0].decode("utf-8", "replace")
        assert "test-client-secret-not-real" not in output, "the client secret never reaches the log"


def _sign_in(page: object, url: str, who: str) -> None:
    from playwright.sync_api import expect

    page.goto(url, wait_until="networkidle")  # type: ignore[attr-defined]
    page.get_by_role("button", name=re.compile("Đăng nhập qua")).click()  # type: ignore[attr-defined]
    page.get_by_role("button", name=who.split("@")[0], exact=True).click()  # type: ignore[attr-defined]
    expect(page.get_by_test_id("stChatInputTextArea")).to_be_visible(timeout=60_000)  # type: ignore[attr-defined]


def _ask(page: object) -> object:
    from playwright.sync_api import expect

    chat = page.get_by_test_id("stChatInputTextArea")  # type: ignore[attr-defined]
    chat.fill(QUESTION)
    chat.press("Enter")
    answer = page.get_by_test_id("stChatMessage")  # type: ignore[attr-defined]
    expect(answer.get_by_test_id("stDataFrame").first).to_be_visible(timeout=120_000)
    return answer


def _latest_revision_author(settings: Settings, targets: Targets) -> str:
    with connect(targets.kb, settings=settings, autocommit=True) as conn:
        row = conn.execute(sql.SQL("SELECT author FROM {}.revisions ORDER BY id DESC LIMIT 1").format(
            sql.Identifier(settings.kb_schema))).fetchone()
    return str(row[0]) if row else ""


def test_oidc_sign_in_confirm_names_the_user_and_a_viewer_is_refused(
        server: str, settings: Settings, seeded: Targets) -> None:
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        stranger = browser.new_page(viewport={"width": 1400, "height": 1000})
        stranger.goto(server, wait_until="networkidle")
        expect(stranger.get_by_text("Đăng nhập vào Aria")).to_be_visible(timeout=60_000)
        stranger.wait_for_timeout(1500)  # anything else the page would draw
        assert stranger.get_by_test_id("stChatInputTextArea").count() == 0
        assert stranger.get_by_test_id("stDataFrame").count() == 0 and stranger.locator(".js-plotly-plot").count() == 0
        body = stranger.inner_text("body")
        assert "₫" not in body and "Lẩu" not in body and "SELECT" not in body
        stranger.screenshot(path=str(ARTIFACTS / "oidc_sign_in.png"), full_page=True)

        manager = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        _sign_in(manager, server, MANAGER)
        expect(manager.get_by_text(MANAGER).first).to_be_visible()
        _ask(manager)
        manager.get_by_role("button", name="Xác nhận").click()
        apply = manager.get_by_role("button", name="Lưu vào cơ sở tri thức")
        expect(apply).to_be_visible(timeout=30_000)
        apply.click()
        expect(manager.get_by_text("Đã lưu vào cơ sở tri thức.")).to_be_visible(timeout=30_000)
        manager.screenshot(path=str(ARTIFACTS / "oidc_manager_confirmed.png"), full_page=True)
        assert _latest_revision_author(settings, seeded) == MANAGER

        viewer = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        _sign_in(viewer, server, VIEWER)
        _ask(viewer)
        viewer.wait_for_timeout(1000)
        assert viewer.get_by_role("button", name="Xác nhận").count() == 0
        viewer.goto(f"{server}/sql_workbench", wait_until="networkidle")
        expect(viewer.get_by_test_id("stChatInputTextArea").or_(viewer.get_by_text(re.compile("may not|not found",
                                                                                            re.I))).first
               ).to_be_visible(timeout=60_000)
        assert viewer.get_by_test_id("stTextArea").count() == 0, "no SQL editor for a viewer"
        viewer.screenshot(path=str(ARTIFACTS / "oidc_viewer_workbench_refused.png"), full_page=True)
        browser.close()
