"""Every hook spec of agenthost. Bodies are docstrings only.

An implementation may accept fewer arguments than its spec (pluggy passes only
the ones it names), so new arguments can be added here later without breaking
plugins. Service hooks are `firstresult`: the first implementation that
returns something other than None answers. An implementation may return an
awaitable; the host awaits it. To decline, return None synchronously.
"""

from __future__ import annotations

from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("agenthost")


# -- registration --------------------------------------------------------


@hookspec
def agenthost_register_tools(register: Any, config: Any, host: Any) -> None:
    """Register this plugin's tools.

    :param register: call ``register(tool_or_function)`` for each tool; a plain
        function is wrapped with ``agenthost.tool``. ``register.problem(text)``
        records a partial failure (a broken JS file, an MCP server that did not
        start) shown by ``agenthost plugins`` under ``problems``.
    :param config: the host's ``Config``; ``config.section(name, Model)``
        validates this plugin's ``[plugins.<name>]`` table, ``config.workspace``
        and ``config.state_dir`` are the resolved folders.
    :param host: the ``Host`` being loaded, for plugins that add or remove
        tools later (``host.add_tool``, ``host.remove_tool``) or register a tool
        only when a service hook exists (``host.plugins.has(...)``).
    """


# -- events ---------------------------------------------------------------


@hookspec
def agenthost_tool_call_start(call: Any) -> None:
    """A call passed validation and policy and is about to run.

    :param call: the ``CallInfo`` (call_id, tool, arguments, session).
    """


@hookspec
def agenthost_tool_call_end(call: Any, result: Any) -> None:
    """A call finished (successfully or not); ``result`` is its ``ToolResult``.

    :param call: the ``CallInfo``.
    :param result: the ``ToolResult`` about to be returned.
    """


@hookspec
def agenthost_tools_changed(host: Any, added: list[str], removed: list[str]) -> None:
    """Tools were added to or removed from the registry at run time.

    :param host: the ``Host``.
    :param added: names of tools added.
    :param removed: names of tools removed.
    """


# -- services (the embedding agent or a front end supplies these) ----------


@hookspec(firstresult=True)
def agenthost_ask_user(question: str, options: list[str] | None, multi_select: bool, session: Any) -> Any:
    """Ask the person a question; return the answer (a string, or a list of
    strings for ``multi_select``), or None when this implementation cannot ask.

    :param question: the question as the model wrote it.
    :param options: choices to offer, or None for free text.
    :param multi_select: whether several options may be chosen.
    :param session: the ``Session`` the call belongs to.
    """


@hookspec(firstresult=True)
def agenthost_permission_request(tool: str, arguments: dict, rule: str, session: Any) -> Any:
    """Decide an ``ask`` policy decision: return True to allow, False to deny,
    None when this implementation cannot answer.

    :param tool: the tool's name.
    :param arguments: the call's arguments.
    :param rule: the policy rule that asked, e.g. ``bash(git push *)``.
    :param session: the ``Session`` the call belongs to.
    """


@hookspec(firstresult=True)
def agenthost_run_subagent(description: str, prompt: str, subagent_type: str | None, session: Any) -> Any:
    """Run a sub-agent on ``prompt`` and return its final answer as text.

    :param description: a short description of the task.
    :param prompt: the full instructions for the sub-agent.
    :param subagent_type: an optional kind of sub-agent.
    :param session: the ``Session`` the call belongs to.
    """


@hookspec(firstresult=True)
def agenthost_compact(focus: str | None, session: Any) -> Any:
    """Compact the embedding agent's context; return a summary text.

    :param focus: what the summary should keep, if given.
    :param session: the ``Session`` the call belongs to.
    """


@hookspec(firstresult=True)
def agenthost_run_command(command: str, cwd: str | None, timeout_s: float | None, session: Any) -> Any:
    """Run a shell command under the host's shell rules and return a dict
    ``{"stdout", "stderr", "exit_code", "timed_out"}``.

    :param command: the command line.
    :param cwd: the working folder (inside the workspace), or None.
    :param timeout_s: a time limit, or None for the default.
    :param session: the ``Session`` the call belongs to.
    """


@hookspec
def agenthost_search_backends(config: Any) -> list[Any]:  # type: ignore[empty-body]
    """Return web-search backends this plugin provides (each with ``name`` and
    an async ``search(query, count)``); ``web_search`` uses the configured ones.

    :param config: the host's ``Config``.
    """


# -- lifecycle -------------------------------------------------------------


@hookspec
def agenthost_host_start(host: Any) -> None:
    """The host finished loading plugins (start background work here).

    :param host: the ``Host``.
    """


@hookspec
def agenthost_session_start(session: Any) -> None:
    """A session opened.

    :param session: the ``Session``.
    """


@hookspec
def agenthost_session_end(session: Any) -> None:
    """A session is closing: release what it holds (processes, browser context).

    :param session: the ``Session``.
    """


@hookspec
def agenthost_host_shutdown(host: Any) -> None:
    """The host is closing, after every session ended.

    :param host: the ``Host``.
    """


# -- diagnostics -------------------------------------------------------------


@hookspec
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:  # type: ignore[empty-body]
    """Report this plugin's optional pieces for ``agenthost doctor``.

    Return a list of ``{"name": str, "ok": bool, "detail": str, "fix": str}``;
    ``fix`` is the exact command (or config) that adds a missing piece.

    :param config: the host's ``Config``.
    """
