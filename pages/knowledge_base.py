"""knowledge_base page."""

from aria.ui import kb_page

kb_page.render()
