"""evaluation page."""

from aria.ui import evaluation_page

evaluation_page.render()
