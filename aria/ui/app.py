"""Aria's Streamlit entry point: ``streamlit run aria/ui/app.py`` (``aria demo`` does this).

Routes with ``st.navigation`` over the thin page files in ``pages/``; all logic is in ``aria.ui``.
"""

from __future__ import annotations

import streamlit as st

from aria.paths import pages_dir
from aria.ui.state import init_state

PAGES = (
    ("chat.py", "Chat", ":material/chat:"),
    ("knowledge_base.py", "Knowledge Base", ":material/menu_book:"),
    ("history.py", "History", ":material/history:"),
    ("sql_workbench.py", "SQL Workbench", ":material/terminal:"),
    ("evaluation.py", "Evaluation", ":material/monitoring:"),
    ("settings.py", "Settings", ":material/settings:"),
)


def main() -> None:
    st.set_page_config(page_title="Aria", page_icon=":material/restaurant:", layout="wide")
    init_state()
    folder = pages_dir()
    pages = [
        st.Page(folder / file, title=title, icon=icon, default=(file == "chat.py"))
        for file, title, icon in PAGES
    ]
    st.navigation(pages).run()


if __name__ == "__main__":
    main()
