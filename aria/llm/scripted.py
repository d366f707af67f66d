"""The scripted test model: a real LangChain chat model that answers from a JSON file, not an LLM.

File format (``tests/data/scripted/demo.json`` is a full example)::

    {
      "_about": "keys starting with _ are comments",
      "sql_generator": ["```sql\\nSELECT 1\\n```"],
      "sql_judge": [{"column": 9, "granularity": 9, "join": 10, "logic": 9, "diagnosis": "ok"}],
      "entailment_judge": [{"_error": 429}, {"schema": 5, "data": 5, "diagnosis": "ok"}]
    }

Each role's responses are returned in order, one per call of that role; a role whose list runs out
raises :class:`ModelError`. A JSON object or list is returned as its JSON text, a string as is. An
object ``{"_error": "timeout" | <HTTP status>}`` makes that call fail instead (to test retries).

How the model knows the role of a call: the rendered system message begins with the marker line
``[aria role: <role>]`` (written by :meth:`aria.llm.prompts.Prompt.render`); failing that, the
``aria_role`` key of the invoke config's metadata (``config={"metadata": {"aria_role": ...}}``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

from aria.errors import ConfigError, ModelError
from aria.llm.prompts import ROLE_MARKER_RE
from aria.llm.schemas import ROLES

SCRIPTED_DIR = Path(__file__).resolve().parent.parent.parent / "tests" / "data" / "scripted"


class ScriptedHTTPError(Exception):
    """A scripted provider failure with an HTTP status (classified like the SDKs' status errors)."""

    def __init__(self, status_code: int) -> None:
        self.status_code = status_code
        super().__init__(f"scripted HTTP {status_code}")


def resolve_script_path(name: str) -> Path:
    """The file as given (absolute or relative to the working dir), else in ``tests/data/scripted/``."""
    path = Path(name).expanduser()
    if path.is_file():
        return path
    bundled = SCRIPTED_DIR / name
    if not path.is_absolute() and bundled.is_file():
        return bundled
    raise ConfigError(
        f"The scripted model file {name!r} does not exist.",
        hint=f"Give a path to a JSON file, or a name in {SCRIPTED_DIR}.",
    )


def load_script(path: Path) -> dict[str, list[Any]]:
    """Read and check a script file: role -> list of responses."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"The scripted model file {path} is not readable JSON ({exc}).", hint="Fix it.") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"The scripted model file {path} must hold an object.", hint="Map role -> [responses].")
    script = {k: v for k, v in data.items() if not k.startswith("_")}
    for role, responses in script.items():
        if role not in ROLES:
            raise ConfigError(f"The scripted model file {path} names unknown role {role!r}.", hint=f"Roles: {', '.join(ROLES)}.")
        if not isinstance(responses, list):
            raise ConfigError(f"In {path}, role {role!r} must map to a list of responses.", hint="Use [ ... ].")
    return script


def _role_of(messages: Sequence[BaseMessage], run_manager: CallbackManagerForLLMRun | None) -> str | None:
    for message in messages:
        if isinstance(message, SystemMessage) and isinstance(message.content, str):
            match = ROLE_MARKER_RE.match(message.content)
            if match:
                return match.group(1)
    metadata = getattr(run_manager, "metadata", None) or {}
    role = metadata.get("aria_role")
    return str(role) if role else None


def _as_text(response: Any) -> str:
    if isinstance(response, str):
        return response
    return json.dumps(response, ensure_ascii=False)


def _raise_scripted_error(spec: Any) -> None:
    if spec == "timeout":
        raise httpx.TimeoutException("scripted timeout")
    if isinstance(spec, int):
        raise ScriptedHTTPError(spec)
    raise ConfigError(f"Unknown scripted _error {spec!r}.", hint='Use "timeout" or an HTTP status number.')


class ScriptedChatModel(BaseChatModel):
    """A test model: scripted responses per role, in order. Never a real LLM."""

    path: Path
    script: dict[str, list[Any]]
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _used: dict[str, int] = PrivateAttr(default_factory=dict)

    @classmethod
    def from_file(cls, name: str | Path) -> ScriptedChatModel:
        path = resolve_script_path(str(name))
        return cls(path=path, script=load_script(path))

    @property
    def _llm_type(self) -> str:
        return "aria-scripted"

    def used(self, role: str) -> int:
        with self._lock:
            return self._used.get(role, 0)

    def reset(self) -> None:
        """Start every role's list from the beginning again."""
        with self._lock:
            self._used.clear()

    def _next_response(self, role: str) -> Any:
        with self._lock:
            used = self._used.get(role, 0)
            responses = self.script.get(role, [])
            if used >= len(responses):
                raise ModelError(
                    f"scripted model file {self.path.name} has no more responses for role {role!r} (used {used}).",
                    hint="Add responses for this role to the file.",
                )
            self._used[role] = used + 1
            return responses[used]

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        role = _role_of(messages, run_manager)
        if role is None:
            raise ModelError(
                f"scripted model file {self.path.name} cannot tell the role of this call.",
                hint="Start the system message with '[aria role: <role>]' or pass metadata aria_role.",
            )
        response = self._next_response(role)
        if isinstance(response, dict) and set(response) == {"_error"}:
            _raise_scripted_error(response["_error"])
        text = _as_text(response)
        prompt_chars = sum(len(str(m.content)) for m in messages)
        usage = UsageMetadata(
            input_tokens=prompt_chars // 4,
            output_tokens=max(1, len(text) // 4),
            total_tokens=prompt_chars // 4 + max(1, len(text) // 4),
        )
        message = AIMessage(
            content=text, usage_metadata=usage, response_metadata={"model_name": f"scripted:{self.path.name}"}
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
