"""Aria's Streamlit entry point: ``streamlit run aria/ui/app.py`` (``aria demo`` does this).

Routes with ``st.navigation`` over the thin page files in ``pages/``; all logic is in ``aria.ui``.
"""

from __future__ import annotations

import streamlit as st

from aria.paths import pages_dir
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
    folder = pages_dir()
    language = current_settings().ui_language
    pages = [
        st.Page(folder / file, title=t(title, language), icon=icon, default=(file == "chat.py"))
        for file, title, icon in PAGES
    ]
    st.navigation(pages).run()


if __name__ == "__main__":
    main()
