"""sql_workbench page."""

from aria.ui import workbench

workbench.render()
