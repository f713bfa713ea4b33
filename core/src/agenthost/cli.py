"""The ``agenthost`` command.

Errors are one line on stderr, never a traceback. Exit codes for ``call``: 0
success, 1 the tool returned an error, 2 usage errors, invalid arguments and
unknown tools.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from typing import Any, NoReturn

from agenthost import __version__

USAGE_ERRORS = {"invalid_arguments", "unknown_tool"}


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--workspace", metavar="DIR", default=".", help="the workspace folder (default: .)")
    common.add_argument(
        "--config",
        metavar="FILE",
        help="config file (default: $AGENTHOST_CONFIG, then <workspace>/agenthost.toml)",
    )

    parser = _Parser(prog="agenthost", description="A plugin-based tool host for LLM agents.")
    parser.add_argument("--version", action="version", version=f"agenthost {__version__}")
    parser.add_argument(
        "--log-level",
        default="warning",
        choices=["debug", "info", "warning", "error"],
        type=str.lower,
        help="log level for messages on stderr (default: warning)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    tools = commands.add_parser("tools", parents=[common], help="list the available tools")
    tools.add_argument("--json", action="store_true", help="print a JSON array")

    call = commands.add_parser(
        "call",
        parents=[common],
        help="call one tool and print its result",
        description="Call one tool. Arguments come as a JSON object and/or --arg key=value "
        "(the value is parsed as JSON when it can be, else taken as a string).",
    )
    call.add_argument("tool", help="the tool's name")
    call.add_argument("arguments", nargs="?", help='a JSON object, e.g. \'{"path": "README.md"}\'')
    call.add_argument(
        "--arg", action="append", default=[], metavar="KEY=VALUE", help="one argument; repeatable"
    )
    call.add_argument("--json", action="store_true", help="print the whole ToolResult as JSON")
    call.add_argument("--timeout", type=float, metavar="SECONDS", help="time limit for this call")

    plugins = commands.add_parser("plugins", parents=[common], help="list installed plugins and their status")
    plugins.add_argument("--json", action="store_true", help="print a JSON array")

    schema = commands.add_parser("schema", parents=[common], help="print tool definitions for an LLM API")
    schema.add_argument("--format", default="openai", choices=["openai", "anthropic", "mcp"])
    schema.add_argument("tools", nargs="*", metavar="TOOL", help="only these tools (default: all)")

    # serve tells an explicit --workspace from none: without one it takes the
    # client's first MCP root, else the current folder (never / or home)
    serve_common = _Parser(add_help=False)
    serve_common.add_argument(
        "--workspace",
        metavar="DIR",
        default=None,
        help="the workspace folder (default: the client's first MCP root, else the current folder)",
    )
    serve_common.add_argument(
        "--config",
        metavar="FILE",
        help="config file (default: $AGENTHOST_CONFIG, then <workspace>/agenthost.toml)",
    )
    serve = commands.add_parser("serve", parents=[serve_common], help="serve the tools over MCP")
    serve.add_argument(
        "--log-level",
        default=argparse.SUPPRESS,
        choices=["debug", "info", "warning", "error"],
        type=str.lower,
        help="log level for messages on stderr (default: warning)",
    )
    serve.add_argument("--transport", default="stdio", choices=["stdio", "http"])
    serve.add_argument("--host", default="127.0.0.1", help="address to bind for http (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, help="port for http (default: 8765)")
    serve.add_argument("--token", help="bearer token required from http clients (or $AGENTHOST_TOKEN)")
    serve.add_argument("--plugins", help="only these plugins, comma-separated")
    serve.add_argument("--tools", help="only tools matching these patterns, comma-separated")

    commands.add_parser(
        "doctor", parents=[common], help="show which optional pieces are present and how to add the rest"
    ).add_argument("--json", action="store_true", help="print a JSON array of checks")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, args.log_level.upper()),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(COMMANDS[args.command](args) or 0)
    except UsageError as e:
        print(f"agenthost {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:
        from agenthost.errors import ConfigError

        if isinstance(e, ConfigError):
            print(f"agenthost: error: {e}", file=sys.stderr)
            return 2
        logging.getLogger("agenthost").debug("internal error", exc_info=True)
        print(
            f"agenthost: internal error: {type(e).__name__}: {e} (run with --log-level debug for details)",
            file=sys.stderr,
        )
        return 1


def _host(args: argparse.Namespace, plugins: list[str] | None = None) -> Any:
    from agenthost.host import Host

    return Host(workspace=args.workspace, config=args.config, plugins=plugins)


def cmd_tools(args: argparse.Namespace) -> int:
    host = _host(args)
    tools = sorted(host.tools.values(), key=lambda t: t.name)
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": t.name,
                        "plugin": t.plugin,
                        "level": t.level,
                        "description": t.description,
                        "annotations": t.annotations,
                    }
                    for t in tools
                ],
                indent=2,
            )
        )
        return 0
    if not tools:
        print(
            "no tools: install a plugin, e.g. pip install agenthost-fs (agenthost plugins shows what loaded)"
        )
        return 0
    width = max(len(t.name) for t in tools)
    for t in tools:
        summary = (t.description.strip().splitlines() or [""])[0]
        print(f"{t.name:<{width}}  {t.level:<7}  {t.plugin:<8}  {summary}")
    return 0


def cmd_plugins(args: argparse.Namespace) -> int:
    host = _host(args)
    infos = sorted(host.plugin_infos, key=lambda i: i.name)
    if args.json:
        print(json.dumps([i.to_dict() for i in infos], indent=2))
        return 0
    if not infos:
        print("no plugins installed: pip install agenthost (or a single layer, e.g. agenthost-fs)")
    for i in infos:
        where = f"{i.distribution} {i.version}" if i.distribution else "in process"
        if i.status == "loaded":
            print(f"{i.name:<10} loaded  ({where}): {len(i.tools)} tools")
        else:
            print(f"{i.name:<10} FAILED  ({where}): {i.error}")
        for problem in i.problems:
            print(f"{'':<10} problem: {problem}")
    return 0


def parse_call_arguments(text: str | None, pairs: list[str]) -> dict[str, Any]:
    arguments: dict[str, Any] = {}
    if text:
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as e:
            raise UsageError(
                f'arguments are not valid JSON ({e.msg} at column {e.colno}); pass a JSON object like \'{{"path": "README.md"}}\''
            ) from None
        if not isinstance(parsed, dict):
            raise UsageError('arguments must be a JSON object like \'{"path": "README.md"}\'')
        arguments.update(parsed)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--arg {pair!r} must look like key=value")
        try:
            arguments[key] = json.loads(value)
        except json.JSONDecodeError:
            arguments[key] = value
    return arguments


def cmd_call(args: argparse.Namespace) -> int:
    arguments = parse_call_arguments(args.arguments, args.arg)
    host = _host(args)
    from agenthost.terminal import TerminalFrontend

    async def run() -> Any:
        async with host, host.session(frontend=TerminalFrontend.if_interactive()) as session:
            return await session.call(args.tool, arguments, timeout=args.timeout)

    result = run_until_signal(run())
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    elif result.ok:
        _print_content(result)
    if not result.ok:
        if not args.json:
            print(f"agenthost call: {result.error.type}: {result.error.message}", file=sys.stderr)
        return 2 if result.error.type in USAGE_ERRORS else 1
    return 0


def _print_content(result: Any) -> None:
    from agenthost.results import ImageBlock

    text = result.text
    if text:
        print(text)
    for block in result.content:
        if isinstance(block, ImageBlock):
            print(f"[image {block.mime_type}, {len(block.data) * 3 // 4:,} bytes; use --json for the data]")


def cmd_schema(args: argparse.Namespace) -> int:
    host = _host(args)
    unknown = [n for n in args.tools if n not in host.tools]
    if unknown:
        raise UsageError(f"unknown tool(s): {', '.join(unknown)} (agenthost tools lists them)")
    print(json.dumps(host.definitions(args.format, args.tools or None), indent=2))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from agenthost.mcp_server import serve
    except ImportError as e:
        raise UsageError(f"serving needs the MCP SDK ({e}): pip install 'agenthost-core[serve]'") from None
    return int(serve(args) or 0)


def cmd_doctor(args: argparse.Namespace) -> int:
    from agenthost.doctor import run_doctor

    return int(run_doctor(args) or 0)


def run_until_signal(coro: Any) -> Any:
    """Run ``coro``; SIGTERM and SIGINT cancel it, so sessions close and
    every process a tool started is reaped before the command exits."""
    import asyncio  # here: `agenthost tools` never needs it

    async def guarded() -> Any:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, task.cancel)  # type: ignore[union-attr]
            except (NotImplementedError, RuntimeError):
                pass
        return await coro

    try:
        return asyncio.run(guarded())
    except asyncio.CancelledError:
        raise KeyboardInterrupt from None


COMMANDS = {
    "tools": cmd_tools,
    "call": cmd_call,
    "plugins": cmd_plugins,
    "schema": cmd_schema,
    "serve": cmd_serve,
    "doctor": cmd_doctor,
}

if __name__ == "__main__":
    sys.exit(main())
