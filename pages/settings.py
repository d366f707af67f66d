"""settings page."""

from aria.ui import settings_page

settings_page.render()
