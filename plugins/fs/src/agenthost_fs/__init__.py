"""File tools for agenthost: read, write, edit, glob, grep and more, confined to the workspace."""
