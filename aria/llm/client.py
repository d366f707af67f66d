"""The one door to the models: render a role's prompt, call the right model, get a typed answer.

::

    client = build_model_client(settings)            # None when ARIA_LLM is unset
    verdict = client.call_structured("sql_judge", {...}, SqlVerdict)
    sql = client.call_sql("sql_generator", {...})

Judge roles (retrieval_judge, sql_judge, entailment_judge) run on the judge model, the others on the
generator. Transient failures are retried (:mod:`aria.llm.retry`); an unusable answer is re-asked once
with the problem appended, then a :class:`ModelError` is raised. Calls and tokens are counted on
``client.meter``. A client is thread-safe; build one per session (cheap: :meth:`ModelClient.for_session`
shares the chat models and gives a fresh meter).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from aria.config import Settings
from aria.errors import ModelError
from aria.llm.meter import CallMeter, tokens_of
from aria.llm.parsing import OutputFormatError, extract_json, find_sql
from aria.llm.prompts import load_all_prompts, load_prompt
from aria.llm.retry import RetryPolicy, call_with_retries
from aria.llm.schemas import JUDGE_ROLES
from aria.llm.spec import model_label, parse_spec

if TYPE_CHECKING:  # LangChain is imported when a model is built (about 1 s): not for a no-model question
    from langchain_core.callbacks import Callbacks
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import BaseMessage
    from langchain_core.runnables import RunnableConfig

log = logging.getLogger(__name__)
T = TypeVar("T", bound=BaseModel)

_STRUCTURED_METHOD = {"anthropic": "function_calling", "openai": "function_calling", "ollama": "json_schema"}
REASK = (
    "Your previous answer could not be used: {error}. Answer again, with only {what}, "
    "in exactly the output format described in the instructions."
)


@dataclass(frozen=True)
class BoundModel:
    """A chat model with its display label and how to get structured output from it."""

    chat: BaseChatModel
    label: str
    structured_method: str | None = None  # None: tolerant JSON extraction from text

    @classmethod
    def from_spec(cls, spec: str, settings: Settings) -> BoundModel:
        from aria.llm.factory import build_chat_model

        parsed = parse_spec(spec)
        return cls(build_chat_model(spec, settings), model_label(spec), _STRUCTURED_METHOD.get(parsed.provider))

    @property
    def is_test_model(self) -> bool:
        return self.label.startswith("scripted:")


def _validation_summary(err: ValidationError) -> str:
    parts = [f"{'.'.join(str(p) for p in e['loc']) or 'answer'}: {e['msg']}" for e in err.errors()[:5]]
    return "; ".join(parts)


class ModelClient:
    """Typed, metered, retried calls to the generator and judge models."""

    def __init__(
        self,
        generator: BoundModel,
        judge: BoundModel | None = None,
        *,
        policy: RetryPolicy | None = None,
        timeout_s: float = 60.0,
        meter: CallMeter | None = None,
        callbacks: Callbacks = None,
    ) -> None:
        self.generator = generator
        self.judge = judge or generator
        self.policy = policy or RetryPolicy()
        self.timeout_s = timeout_s
        self.meter = meter or CallMeter()
        self.callbacks = callbacks  # passed in every call's config: the calls nest under the caller's run

    @property
    def label(self) -> str:
        """For traces and the UI, e.g. ``anthropic:claude-sonnet-4-5`` or ``... / judge: openai:gpt-4.1``."""
        if self.judge.label == self.generator.label:
            return self.generator.label
        return f"{self.generator.label} / judge: {self.judge.label}"

    @property
    def is_test_model(self) -> bool:
        return self.generator.is_test_model or self.judge.is_test_model

    def for_session(self) -> ModelClient:
        """A client sharing these chat models, with its own fresh meter."""
        return ModelClient(self.generator, self.judge, policy=self.policy, timeout_s=self.timeout_s)

    def with_callbacks(self, callbacks: Callbacks) -> ModelClient:
        """This client (same models and meter) with its calls reported to ``callbacks``, e.g. the
        current step's child callbacks, so that each call is a child run of the step."""
        return ModelClient(self.generator, self.judge, policy=self.policy, timeout_s=self.timeout_s, meter=self.meter,
                           callbacks=callbacks)

    def model_for(self, role: str) -> BoundModel:
        return self.judge if role in JUDGE_ROLES else self.generator

    def messages_for(self, role: str, variables: Mapping[str, object]) -> list[BaseMessage]:
        """The rendered messages of one call (the system message starts with the role marker)."""
        from langchain_core.messages import HumanMessage, SystemMessage

        rendered = load_prompt(role).render(variables)
        return [SystemMessage(content=rendered.system), HumanMessage(content=rendered.user)]

    def call_structured(self, role: str, variables: Mapping[str, object], response_model: type[T]) -> T:
        """Ask ``role`` and validate the answer as ``response_model`` (re-asked once if unusable)."""
        messages = self.messages_for(role, variables)
        return self._with_one_reask(role, messages, "the JSON object", lambda m: self._structured(role, m, response_model))

    def call_sql(self, role: str, variables: Mapping[str, object]) -> str:
        """Ask ``role`` for SQL; returns the bare SQL (fence and trailing semicolon removed)."""
        messages = self.messages_for(role, variables)
        return self._with_one_reask(role, messages, "one SQL query in a ```sql fence", lambda m: self._sql(role, m))

    def _with_one_reask(self, role: str, messages: list[BaseMessage], what: str, ask: Any) -> Any:
        try:
            return ask(messages)
        except OutputFormatError as first:
            from langchain_core.messages import HumanMessage

            log.info("model answer for %s was unusable (%s); asking again", role, first)
            retry = [*messages, HumanMessage(content=REASK.format(error=first, what=what))]
            try:
                return ask(retry)
            except OutputFormatError as second:
                raise ModelError(
                    f"The model {self.model_for(role).label} gave an unusable answer twice for {role} ({second}).",
                    hint="Try again; if it keeps happening, choose a stronger model (ARIA_LLM / ARIA_JUDGE_LLM).",
                ) from second

    def _invoke(self, role: str, runnable: Any, messages: list[BaseMessage]) -> Any:
        config: RunnableConfig = {"metadata": {"aria_role": role}, "run_name": f"aria:{role}", "tags": ["aria", role],
                                  "callbacks": self.callbacks}
        label = self.model_for(role).label
        return call_with_retries(
            lambda: runnable.invoke(messages, config=config),
            policy=self.policy,
            label=label,
            timeout_s=self.timeout_s,
            meter=self.meter,
        )

    def _text(self, role: str, messages: list[BaseMessage]) -> str:
        message = self._invoke(role, self.model_for(role).chat, messages)
        self.meter.record_response(tokens_of(message))
        return str(message.text)

    def _structured(self, role: str, messages: list[BaseMessage], response_model: type[T]) -> T:
        bound = self.model_for(role)
        if bound.structured_method is None:
            return self._parse_text(self._text(role, messages), response_model)
        runnable = bound.chat.with_structured_output(response_model, method=bound.structured_method, include_raw=True)
        out = self._invoke(role, runnable, messages)
        self.meter.record_response(tokens_of(out.get("raw")))
        parsed, error = out.get("parsed"), out.get("parsing_error")
        if error is not None or not isinstance(parsed, response_model):
            if isinstance(error, ValidationError):
                raise OutputFormatError(_validation_summary(error))
            raise OutputFormatError(str(error or "the answer did not match the required format"))
        return parsed

    @staticmethod
    def _parse_text(text: str, response_model: type[T]) -> T:
        data = extract_json(text)
        try:
            return response_model.model_validate(data)
        except ValidationError as err:
            raise OutputFormatError(_validation_summary(err)) from err

    def _sql(self, role: str, messages: list[BaseMessage]) -> str:
        text = self._text(role, messages)
        sql = find_sql(text)
        if sql is None:
            snippet = " ".join(text.split())[:120]
            raise OutputFormatError(f"it contained no SQL query (it began: {snippet!r})")
        return sql


def build_model_client(settings: Settings, *, policy: RetryPolicy | None = None) -> ModelClient | None:
    """The client for ``ARIA_LLM`` / ``ARIA_JUDGE_LLM``; ``None`` when no model is configured.

    Raises :class:`ConfigError` for a bad spec, a missing API key or a broken prompt file.
    """
    if not settings.llm:
        return None
    load_all_prompts()
    generator = BoundModel.from_spec(settings.llm, settings)
    judge_spec = settings.judge_spec
    judge = generator if judge_spec in (None, settings.llm) else BoundModel.from_spec(judge_spec, settings)
    return ModelClient(
        generator,
        judge,
        policy=policy or RetryPolicy.from_settings(settings),
        timeout_s=settings.llm_timeout_s,
    )
