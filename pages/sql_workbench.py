"""sql_workbench page."""

from aria.ui import auth, workbench

auth.require("page:sql_workbench")
workbench.render()
