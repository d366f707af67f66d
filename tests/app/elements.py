"""What an AppTest run drew inside the chat messages (the page also draws a hidden preload chart/table)."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest


def answer_tables(at: AppTest) -> list[Any]:
    """The result tables under the chat's answers, in order."""
    return [table for message in at.chat_message for table in message.dataframe]


def answer_charts(at: AppTest) -> list[Any]:
    """The Plotly charts under the chat's answers, in order."""
    return [chart for message in at.chat_message for chart in message.get("plotly_chart")]
