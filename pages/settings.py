"""settings page."""

from aria.ui import auth, settings_page

auth.require("page:settings")
settings_page.render()
