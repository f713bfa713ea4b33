"""``ask_user``: a question for the person, through whatever can reach them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from agenthost import InvalidArguments, Param, ToolFailure, tool

if TYPE_CHECKING:
    from agenthost import ToolContext

MAX_OPTIONS = 20


@tool(level="read", open_world=True, timeout_s=3600)
async def ask_user(
    question: Annotated[str, Param(min_length=1)],
    options: list[str] | None = None,
    multi_select: bool = False,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> dict[str, Any]:
    """Ask the user a question and wait for the answer. Use it when you need a
    decision or a fact only the user has (a preference, a missing requirement,
    a choice between approaches); do not use it for things you can find out
    yourself. Offer options when the answer is one of a few choices.

    :param question: the question, complete and specific.
    :param options: choices to offer (2 or more); the answer is one of them, or
        free text when the front end allows it.
    :param multi_select: allow several options to be chosen (needs options).
    """
    question = question.strip()
    if not question:
        raise InvalidArguments("the question is empty; write the question to ask")
    choices = [o.strip() for o in options or [] if o.strip()] or None
    if choices is not None:
        if len(choices) > MAX_OPTIONS:
            raise InvalidArguments(f"at most {MAX_OPTIONS} options; group them")
        if len(set(choices)) != len(choices):
            raise InvalidArguments("the options repeat; give each choice once")
    if multi_select and not choices:
        raise InvalidArguments("multi_select needs options to choose from")
    answer = await ctx.session.ask_user(question, choices, multi_select)
    if isinstance(answer, (list, tuple)):
        picked = [str(a) for a in answer]
        if multi_select:
            return {"question": question, "answer": picked}
        if len(picked) != 1:
            raise ToolFailure(f"expected one answer, the front end gave {len(picked)}; ask again")
        answer = picked[0]
    text = answer if isinstance(answer, str) else str(answer)
    if multi_select:
        return {"question": question, "answer": [text] if text else []}
    return {"question": question, "answer": text}
