"""The terminal front end: y/N and choice prompts when a person is there."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from agenthost.host import Frontend


class TerminalFrontend(Frontend):
    """Prompts on stderr and reads stdin; only used when both are a TTY."""

    @classmethod
    def if_interactive(cls) -> Frontend:
        if sys.stdin.isatty() and sys.stderr.isatty():
            return cls()
        return Frontend()

    async def ask_user(self, question: str, options: list[str] | None, multi_select: bool) -> Any:
        lines = [f"\n? {question}"]
        for i, option in enumerate(options or [], 1):
            lines.append(f"  {i}. {option}")
        if options:
            lines.append(
                "answer with a number" + (" or several, comma-separated" if multi_select else "") + ": "
            )
        else:
            lines.append("> ")
        answer = (await self._input("\n".join(lines))).strip()
        if not options:
            return answer
        picked = []
        for part in answer.split(","):
            part = part.strip()
            if part.isdigit() and 1 <= int(part) <= len(options):
                picked.append(options[int(part) - 1])
            elif part in options:
                picked.append(part)
        if multi_select:
            return picked
        return picked[0] if picked else answer

    async def permission_request(self, tool: str, arguments: dict[str, Any], rule: str) -> bool | None:
        shown = json.dumps(arguments, ensure_ascii=False)
        if len(shown) > 300:
            shown = shown[:300] + "..."
        answer = await self._input(f"\nallow {tool} {shown}? (rule: {rule}) [y/N] ")
        return answer.strip().lower() in ("y", "yes")

    async def _input(self, prompt: str) -> str:
        def read() -> str:
            sys.stderr.write(prompt)
            sys.stderr.flush()
            return sys.stdin.readline()

        return await asyncio.to_thread(read)
