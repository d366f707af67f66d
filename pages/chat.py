"""Chat: ask Aria a question about the restaurant."""

from aria.ui import chat

chat.render()
