"""Shell tools for agenthost: bash with background processes, process-tree reaping, an optional bubblewrap sandbox."""
