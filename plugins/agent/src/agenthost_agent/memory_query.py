"""Turning a model's words into safe SQL: FTS5 MATCH expressions (every word
quoted, stopwords dropped), the tag filter, and the checks on keys and tags."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from agenthost.errors import InvalidArguments

MAX_KEY_CHARS = 200
WORD = re.compile(r"\w+", re.UNICODE)

# Words too common to tell memories apart: dropped from a query that has other
# words (they add nothing to the ranking, and scoring every memory that holds
# "the" costs time).
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)


def query_words(query: str) -> list[str]:
    words = WORD.findall(query)
    kept = [w for w in words if w.lower() not in STOPWORDS]
    return kept or words


def match_expression(query: str, any_word: bool = False) -> str:
    """A safe FTS5 MATCH expression for free text: each word quoted (so model
    text cannot be FTS5 syntax), all words required unless ``any_word``;
    stopwords left out when other words remain."""
    words = query_words(query)
    if not words:
        raise InvalidArguments("the query has no words to search for; give one or more words")
    quoted = ['"' + w.replace('"', '""') + '"' for w in words]
    return (" OR " if any_word else " ").join(quoted)


def normalize_tags(tags: Iterable[str] | None) -> list[str]:
    seen: dict[str, None] = {}
    for tag in tags or []:
        tag = " ".join(str(tag).split())
        if tag:
            seen.setdefault(tag, None)
    return list(seen)


def check_key(key: str | None, action: str) -> str:
    if key is None or not key.strip():
        raise InvalidArguments(f"memory action={action} needs a key (the name the memory is stored under)")
    key = key.strip()
    if len(key) > MAX_KEY_CHARS:
        raise InvalidArguments(f"a memory key is at most {MAX_KEY_CHARS} characters; use a shorter name")
    if "\n" in key or "\r" in key:
        raise InvalidArguments("a memory key is one line; remove the line breaks")
    return key


def tag_filter(column: str, tags: list[str]) -> tuple[str, list[Any]]:
    """Keep rows that carry every tag in ``tags``."""
    if not tags:
        return "", []
    marks = ", ".join("?" * len(tags))
    return (
        f" AND {column} IN (SELECT memory_id FROM memory_tags WHERE tag IN ({marks}) "
        f"GROUP BY memory_id HAVING count(*) = ?)",
        [*tags, len(tags)],
    )
