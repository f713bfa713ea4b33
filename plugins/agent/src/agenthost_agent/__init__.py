"""Agent tools for agenthost: todo_write, memory (SQLite FTS5), ask_user, task, compact, skill."""
