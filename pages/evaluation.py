"""evaluation page."""

from aria.ui import auth, evaluation_page

auth.require("page:evaluation")
evaluation_page.render()
