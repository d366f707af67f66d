"""history page."""

from aria.ui import auth, history_page

auth.require("page:history")
history_page.render()
