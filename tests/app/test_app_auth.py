"""Sign-in and roles through AppTest: an unauthenticated request to any page gets the sign-in screen
and no data; the form (right and wrong password, throttle, expiry, a disabled account); what each role
may and may not do, checked on the server; the audit names the person; History shows a viewer their
own questions; an OIDC identity maps to its account; an exposed address with no sign-in shows nothing."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from psycopg import sql
from streamlit import config as st_config
from streamlit.testing.v1 import AppTest

from aria.config import Settings
from aria.db.connect import Targets, connect
from aria.kb.accounts import User, add_user
from aria.kb.store import KnowledgeStore
from aria.kb.users import UserStore
from aria.reflect.answer import Answer
from aria.reflect.enrichment import EnrichmentPreview
from aria.ui import auth, resources
from aria.ui.state import ChatTurn
from tests.app.fakes import SQL, FakeEngine, sample_answer, sample_trace

MakeApp = Callable[..., AppTest]
PAGES_DIR = Path(__file__).resolve().parents[2] / "pages"
PAGES = ["chat", "knowledge_base", "history", "sql_workbench", "evaluation", "settings"]
PASSWORD = "mat-khau-" + uuid.uuid4().hex[:8]
SIGN_IN_TITLE = "Đăng nhập vào Aria"


@pytest.fixture(scope="module")
def auth_settings(settings: Settings, targets: Targets) -> Settings:
    """Local sign-in on its own KB schema (empty KB tables), with a viewer, a manager and an admin."""
    own = settings.model_copy(update={"auth": "local", "kb_schema": f"kb_{uuid.uuid4().hex[:10]}",
                                      "sign_in_max_failures": 2, "sign_in_lockout_s": 60})
    kb = KnowledgeStore(targets.kb, own)
    kb.ensure_schema()
    with kb.transaction() as conn:  # a KB "built" for the restaurant (no documents needed here)
        kb.set_fingerprint(conn, own.business_schema, "test", own.embedding_model, {})
    store = UserStore(targets.kb, own)
    for name, role in (("minh", "viewer"), ("lan", "manager"), ("hoa", "admin")):
        add_user(store, name, role, PASSWORD)
    add_user(store, "an@example.com", "manager", None)
    return own


@pytest.fixture()
def app(make_app: MakeApp, auth_settings: Settings) -> Callable[..., AppTest]:
    def open_as(name: str | None = None, role: str = "viewer", page: str | None = None) -> AppTest:
        at = make_app(auth_settings)
        if name is not None:
            at.session_state[auth.SIGNED_IN] = auth.SignedIn(User(name, role), time.time())  # type: ignore[arg-type]
        at.run()
        if page is not None:
            at.switch_page(f"../../pages/{page}.py").run()
        assert not at.exception, at.exception
        return at
    return open_as


def page_file(page: str, settings: Settings, name: str | None = None, role: str = "viewer") -> AppTest:
    """One page file run on its own (as if the navigation were bypassed)."""
    resources.use_settings(settings)
    at = AppTest.from_file(str(PAGES_DIR / f"{page}.py"), default_timeout=30)
    if name is not None:
        at.session_state[auth.SIGNED_IN] = auth.SignedIn(User(name, role), time.time())  # type: ignore[arg-type]
    return at.run()


def shows_sign_in_and_no_data(at: AppTest) -> None:
    assert not at.exception, at.exception
    assert [t.value for t in at.title] == [SIGN_IN_TITLE]
    assert not at.chat_input and not at.dataframe and not at.code and not at.get("plotly_chart")
    assert not at.sidebar.button, "no navigation or sign-out before sign-in"


@pytest.mark.parametrize("page", PAGES)
def test_an_unauthenticated_request_to_every_page_gets_the_sign_in_screen(
        app: Callable[..., AppTest], auth_settings: Settings, page: str) -> None:
    shows_sign_in_and_no_data(app(page=page))
    shows_sign_in_and_no_data(page_file(page, auth_settings))


def sign_in_with(at: AppTest, name: str, password: str) -> AppTest:
    at.text_input(key="auth_name").input(name)
    at.text_input(key="auth_password").input(password)
    at.button[0].click().run()
    assert not at.exception, at.exception
    return at


def test_the_form_signs_in_with_the_right_password_only(app: Callable[..., AppTest],
                                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    at = sign_in_with(app(), "lan", PASSWORD + "?")
    assert "Wrong name or password" in at.error[0].value and not at.chat_input
    at = sign_in_with(at, "lan", PASSWORD)
    assert at.chat_input and at.session_state[auth.SIGNED_IN].user.role == "manager"
    assert any("lan" in c.value for c in at.sidebar.caption)
    at.sidebar.button(key="auth_sign_out").click().run()
    assert [t.value for t in at.title] == [SIGN_IN_TITLE]
    assert "lan" in caplog.text and PASSWORD not in caplog.text, "sign-ins are logged, passwords never"


def test_the_form_is_throttled_after_repeated_wrong_passwords(app: Callable[..., AppTest],
                                                              auth_settings: Settings) -> None:
    name = f"ghost-{uuid.uuid4().hex[:6]}"
    at = app()
    for _ in range(2):
        at = sign_in_with(at, name, "wrong-password")
    at = sign_in_with(at, name, "wrong-password")
    assert "Too many wrong passwords" in at.error[0].value and not at.chat_input


def test_a_sign_in_expires(app: Callable[..., AppTest], make_app: MakeApp, auth_settings: Settings) -> None:
    at = make_app(auth_settings.model_copy(update={"session_ttl_minutes": 1}))
    at.session_state[auth.SIGNED_IN] = auth.SignedIn(User("lan", "manager"), time.time() - 61)
    at.run()
    assert [t.value for t in at.title] == [SIGN_IN_TITLE] and not at.chat_input
    assert "expired" in at.warning[0].value or "hết hạn" in at.warning[0].value


def test_a_disabled_account_is_signed_out_on_its_next_click(
        app: Callable[..., AppTest], auth_settings: Settings, targets: Targets,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(auth, "ACTIVE_CHECK_S", 0.0)
    store = UserStore(targets.kb, auth_settings)
    add_user(store, "tam", "manager", PASSWORD)
    at = app("tam", "manager")
    assert at.chat_input
    store.set_disabled("tam", True)
    at.run()
    shows_sign_in_and_no_data(at)


def ask(at: AppTest, question: str = "Doanh thu theo nhóm món?") -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def test_a_viewer_asks_and_reads_but_cannot_confirm_run_sql_or_open_manager_pages(
        app: Callable[..., AppTest], auth_settings: Settings, engine: FakeEngine) -> None:
    at = ask(app("minh", "viewer"))
    assert engine.asked[0][1].asked_by == "minh"
    assert at.markdown and any("Món chính" in m.value for m in at.markdown)
    labels = [b.label for b in at.button]
    assert "Xác nhận" not in labels and "Từ chối" not in labels and not any(b.key == "rerun0" for b in at.button)
    assert any(SQL[:30] in c.value for c in at.code), "the SQL is shown, read-only"
    turn: ChatTurn = at.session_state["aria_turns"][0]
    forged = EnrichmentPreview(question="x", sql="SELECT 1")
    turn.proposal, turn.confirming, turn.rejecting = forged, True, True  # a forged state
    at.run()
    assert engine.confirmed == [] and engine.rejected == [] and not any(b.key == "apply0" for b in at.button)
    for page in ("sql_workbench", "knowledge_base", "evaluation", "settings"):
        direct = page_file(page, auth_settings, "minh", "viewer")
        assert direct.error and "may not" in direct.error[0].value, page
        assert not direct.text_area and not direct.dataframe and not direct.button, page
        with pytest.raises(ValueError, match="Known pages: .*chat.py.*history.py'\\]"):
            at.switch_page(f"../../pages/{page}.py")  # the navigation offers a viewer chat and history only


def test_a_manager_confirms_and_the_revision_names_them(app: Callable[..., AppTest], engine: FakeEngine,
                                                        auth_settings: Settings) -> None:
    at = ask(app("lan", "manager"))
    next(b for b in at.button if b.label == "Xác nhận").click().run()
    at.button(key="apply0").click().run()
    assert not at.exception and engine.confirmed[0][1] == "lan"
    seen: list[str] = []
    reject = engine.reject

    def recording_reject(answer: Answer, *, reason: str = "", rejected_by: str = "") -> int:
        seen.append(rejected_by)
        return reject(answer, reason=reason, rejected_by=rejected_by)

    engine.reject = recording_reject  # type: ignore[method-assign, assignment]
    at = ask(app("lan", "manager"))
    next(b for b in at.button if b.label == "Từ chối").click().run()
    at.button(key="send0").click().run()
    assert len(engine.rejected) == 1 and seen == ["lan"]
    assert app("lan", "manager", "sql_workbench").button(key="wb_run")
    refused = page_file("settings", auth_settings, "lan", "manager")
    assert refused.error and "needs the admin role" in refused.error[0].value


def _open_revision(settings: Settings, targets: Targets) -> int:
    store = KnowledgeStore(targets.kb, settings)
    with connect(targets.kb, settings=settings, autocommit=True) as conn:
        row = conn.execute(sql.SQL("INSERT INTO {} (author, kind, payload) VALUES ('x', 'column_description', "
                                   "'{{}}') RETURNING id").format(store.ident("revisions"))).fetchone()
    return int(row[0])  # type: ignore[index]


def test_only_an_admin_may_undo_or_open_settings(app: Callable[..., AppTest], auth_settings: Settings,
                                                 targets: Targets) -> None:
    _open_revision(auth_settings, targets)
    manager = app("lan", "manager", "knowledge_base")
    assert manager.dataframe and not any(b.key == "kb_undo" for b in manager.button)
    admin = app("hoa", "admin", "knowledge_base")
    assert any(b.key == "kb_undo" for b in admin.button)
    settings_page = page_file("settings", auth_settings, "hoa", "admin")
    assert not settings_page.error and settings_page.number_input(key="set_theta_r")


def test_history_shows_a_viewer_their_own_questions_and_a_manager_everyones(
        app: Callable[..., AppTest], auth_settings: Settings, targets: Targets) -> None:
    store = KnowledgeStore(targets.kb, auth_settings)
    trace = sample_trace().model_dump(mode="json")
    mine, theirs = f"Câu của Minh {uuid.uuid4().hex[:6]}", f"Câu của Lan {uuid.uuid4().hex[:6]}"
    try:
        store.log_query(mine, SQL, "answered", trace, asked_by="minh")
        store.log_query(theirs, SQL, "answered", trace, asked_by="lan")
    finally:
        store.close()
    viewer = app("minh", "viewer", "history")
    listed = set(viewer.dataframe[0].value.iloc[:, 2])
    assert mine in listed and theirs not in listed
    assert not any(b.key == "history_rerun" for b in viewer.button), "re-running SQL is a manager's"
    manager = app("lan", "manager", "history")
    assert {mine, theirs} <= set(manager.dataframe[0].value.iloc[:, 2])
    manager.selectbox(key="history_person").set_value("lan").run()
    assert set(manager.dataframe[0].value.iloc[:, 2]) == {theirs}


def test_an_oidc_identity_signs_in_with_its_accounts_role(app: Callable[..., AppTest], make_app: MakeApp,
                                                          auth_settings: Settings,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    oidc = auth_settings.model_copy(update={"auth": "oidc"})
    monkeypatch.setattr(auth, "oidc_identity", lambda: "an@example.com")
    at = make_app(oidc).run()
    assert at.chat_input and at.session_state[auth.SIGNED_IN].user == User("an@example.com", "manager", "oidc")
    monkeypatch.setattr(auth, "oidc_identity", lambda: "stranger@example.com")
    at = make_app(oidc).run()
    assert [t.value for t in at.title] == [SIGN_IN_TITLE] and "no Aria account" in at.warning[0].value
    assert [b.label for b in at.button] == [auth.text("oidc", "vi")], "the provider's button, no password form"


@pytest.fixture()
def listening_on_every_address() -> Iterator[None]:
    before = st_config.get_option("server.address")
    st_config.set_option("server.address", "0.0.0.0")
    yield
    st_config.set_option("server.address", before)


def test_an_exposed_address_without_sign_in_shows_no_data(make_app: MakeApp, settings: Settings,
                                                          listening_on_every_address: None) -> None:
    at = make_app(settings).run()
    assert not at.exception and at.error and "0.0.0.0" in at.error[0].value
    assert not at.chat_input and not at.dataframe and not at.title


def test_loopback_needs_no_sign_in_and_audits_as_before(make_app: MakeApp, engine: FakeEngine) -> None:
    at = ask(make_app().run())
    assert engine.asked[0][1].asked_by == ""
    next(b for b in at.button if b.label == "Xác nhận").click().run()
    at.button(key="apply0").click().run()
    assert engine.confirmed[0][1] == "chat"
    assert sample_answer("x").status == "answered"


def test_an_admin_changes_a_role_and_disables_an_account_on_the_settings_page(
        auth_settings: Settings, targets: Targets) -> None:
    store = UserStore(targets.kb, auth_settings)
    add_user(store, "bao", "viewer", PASSWORD)
    at = page_file("settings", auth_settings, "hoa", "admin")
    assert "bao" in set(at.dataframe[0].value.iloc[:, 0])
    at.selectbox(key="users_name").set_value("bao").run()
    at.selectbox(key="users_role:bao").set_value("manager")
    at.checkbox(key="users_disabled:bao").check()
    next(b for b in at.button if b.label == "Lưu tài khoản").click().run()
    assert not at.exception and at.success, at.error
    assert "bao" in at.success[0].value, at.success[0].value
    account = store.get("bao")
    assert account is not None and account.role == "manager" and account.disabled
    at.selectbox(key="users_name").set_value("hoa").run()
    at.selectbox(key="users_role:hoa").set_value("viewer")
    next(b for b in at.button if b.label == "Lưu tài khoản").click().run()
    assert at.error and store.get("hoa").role == "admin"  # type: ignore[union-attr]
    assert not page_file("settings", auth_settings, "lan", "manager").dataframe, "a manager sees no accounts"


def _revisions(settings: Settings, targets: Targets) -> list[dict[str, object]]:
    store = KnowledgeStore(targets.kb, settings)
    try:
        columns, rows = store.revision_list()
    finally:
        store.close()
    return [dict(zip(columns, row, strict=True)) for row in rows]


def test_a_workbench_save_and_its_undo_name_the_people_who_did_them(
        app: Callable[..., AppTest], auth_settings: Settings, seeded: Targets) -> None:
    at = app("lan", "manager", "sql_workbench")
    at.button(key="wb_run").click().run()
    at.text_input(key="wb_question").input(f"Doanh thu theo nhóm món ({uuid.uuid4().hex[:6]})?")
    next(b for b in at.button if b.label == "Lưu thành truy vấn đã xác minh").click().run()
    assert not at.exception and any("Đã lưu" in s.value for s in at.success), [e.value for e in at.error]
    saved = _revisions(auth_settings, seeded)[0]
    assert (saved["kind"], saved["author"], saved["undone"]) == ("verified_example", "lan", False)
    admin = app("hoa", "admin", "knowledge_base")
    admin.selectbox(key="kb_undo_id").set_value(saved["id"]).run()
    admin.button(key="kb_undo").click().run()
    assert not admin.exception and admin.success, admin.error
    undone = next(r for r in _revisions(auth_settings, seeded) if r["id"] == saved["id"])
    assert undone["undone"] and undone["undone_by"] == "hoa"
