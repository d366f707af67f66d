"""Sign-in and roles in the app: who is asking, and whether they may.

``ARIA_AUTH=none`` (the default) signs nobody in: the app must then listen on loopback only, and the
person at the machine is the local operator (admin). Otherwise every run finds the signed-in user:
a local account (the form below, :func:`aria.kb.accounts.sign_in`) or an OpenID Connect identity
(Streamlit's ``st.login``/``st.user``, mapped to an account by :func:`aria.kb.accounts.oidc_user`).
A sign-in lasts ``session_ttl_minutes``; a disabled account or a changed role takes effect on the
next run. Every page calls :func:`require` and every action :func:`permitted` on the server.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from dataclasses import dataclass

import streamlit as st

from aria.config import Settings
from aria.errors import AriaError
from aria.kb.accounts import (
    LOCAL_OPERATOR,
    Forbidden,
    SignInRefused,
    User,
    active_user,
    allows,
    oidc_user,
    sign_in,
)
from aria.kb.accounts import require as require_role
from aria.kb.users import UserStore
from aria.ui.resources import current_settings, current_targets

log = logging.getLogger(__name__)

SIGNED_IN = "aria_signed_in"
CHECKED = "aria_account_checked"  # (time, user) of the last look at the account
ACTIVE_CHECK_S = 1.0  # one look per run (a run asks several times), and again on the next click
TEXT = {
    "title": {"vi": "Đăng nhập vào Aria", "en": "Sign in to Aria"},
    "intro": {"vi": "Aria chứa số liệu kinh doanh của nhà hàng; hãy đăng nhập để tiếp tục.",
              "en": "Aria holds the restaurant's business figures; sign in to continue."},
    "name": {"vi": "Tên đăng nhập", "en": "Name"},
    "password": {"vi": "Mật khẩu", "en": "Password"},
    "submit": {"vi": "Đăng nhập", "en": "Sign in"},
    "oidc": {"vi": "Đăng nhập qua nhà cung cấp danh tính", "en": "Sign in with your identity provider"},
    "sign_out": {"vi": "Đăng xuất", "en": "Sign out"},
    "expired": {"vi": "Phiên đăng nhập đã hết hạn; hãy đăng nhập lại.",
                "en": "Your sign-in has expired; sign in again."},
    "refused_page": {"vi": "Vai trò của bạn không được mở trang này.", "en": "Your role may not open this page."},
    "exposed": {"vi": "Aria đang mở trên mạng ({address}) mà chưa bật đăng nhập nên không hiển thị dữ liệu.",
                "en": "Aria is listening on {address} with no sign-in configured, so it shows no data."},
    "signed_in_as": {"vi": "Đăng nhập: **{name}** ({role})", "en": "Signed in: **{name}** ({role})"},
}


@dataclass(frozen=True)
class SignedIn:
    """A session's sign-in: the user and when it happened (``time.time()``)."""

    user: User
    at: float


def text(key: str, language: str, **values: str) -> str:
    return TEXT[key].get(language, TEXT[key]["en"]).format(**values)


