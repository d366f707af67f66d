"""knowledge_base page."""

from aria.ui import auth, kb_page

auth.require("page:knowledge_base")
kb_page.render()
