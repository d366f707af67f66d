"""history page."""

from aria.ui import history_page

history_page.render()