def is_loopback(address: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost; False for 0.0.0.0, a LAN address or a name."""
    if not address:
        return False
    if address.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def sign_in_required(settings: Settings) -> bool:
    return settings.auth != "none"


def exposed_without_sign_in(settings: Settings) -> str | None:
    """The address when the app listens beyond loopback (server.address set so) with no sign-in."""
    address = st.get_option("server.address")
    if sign_in_required(settings) or not address or is_loopback(address):
        return None
    return str(address)


def user_store(settings: Settings) -> UserStore:
    return UserStore(current_targets(settings).kb, settings)


def oidc_identity() -> str | None:
    """The identity the OpenID Connect provider vouched for in this browser (e-mail, else subject)."""
    try:
        if not st.user.is_logged_in:
            return None
        return str(st.user.get("email") or st.user.get("sub") or "") or None
    except (AttributeError, KeyError, RuntimeError):  # no auth configured in this server
        return None


def current_user(settings: Settings) -> User | None:
    """The user this run acts for, or None (sign-in needed, expired, disabled, or an exposed address)."""
    if not sign_in_required(settings):
        return None if exposed_without_sign_in(settings) else LOCAL_OPERATOR
    session: SignedIn | None = st.session_state.get(SIGNED_IN)
    if session is None and settings.auth in ("oidc", "both"):
        session = _from_provider(settings)
    if session is None:
        return None
    if time.time() - session.at > settings.session_ttl_minutes * 60:
        log.info("sign-in of %s expired", session.user.name)
        sign_out(settings, expired=True)
        return None
    checked = st.session_state.get(CHECKED)
    if checked is not None and checked[1].name == session.user.name and time.time() - checked[0] < ACTIVE_CHECK_S:
        return checked[2]
    user = active_user(user_store(settings), session.user)
    st.session_state[CHECKED] = (time.time(), session.user, user)
    if user is None:
        log.info("%s is disabled or removed; signing out", session.user.name)
        sign_out(settings)
    return user


def _from_provider(settings: Settings) -> SignedIn | None:
    identity = oidc_identity()
    if identity is None:
        return None
    try:
        user = oidc_user(user_store(settings), identity, settings.oidc_default_role)
    except SignInRefused as err:
        st.session_state["aria_sign_in_error"] = str(err)
        return None
    session = SignedIn(user, _provider_sign_in_time())
    st.session_state[SIGNED_IN] = session
    log.info("%s signed in through the provider as %s", user.name, user.role)
    return session


def _provider_sign_in_time() -> float:
    """When the provider signed this browser in (the ID token's ``iat``), so a reload does not restart the
    session's clock; now when the token does not say."""
    try:
        issued = float(st.user.get("iat") or 0)  # type: ignore[arg-type]
    except (TypeError, ValueError, AttributeError):
        issued = 0.0
    return issued if 0 < issued <= time.time() + 60 else time.time()


def sign_out(settings: Settings, *, expired: bool = False) -> None:
    """End this session's sign-in (and the provider's cookie, for an OIDC identity)."""
    session: SignedIn | None = st.session_state.pop(SIGNED_IN, None)
    st.session_state.pop(CHECKED, None)
    if expired:
        st.session_state["aria_sign_in_error"] = text("expired", settings.ui_language)
    if session is not None and session.user.method == "oidc" and oidc_identity() is not None:
        st.logout()


def gate(settings: Settings | None = None) -> User:
    """The signed-in user; otherwise draws the sign-in screen (and nothing else) and stops the run."""
    settings = settings or current_settings()
    user = current_user(settings)
    if user is not None:
        return user
    address = exposed_without_sign_in(settings)
    if address is not None:
        st.error(text("exposed", settings.ui_language, address=address))
        st.code("aria users add NAME --role admin\nARIA_AUTH=local aria demo --address " + address)
        st.stop()
    sign_in_screen(settings)
    st.stop()
    raise AssertionError("unreachable")  # st.stop() raises inside a Streamlit run


def require(action: str) -> User:
    """The signed-in user when their role allows ``action`` (a page: ``page:<file stem>``); otherwise the
    sign-in screen or a refusal, and the run stops: nothing after this call is drawn or done."""
    settings = current_settings()
    user = gate(settings)
    try:
        return require_role(user, action)
    except Forbidden as err:
        log.warning("refused: %s", err)
        st.error(f"{text('refused_page', settings.ui_language)} {err}")
        st.stop()
        raise


def permitted(action: str) -> bool:
    """True when the signed-in user may do ``action`` (checked on the server before it is done)."""
    user = current_user(current_settings())
    return user is not None and allows(user.role, action)


def refuse_unless(action: str) -> bool:
    """:func:`permitted`, showing the refusal when it is not."""
    if permitted(action):
        return True
    user = current_user(current_settings())
    try:
        require_role(user, action)
    except Forbidden as err:
        log.warning("refused: %s", err)
        st.error(str(err))
    return False


def audit_name(fallback: str) -> str:
    """Who an audit record names: the signed-in person, or ``fallback`` (today's "chat", "ui", ...)
    when nobody signs in (loopback)."""
    user = current_user(current_settings())
    return user.name if user is not None and user.method != "loopback" else fallback


def asked_by() -> str:
    """The query log's owner of a question: the signed-in person, or "" on loopback."""
    return audit_name("")


def sign_in_screen(settings: Settings) -> None:
    """The sign-in form and/or the provider's button; no business data."""
    language = settings.ui_language
    st.title(text("title", language))
    st.caption(text("intro", language))
    error = st.session_state.pop("aria_sign_in_error", None)
    if error:
        st.warning(error)
    if settings.auth in ("oidc", "both") and st.button(text("oidc", language), key="auth_oidc", type="primary"):
        try:
            st.login()
        except Exception as err:  # noqa: BLE001 - Streamlit's auth errors: [auth] missing from its secrets
            log.error("OpenID Connect sign-in unavailable: %s", err)
            st.error(f"{err} — start Aria with `aria demo`, which writes the provider's settings for Streamlit.")
    if settings.auth in ("local", "both"):
        _local_form(settings)


def _local_form(settings: Settings) -> None:
    language = settings.ui_language
    with st.form("auth_form"):
        name = st.text_input(text("name", language), key="auth_name")
        password = st.text_input(text("password", language), type="password", key="auth_password")
        submitted = st.form_submit_button(text("submit", language), type="primary")
    if not submitted:
        return
    try:
        user = sign_in(user_store(settings), name.strip(), password, max_failures=settings.sign_in_max_failures,
                       lockout_s=settings.sign_in_lockout_s)
    except AriaError as err:
        st.error(str(err))
        return
    st.session_state[SIGNED_IN] = SignedIn(user, time.time())
    log.info("%s signed in (%s)", user.name, user.role)
    st.rerun()


def sidebar(user: User, settings: Settings) -> None:
    """Who is signed in, and a way out (nothing when nobody signs in)."""
    if user.method == "loopback":
        return
    with st.sidebar:
        st.caption(text("signed_in_as", settings.ui_language, name=user.name, role=user.role))
        if st.button(text("sign_out", settings.ui_language), key="auth_sign_out", icon=":material/logout:"):
            sign_out(settings)
            st.rerun()
