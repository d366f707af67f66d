"""Chat: ask Aria a question about the restaurant."""

from aria.ui import auth, chat

auth.require("page:chat")
chat.render()
