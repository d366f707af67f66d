"""The Settings page's Accounts section (admins, when sign-in is on): every account, and a form to change
one's role or disable it. New accounts and passwords stay on the command line (``aria users``), where a
password is typed without echo and never passes through a browser form of another person."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from aria.config import Settings
from aria.errors import AriaError
from aria.kb.accounts import ROLES
from aria.ui import auth

COLUMNS = {"vi": ["Tên", "Vai trò", "Đăng nhập bằng", "Trạng thái"], "en": ["Name", "Role", "Signs in with", "State"]}
TEXT = {
    "title": {"vi": "Tài khoản", "en": "Accounts"},
    "caption": {"vi": "Thêm tài khoản hoặc đặt mật khẩu bằng `aria users add` / `aria users passwd`.",
                "en": "Add accounts or set passwords with `aria users add` / `aria users passwd`."},
    "account": {"vi": "Tài khoản", "en": "Account"},
    "role": {"vi": "Vai trò", "en": "Role"},
    "disabled": {"vi": "Vô hiệu hoá", "en": "Disabled"},
    "save": {"vi": "Lưu tài khoản", "en": "Save account"},
    "saved": {"vi": "Đã lưu {name}.", "en": "{name} saved."},
    "not_self": {"vi": "Bạn không thể tự bỏ quyền quản trị hoặc tự vô hiệu hoá.",
                 "en": "You cannot remove your own admin role or disable yourself."},
}


def _t(key: str, language: str) -> str:
    return TEXT[key][language]


def render(settings: Settings) -> None:
    """Draws nothing unless sign-in is on and the signed-in person is an admin."""
    if settings.auth == "none" or not auth.permitted("users"):
        return
    language = settings.ui_language
    st.markdown(f"##### {_t('title', language)}")
    st.caption(_t("caption", language))
    store = auth.user_store(settings)
    try:
        accounts = store.all()
    except AriaError as err:
        st.info(str(err))
        return
    rows = [(a.name, a.role, "password" if a.has_password else "OIDC", "disabled" if a.disabled else "active")
            for a in accounts]
    st.dataframe(pd.DataFrame(rows, columns=COLUMNS[language]), hide_index=True)
    if not accounts:
        return
    by_name = {a.name: a for a in accounts}
    name = st.selectbox(_t("account", language), list(by_name), key="users_name")
    with st.form("users_form"):  # keyed by the account, so each starts from that account's values
        role = st.selectbox(_t("role", language), ROLES, index=ROLES.index(by_name[name].role),  # type: ignore[arg-type]
                            key=f"users_role:{name}")
        disabled = st.checkbox(_t("disabled", language), value=by_name[name].disabled, key=f"users_disabled:{name}")
        submitted = st.form_submit_button(_t("save", language))
    if submitted and auth.refuse_unless("users"):
        _save(settings, name, role, disabled)


def _save(settings: Settings, name: str, role: str, disabled: bool) -> None:
    me = auth.current_user(settings)
    if me is not None and me.name == name and (role != "admin" or disabled):
        st.error(_t("not_self", settings.ui_language))
        return
    store = auth.user_store(settings)
    store.set_role(name, role)
    store.set_disabled(name, disabled)
    st.success(_t("saved", settings.ui_language).format(name=name))
