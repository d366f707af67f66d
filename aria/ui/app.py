"""Aria's Streamlit entry point: ``streamlit run aria/ui/app.py`` (``aria demo`` does this).

Routes with ``st.navigation`` over the thin page files in ``pages/``; all logic is in ``aria.ui``.
Nothing is drawn before :func:`aria.ui.auth.gate` knows who is asking; the navigation lists only the
pages their role allows (and each page checks the role again).
"""

from __future__ import annotations

import streamlit as st

from aria.kb.accounts import allows
from aria.paths import pages_dir
from aria.ui import auth
from aria.ui.formatting import t
from aria.ui.resources import current_settings
from aria.ui.state import init_state

PAGES = (
    ("chat.py", "nav_chat", ":material/chat:"),
    ("knowledge_base.py", "nav_kb", ":material/menu_book:"),
    ("history.py", "nav_history", ":material/history:"),
    ("sql_workbench.py", "nav_workbench", ":material/terminal:"),
    ("evaluation.py", "nav_eval", ":material/monitoring:"),
    ("settings.py", "nav_settings", ":material/settings:"),
)


def main() -> None:
    st.set_page_config(page_title="Aria", page_icon=":material/restaurant:", layout="wide")
    init_state()
    settings = current_settings()
    user = auth.gate(settings)
    folder = pages_dir()
    language = settings.ui_language
    pages = [
        st.Page(folder / file, title=t(title, language), icon=icon, default=(file == "chat.py"))
        for file, title, icon in PAGES if allows(user.role, f"page:{file.removesuffix('.py')}")
    ]
    auth.sidebar(user, settings)
    st.navigation(pages).run()


if __name__ == "__main__":
    main()
